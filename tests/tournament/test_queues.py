"""Matches go to Celery's default queue, or to a queue per mode (MATCH_QUEUE_PER_MODE), so
that workers can be sized per mode (docs/scaling.md)."""

from __future__ import annotations

import pytest
from django.test import TestCase

from tournament.services.challenges import challenge_create

pytestmark = pytest.mark.django_db


def test_a_queue_per_mode_when_asked(settings, author, ready_version, monkeypatch):
    from tournament.tasks import match_play_task

    sent = []
    monkeypatch.setattr(
        match_play_task, "apply_async", lambda args, queue=None, **kw: sent.append((args, queue))
    )
    a, b = ready_version(author, "q-a"), ready_version(author, "q-b")
    for per_mode, expected in ((False, None), (True, "matches.duel")):
        settings.MATCH_QUEUE_PER_MODE = per_mode
        with TestCase.captureOnCommitCallbacks(execute=True):
            match = challenge_create(user=author, mode="duel", bot_version_ids=[a.pk, b.pk])
        assert sent[-1] == ((match.pk,), expected)


def test_a_new_entrants_first_ladder_match_goes_ahead_of_the_backlog(
    settings, organiser, ready_version, monkeypatch
):
    """A ladder's backlog is about one queued match per entrant; a version entered later (the
    deadline burst of bench/season.py) has its first match sent on the retry queue, which
    workers serve ahead of that backlog. The ladder's first round takes its normal turn."""
    from tournament.services import leagues as ls
    from tournament.tasks import match_play_task

    sent = []
    monkeypatch.setattr(
        match_play_task, "apply_async", lambda args, queue=None, **kw: sent.append((args, queue))
    )
    settings.MATCH_QUEUE_PER_MODE = False
    league = ls.league_create(organiser=organiser, name="Busy ladder", mode="duel", seats=2,
                              format="ladder")  # fmt: skip
    for i in range(4):
        version = ready_version(organiser, f"old{i}")
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    with TestCase.captureOnCommitCallbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    assert sent and all(queue is None for _args, queue in sent)  # the start: the normal lane
    first_round = len(sent)
    # The workers took the first round: slots free up, and the old entrants have played (the
    # ladder's least certain entrant, the newcomer, is then the first anchor whatever the seed;
    # with every σ equal the seed alone chose who sat out of the two tables of five).
    league.matches.update(status="finished")
    league.entries.update(games=5, openskill_sigma=4.0)
    newcomer = ready_version(organiser, "newcomer")
    with TestCase.captureOnCommitCallbacks(execute=True):
        ls.league_entry_add(league=league, user=organiser, bot_version_id=newcomer.pk)
        ls.league_schedule_round(league=league)
    later = sent[first_round:]
    ahead = [match_id for (match_id,), queue in later if queue == settings.MATCH_RETRY_QUEUE]
    assert len(ahead) == 1
    seats = league.matches.get(pk=ahead[0]).seats.values_list("bot_version_id", flat=True)
    assert newcomer.pk in seats
