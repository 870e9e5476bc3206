"""Matches go to their lane's queue (workers/queueing/queues.py), or to a lane of their mode
(MATCH_QUEUE_PER_MODE), so that workers can be sized per mode (docs/scaling.md)."""

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
    for per_mode, expected in ((False, "matches.interactive"), (True, "matches.duel.interactive")):
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
    assert sent and all(queue == "matches.background" for _args, queue in sent)  # the start
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


def _sent_queues(monkeypatch) -> list[tuple[tuple, str | None]]:
    from tournament.tasks import match_play_task

    sent: list[tuple[tuple, str | None]] = []
    monkeypatch.setattr(
        match_play_task, "apply_async", lambda args, queue=None, **kw: sent.append((args, queue))
    )
    return sent


def test_every_kind_of_match_has_a_lane():
    from tournament.models import Match
    from workers.queueing.queues import KIND_LANES, LANES

    assert set(KIND_LANES) == set(Match.Kind.values)
    assert set(KIND_LANES.values()) <= set(LANES)


def test_each_kind_of_match_is_sent_to_its_lane(settings, author, ready_version, monkeypatch):
    """Validations and challenges in the interactive lane, boss-league games in the workshop
    lane (through the workshop gate), league and paired matches in the background lane; sent
    again, a background match moves up to the retry lane and an interactive or workshop one
    keeps its own, higher lane."""
    from pathlib import Path

    from tournament.models import Match
    from tournament.services import matches as ms
    from tournament.services.bots import bot_create, bot_version_upload

    settings.MATCH_QUEUE_PER_MODE = False
    sent = _sent_queues(monkeypatch)
    bot = bot_create(owner=author, name="lane-upload")
    data = (Path(settings.BASE_DIR) / "examples" / "bots" / "random_bot.py").read_bytes()
    with TestCase.captureOnCommitCallbacks(execute=True):
        version = bot_version_upload(bot=bot, user=author, filename="bot.py", data=data)
    validation = Match.objects.get(kind=Match.Kind.VALIDATION, seats__bot_version=version)
    assert sent[-1] == ((validation.pk,), "matches.interactive")
    a, b = ready_version(author, "lane-a"), ready_version(author, "lane-b")
    for kind, lane in (("boss", "matches.workshop"), ("challenge", "matches.interactive"),
                       ("paired", "matches.background"),
                       ("league", "matches.background")):  # fmt: skip
        with TestCase.captureOnCommitCallbacks(execute=True):
            match = ms.match_create_internal(
                kind=kind, mode="duel", options={}, bot_versions=[a, b], league=None,
                requested_by=author,
            )  # fmt: skip
        assert sent[-1] == ((match.pk,), lane), kind
        with TestCase.captureOnCommitCallbacks(execute=True):
            ms.match_enqueue(match, again=True)
        again = {"challenge": "matches.interactive", "boss": "matches.workshop"}.get(
            kind, settings.MATCH_RETRY_QUEUE)  # fmt: skip
        assert sent[-1] == ((match.pk,), again), kind
    settings.MATCH_QUEUE_PER_MODE = True
    with TestCase.captureOnCommitCallbacks(execute=True):
        ms.match_enqueue(match, again=True)
        ms.match_enqueue(validation)
    assert [queue for _args, queue in sent[-2:]] == [
        "matches.duel.retry", f"matches.{validation.mode}.interactive"]


def test_a_worker_consumes_every_lane_highest_first(settings):
    from scripts.stack import MATCH_WORKER_QUEUES
    from workers.queueing.queues import match_queues, worker_queues

    settings.MATCH_QUEUE_PER_MODE = False
    assert worker_queues() == ["matches.interactive", "matches.workshop", "celery",
                               "matches.retry", "matches.background"]  # fmt: skip
    assert MATCH_WORKER_QUEUES.split(",") == worker_queues()  # the local stack's workers
    settings.MATCH_QUEUE_PER_MODE = True
    queues = match_queues()
    assert queues.index("matches.duel.interactive") < queues.index("matches.standard.retry")
    assert queues.index("matches.standard.retry") < queues.index("matches.duel")
    assert worker_queues().index("celery") == queues.index("matches.standard.retry")
