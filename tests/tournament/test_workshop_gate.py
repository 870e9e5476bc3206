"""The workshop gate (tournament/services/workshop_gate.py): test games and boss leagues'
promotion games are held and sent at most WORKSHOP_SLOTS at a time, test games first; the
leagues keep every other slot; the reaper never re-sends a held match and makes a lost
release; a held test game's place counts the games the gate lets through before it."""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import TestCase
from django.utils import timezone

from tournament.models import BotVersion, Match, PairedComparison
from tournament.selectors import workshop_gate as gate_reads
from tournament.selectors.queue_place import match_queue_place, matches_ahead
from tournament.services import boss_leagues as bls
from tournament.services import matches as ms
from tournament.services import paired as ps
from tournament.services import test_games
from tournament.services import workshop_gate as gate
from tournament.services.bots import builtin_bots_register
from tournament.services.outcome import outcome_from_runner
from tournament.tasks import match_play_task
from workers.queueing.queues import KIND_LANES, WORKSHOP, worker_queues

from .conftest import client_for

pytestmark = pytest.mark.django_db
_create = test_games.test_game_create  # not imported by name: pytest would collect test_*


class Broker:
    """The play tasks sent, one queue each, handed to a worker's slot in the order of its
    queues (workers/queueing/queues.py: worker_queues), oldest first within a queue: the
    order both brokers keep (tests/workers/test_lanes.py)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.queues: dict[str, deque[int]] = defaultdict(deque)
        self.sent: list[tuple[int, str]] = []
        monkeypatch.setattr(match_play_task, "apply_async", self._send)

    def _send(self, args: tuple, queue: str | None = None, **kw: Any) -> None:
        self.queues[queue].append(args[0])
        self.sent.append((args[0], queue))

    def take(self) -> int | None:
        for queue in worker_queues():
            if self.queues[queue]:
                return self.queues[queue].popleft()
        return None

    def holds(self, match_id: int) -> bool:
        return any(match_id in queue for queue in self.queues.values())


@pytest.fixture
def broker(monkeypatch, settings) -> Broker:
    settings.MATCH_QUEUE_PER_MODE = False
    settings.WORKSHOP_SLOTS = 1
    return Broker(monkeypatch)


@pytest.fixture
def bosses_on(settings):
    settings.BOSS_LEAGUES = True
    builtin_bots_register()


def _finish(match_id: int, runner) -> None:
    """The worker's end of a match it started: played by the scripted runner and recorded
    through the match service; the transaction's on-commit work (the gate's release) runs."""
    match = Match.objects.get(pk=match_id)
    played = outcome_from_runner(runner.run_match(ms.match_spec(match)))
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert ms.match_finish(match_id=match_id, played=played) is not None


def _climber(owner, ready_version) -> BotVersion:
    return ready_version(owner, "climber")


def _match(kind: str, versions: list[BotVersion]) -> Match:
    return ms.match_create_internal(
        kind=kind, mode="duel", options={}, bot_versions=versions, league=None, requested_by=None
    )


def test_the_workshop_kinds_are_released_in_one_order():
    workshop_lane = {kind for kind, lane in KIND_LANES.items() if lane == WORKSHOP}
    assert set(gate_reads.WORKSHOP_KINDS) == workshop_lane
    assert set(gate_reads.RELEASE_ORDER) == set(gate_reads.WORKSHOP_KINDS) == {"test", "boss"}
    assert gate_reads.RELEASE_ORDER[0] == Match.Kind.TEST


def test_one_workshop_match_at_a_time_test_games_first_then_the_boss_games(
    broker, bosses_on, author, other_author, make_user, ready_version, runner
):
    carol = make_user("carol")
    with TestCase.captureOnCommitCallbacks(execute=True):
        (standing,) = bls.boss_leagues_start(version=_climber(author, ready_version))
        tests = [
            _create(user=user, bot_version_id=ready_version(user, f"{user.username}-bot").pk,
                    opponents=["greedy"], mode="duel")
            for user in (author, other_author, carol)
        ]  # fmt: skip
    boss_games = list(
        Match.objects.filter(paired_game__comparison=standing.run).order_by("created_at", "pk")
    )
    assert boss_games and {m.kind for m in boss_games} == {"boss"}
    assert all(m.created_at < tests[0].created_at for m in boss_games)  # older, yet behind
    # only the oldest test game was sent, to the workshop lane; the rest are held
    assert broker.sent == [(tests[0].pk, "matches.workshop")]
    assert Match.objects.filter(held=True, status="queued").count() == 2 + len(boss_games)
    expected = [m.pk for m in tests] + [m.pk for m in boss_games[:3]]
    for match_id in expected:
        assert gate_reads.workshop_in_flight().count() == 1
        assert broker.sent[-1] == (match_id, "matches.workshop")
        assert broker.take() == match_id
        assert ms.match_start(match_id=match_id) is not None
        assert gate_reads.workshop_in_flight().count() == 1  # running, no other sent
        _finish(match_id, runner)  # its end releases the next one
    assert [match_id for match_id, _ in broker.sent[: len(expected)]] == expected
    assert Match.objects.get(pk=tests[-1].pk).status == Match.Status.FINISHED


def test_the_leagues_keep_every_slot_but_one_while_workshop_work_waits(
    broker, bosses_on, author, other_author, ready_version, runner
):
    """Two worker slots, a ladder's backlog always queued, a promotion run and two test games
    (the second made while promotion games play): at every moment at most one slot plays
    workshop work and the other a league match, and the workshop work (test games first)
    keeps moving."""
    a, b = ready_version(author, "ladder-a"), ready_version(other_author, "ladder-b")

    def top_up_the_ladder() -> None:
        with TestCase.captureOnCommitCallbacks(execute=True):
            while Match.objects.filter(kind="league", status="queued").count() < 4:
                _match("league", [a, b])

    top_up_the_ladder()
    with TestCase.captureOnCommitCallbacks(execute=True):
        (standing,) = bls.boss_leagues_start(version=_climber(author, ready_version))
        tests = [_create(user=author, bot_version_id=a.pk, opponents=["random"], mode="duel")]
    slots: list[int | None] = [None, None]
    played: list[str] = []
    for step in range(24):
        for i, running in enumerate(slots):
            while running is None and (match_id := broker.take()) is not None:
                running = match_id if ms.match_start(match_id=match_id) else None
            slots[i] = running
        kinds = sorted(Match.objects.get(pk=m).kind for m in slots if m is not None)
        assert kinds in (["boss", "league"], ["league", "test"], ["league", "league"]), kinds
        assert gate_reads.workshop_in_flight().count() <= 1  # one sent or playing at most
        ending = slots[step % 2]  # the slots end their matches in turn
        _finish(ending, runner)
        played.append(Match.objects.get(pk=ending).kind)
        slots[step % 2] = None
        if step == 5:  # a second test game, made while boss games play: next through the gate
            with TestCase.captureOnCommitCallbacks(execute=True):
                tests.append(_create(user=other_author, bot_version_id=b.pk,
                                     opponents=["random"], mode="duel"))  # fmt: skip
        top_up_the_ladder()
    assert played.count("league") >= 12  # every other end at least: one slot is always theirs
    assert played.count("test") == 2 and played.count("boss") >= 6
    assert all(Match.objects.get(pk=t.pk).status == Match.Status.FINISHED for t in tests)
    # the second test game went through the gate at the first free workshop slot
    after = played[6:]
    assert after[: after.index("test")].count("boss") <= 1


def test_the_reaper_never_resends_a_held_match_and_makes_a_lost_release(
    broker, author, other_author, ready_version, runner, settings, monkeypatch
):
    settings.REAPER_QUEUED_AGE_SECONDS = 30
    monkeypatch.setattr(ms, "BROKER_RECHECK_SECONDS", 0)
    with TestCase.captureOnCommitCallbacks(execute=True):
        first = _create(user=author, bot_version_id=ready_version(author, "r1").pk,
                        opponents=["greedy"], mode="duel")  # fmt: skip
        second = _create(user=other_author, bot_version_id=ready_version(other_author, "r2").pk,
                         opponents=["greedy"], mode="duel")  # fmt: skip
    assert broker.sent == [(first.pk, "matches.workshop")]
    Match.objects.update(queued_at=timezone.now() - timedelta(seconds=31))
    # the broker lost every message: the sent one is sent again, the held one is not
    monkeypatch.setattr(ms, "_match_ids_in_broker", lambda: set())
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert ms.matches_reap_stale() == [first.pk]
    assert broker.sent[-1] == (first.pk, "matches.workshop")  # its own lane, above the retry
    assert Match.objects.get(pk=second.pk).held
    # the first one is played, and its end's release is lost (its commit callbacks never run)
    ms.match_start(match_id=first.pk)
    ms.match_finish(match_id=first.pk, played=outcome_from_runner(
        runner.run_match(ms.match_spec(Match.objects.get(pk=first.pk)))))  # fmt: skip
    assert not broker.holds(second.pk) and Match.objects.get(pk=second.pk).held
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert ms.matches_reap_stale() == []  # nothing to reap: the release is not a re-send
    assert broker.sent[-1] == (second.pk, "matches.workshop")
    assert not Match.objects.get(pk=second.pk).held


def test_a_held_game_cancelled_with_its_run_is_never_sent(
    broker, bosses_on, author, ready_version, runner
):
    with TestCase.captureOnCommitCallbacks(execute=True):
        (standing,) = bls.boss_leagues_start(version=_climber(author, ready_version))
    ((first, _queue),) = broker.sent
    run = standing.run
    assert Match.objects.filter(paired_game__comparison=run, held=True).exists()
    assert broker.take() == first and ms.match_start(match_id=first)
    with TestCase.captureOnCommitCallbacks(execute=True):
        ps.paired_stop(comparison=run, reason="stopped by hand")
    stopped = Match.objects.filter(paired_game__comparison=run).exclude(pk=first)
    assert stopped.exists() and set(stopped.values_list("status", flat=True)) == {"cancelled"}
    with TestCase.captureOnCommitCallbacks(execute=True):
        test = _create(user=author, bot_version_id=ready_version(author, "t").pk,
                       opponents=["greedy"], mode="duel")  # fmt: skip
    _finish(first, runner)  # its slot goes to the test game, never to a cancelled game
    assert broker.sent[-1] == (test.pk, "matches.workshop")
    assert broker.take() == test.pk and ms.match_start(match_id=test.pk)
    _finish(test.pk, runner)
    with TestCase.captureOnCommitCallbacks(execute=True):
        ms.matches_reap_stale()
    assert [match_id for match_id, _ in broker.sent] == [first, test.pk]
    assert PairedComparison.objects.get(pk=run.pk).status == PairedComparison.Status.FAILED


@pytest.fixture
def typical_duels(settings, author, ready_version):
    """Two finished duels of 20 s: the typical duration the expected waits go by."""
    settings.MATCH_QUEUE_PER_MODE = False
    versions = [ready_version(author, "qp-a"), ready_version(author, "qp-b")]
    now = timezone.now()
    for _ in range(2):
        done = _match("league", versions)
        Match.objects.filter(pk=done.pk).update(
            status=Match.Status.FINISHED, started_at=now - timedelta(seconds=60),
            finished_at=now - timedelta(seconds=40),
        )  # fmt: skip
    return versions


def test_a_held_test_game_counts_the_games_the_gate_lets_through_before_it(
    broker, typical_duels, author, other_author, make_user, ready_version, settings, client
):
    settings.EMBEDDED_WORKER, settings.EMBEDDED_WORKER_CONCURRENCY = True, 2
    carol = make_user("carol")
    with TestCase.captureOnCommitCallbacks(execute=True):
        boss = _match("boss", typical_duels)
        first, second, third = (
            _create(user=user, bot_version_id=ready_version(user, f"{user.username}-qp").pk,
                    opponents=["greedy"], mode="duel")
            for user in (author, other_author, carol)
        )  # fmt: skip
        league = _match("league", typical_duels)
    assert [sent for sent in broker.sent if sent[1] == "matches.workshop"] == [
        (first.pk, "matches.workshop")
    ]
    places = {m.pk: match_queue_place(match=Match.objects.get(pk=m.pk))
              for m in (first, second, third, boss)}  # fmt: skip
    in_line = [(places[m.pk].lane, places[m.pk].place) for m in (first, second, third, boss)]
    assert in_line == [("workshop", 1), ("workshop", 2), ("workshop", 3), ("workshop", 4)]
    # two free slots, yet the gate lets one workshop game through at a time: 20 s each
    assert places[third.pk].expected_seconds == pytest.approx(40.0, abs=2.0)
    # a league match waits behind the one workshop game sent, not the held ones
    assert matches_ahead(Match.objects.get(pk=league.pk)) == 1
    # the first plays (10 s in): the third is second in line, 10 + 20 s away
    ms.match_start(match_id=broker.take())
    Match.objects.filter(pk=first.pk).update(started_at=timezone.now() - timedelta(seconds=10))
    place = match_queue_place(match=Match.objects.get(pk=third.pk))
    assert (place.place, place.ahead, place.running) == (2, 1, 1)
    assert place.expected_seconds == pytest.approx(30.0, abs=2.0)
    answer = client_for(carol).get(f"/api/v1/test-games/{third.pk}/")
    assert answer.status_code == 200, answer.content
    assert answer.json()["place"] == 2 and answer.json()["lane"] == "workshop"
    assert answer.json()["expected_wait_seconds"] == pytest.approx(30.0, abs=2.0)
    client.force_login(carol)
    page = client.get(f"/matches/{third.pk}/").content.decode()
    assert "Place 2 in the workshop lane" in page and "Expected wait: about 30 s" in page


@pytest.mark.django_db(transaction=True)  # two releases at once, each on its own connection
def test_two_releases_at_once_fill_one_slot(broker, author, ready_version, monkeypatch, settings):
    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL (SQLite's IMMEDIATE transactions serialise anyway)")
    versions = [ready_version(author, "race-a"), ready_version(author, "race-b")]
    settings.WORKSHOP_SLOTS = 0  # made and held, none released yet
    held = [
        ms.match_create_internal(kind="test", mode="duel", options={}, bot_versions=versions,
                                 league=None, requested_by=author)
        for _ in range(3)
    ]  # fmt: skip
    assert broker.sent == [] and all(Match.objects.get(pk=m.pk).held for m in held)
    settings.WORKSHOP_SLOTS = 1
    counted = gate.workshop_in_flight

    def slow_count():  # the race's window: both releases would see the slot free
        in_flight = counted()
        in_flight.count()
        time.sleep(0.3)
        return in_flight

    monkeypatch.setattr(gate, "workshop_in_flight", slow_count)
    released: list[list[int]] = []

    def release() -> None:
        try:
            released.append(gate.workshop_release())
        finally:
            connection.close()

    threads = [threading.Thread(target=release) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(len(ids) for ids in released) == [0, 1]
    assert [match_id for match_id, _ in broker.sent] == [held[0].pk]
    assert gate_reads.workshop_in_flight().count() == 1
