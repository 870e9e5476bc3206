"""A league keeps the counts of its ended matches (finished, failed, cancelled) in its
row, so its page never counts its history. Every way a league match ends is counted once, the
page's counts equal a live count after each, and migration 0022 fills the counts of an
existing database."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.db.models import Count
from django.utils import timezone

from tournament.models import League, Match
from tournament.selectors.site import league_match_counts
from tournament.services import events
from tournament.services import leagues as ls
from tournament.services import matches as ms

pytestmark = pytest.mark.django_db


def _live(league):
    counted = dict(
        Match.objects.filter(league=league).order_by().values_list("status")
        .annotate(n=Count("pk")).values_list("status", "n")
    )  # fmt: skip
    return {status: counted.get(status, 0) for status in Match.Status.values}


def _kept(league):
    return league_match_counts(league=League.objects.get(pk=league.pk))


def test_every_way_a_league_match_ends_is_counted_once(organiser, ready_version, runner):
    league = ls.league_create(organiser=organiser, name="Counted", mode="duel", seats=2,
                              format="round_robin")  # fmt: skip
    versions = [ready_version(organiser, f"c{i}") for i in range(4)]
    for version in versions:
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    ls.league_start(league=league, user=organiser)  # 12 queued (tasks not run: no commit)
    assert _kept(league) == _live(league) == {**dict.fromkeys(Match.Status.values, 0),
                                              "queued": 12}  # fmt: skip
    first, failing, lost, *_ = league.matches.order_by("pk")

    ms.match_play(match_id=first.pk)  # finished
    ms.match_record_result(match_id=first.pk, seats=[], result={})  # a duplicate: no count
    assert _kept(league) == _live(league)
    assert _kept(league)["finished"] == 1

    runner.raise_error = RuntimeError("engine exploded")
    for _ in range(ms.MAX_ATTEMPTS):  # queued again twice (not ended), then failed
        ms.match_play(match_id=failing.pk)
    runner.raise_error = None
    assert _kept(league) == _live(league)
    assert _kept(league)["failed"] == 1

    ms.match_start(match_id=lost.pk)  # running, then its worker is lost on every attempt
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=lost.pk).update(attempts=ms.MAX_ATTEMPTS, deadline=past)
    assert _kept(league)["running"] == 1
    ms.matches_reap_stale()
    assert _kept(league) == _live(league)
    assert _kept(league)["failed"] == 2

    # an entrant that played is withdrawn: its queued matches are cancelled
    seated = first.seats.order_by("seat").first().bot_version_id
    entry = league.entries.get(bot_version_id=seated)
    events.league_entry_remove(league=league, user=organiser, entry_id=entry.pk)
    assert _kept(league) == _live(league)
    assert _kept(league)["cancelled"] > 0

    ls.league_close(league=league, user=organiser)  # the rest of the queue is cancelled
    counts = _kept(league)
    assert counts == _live(league)
    assert counts["queued"] == counts["running"] == 0
    assert sum(counts.values()) == 12


def test_a_challenge_counts_for_no_league(organiser, ready_version, runner):
    a, b = ready_version(organiser, "a"), ready_version(organiser, "b")
    match = ms.match_create_internal(kind="challenge", mode="duel", options={},
                                     bot_versions=[a, b], league=None,
                                     requested_by=organiser)  # fmt: skip
    ms.match_play(match_id=match.pk)
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED


def test_migration_0022_fills_the_counts_from_the_matches(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    league = ls.league_create(organiser=organiser, name="Before", mode="duel", seats=2,
                              format="round_robin")  # fmt: skip
    for i in range(3):
        version = ready_version(organiser, f"m{i}")
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)  # played to its end (eager)
    Match.objects.filter(pk=league.matches.order_by("pk").first().pk).update(status="failed")
    League.objects.filter(pk=league.pk).update(matches_finished=0, matches_failed=0,
                                               matches_cancelled=0)  # fmt: skip
    migration = importlib.import_module("tournament.migrations.0022_league_counts")
    migration.backfill(apps, None)
    counts = _kept(league)
    assert counts == _live(league)
    assert counts["finished"] == 5 and counts["failed"] == 1
