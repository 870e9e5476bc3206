"""Time limits that can never fail a match because of a bot: a match's worst-case duration
from its limits sets its task's time limits, league creation refuses limits whose worst case
is over the ceiling, and a match whose worker died is re-queued by its stale heartbeat, long
before its deadline."""

from __future__ import annotations

import sys
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from competition.limits import Limits, decisions_bound, match_worst_case_seconds
from tournament.errors import ValidationFailed
from tournament.models import Match
from tournament.services import leagues as ls
from tournament.services import matches as ms

from .conftest import client_for

pytestmark = pytest.mark.django_db


def _match(organiser, ready_version, **limits):
    a, b = ready_version(organiser, "a"), ready_version(organiser, "b")
    return ms.match_create_internal(
        kind="challenge", mode="duel", options={}, bot_versions=[a, b], league=None,
        requested_by=organiser, **limits,
    )  # fmt: skip


def test_worst_case_is_seats_times_decisions_times_limit_plus_bank_plus_startup() -> None:
    limits = Limits(decision_seconds=2.0, bank_seconds=30.0, startup_seconds=10.0)
    decisions = decisions_bound("standard")
    assert decisions is not None and decisions >= 100  # measured: bench/decisions.py
    assert match_worst_case_seconds("standard", 4, limits) == 4 * (decisions * 2 + 30) + 10
    assert decisions_bound("no-such-mode") is None


def test_the_play_task_gets_time_limits_from_the_worst_case(
    organiser, ready_version, runner, monkeypatch, settings, django_capture_on_commit_callbacks
):
    from tournament.tasks import match_play_task

    sent = []
    monkeypatch.setattr(match_play_task, "apply_async", lambda *a, **kw: sent.append(kw))
    settings.MATCH_TIME_MARGIN_SECONDS = 100
    with django_capture_on_commit_callbacks(execute=True):
        match = _match(organiser, ready_version, decision_time_limit=2.0, time_bank=40.0)
    worst = match_worst_case_seconds("duel", 2, Limits(decision_seconds=2.0, bank_seconds=40.0))
    assert worst > settings.CELERY_TASK_TIME_LIMIT / 10  # not the old fixed limit
    [kw] = sent
    assert kw["time_limit"] == pytest.approx(worst + 100, abs=1)
    assert kw["soft_time_limit"] == pytest.approx(worst + 50, abs=1)
    assert kw["soft_time_limit"] < kw["time_limit"]
    started = ms.match_start(match_id=match.pk)
    # the reaper's deadline: after the task's own hard limit
    assert started.deadline >= started.started_at + timedelta(seconds=kw["time_limit"])


def test_league_creation_refuses_limits_whose_worst_case_is_over_the_ceiling(
    organiser, settings
):
    settings.MATCH_WORST_CASE_CEILING_SECONDS = 3600
    with pytest.raises(ValidationFailed) as caught:
        ls.league_create(organiser=organiser, name="long", mode="standard", seats=4,
                         format="round_robin", decision_time_limit=60, time_bank=600)  # fmt: skip
    assert "decision_time_limit" in caught.value.fields
    message = caught.value.message
    assert "3600 s" in message and "lower the time per decision" in message
    # the same limits at a smaller table of a shorter mode are fine with a higher ceiling
    settings.MATCH_WORST_CASE_CEILING_SECONDS = 10**6
    ls.league_create(organiser=organiser, name="ok", mode="standard", seats=4,
                     format="round_robin", decision_time_limit=60, time_bank=600)  # fmt: skip


def test_the_api_says_why_with_a_400(organiser, settings):
    settings.MATCH_WORST_CASE_CEILING_SECONDS = 3600
    response = client_for(organiser).post(
        "/api/v1/leagues/",
        {"name": "slowpokes", "mode": "duel", "seats": 2, "format": "round_robin",
         "decision_time_limit": 30, "time_bank": 600},
        format="json",
    )  # fmt: skip
    assert response.status_code == 400
    body = response.json()
    assert "could last" in str(body) and "decision_time_limit" in str(body)


def test_a_match_whose_worker_died_is_requeued_by_its_stale_heartbeat(
    organiser, ready_version, runner, settings
):
    settings.MATCH_HEARTBEAT_STALE_SECONDS = 60
    match = _match(organiser, ready_version)
    started = ms.match_start(match_id=match.pk)
    assert started.heartbeat_at is not None
    now = timezone.now()
    assert started.deadline > now + timedelta(minutes=10)  # far away: not what saves it
    assert ms.matches_reap_stale(now=now + timedelta(seconds=30)) == []  # beating recently
    assert ms.match_heartbeat(match_id=match.pk)
    # the worker died: no beat for over a minute; the reaper (every 60 s) re-queues it
    later = timezone.now() + timedelta(seconds=61)
    assert ms.matches_reap_stale(now=later) == [match.pk]
    match.refresh_from_db()
    assert match.status == Match.Status.QUEUED
    ms.match_play(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.attempts == 2
    assert not ms.match_heartbeat(match_id=match.pk)  # not running: nothing stamped


def test_the_step_hook_stamps_the_heartbeat_throttled(organiser, ready_version, settings):
    settings.MATCH_HEARTBEAT_SECONDS = 3600  # the thread never beats during this test
    match = _match(organiser, ready_version)
    ms.match_start(match_id=match.pk)
    old = timezone.now() - timedelta(minutes=5)
    Match.objects.filter(pk=match.pk).update(heartbeat_at=old)
    with ms._Heartbeat(match.pk) as beat:
        beat.step()  # throttled: the last beat (its start) is recent
        assert Match.objects.get(pk=match.pk).heartbeat_at == old
        beat.every = 0.0
        beat.step()
    assert Match.objects.get(pk=match.pk).heartbeat_at > old


@pytest.mark.django_db(transaction=True)  # the beating thread sees what the test commits
def test_a_heartbeat_after_a_dropped_connection_connects_again(
    organiser, ready_version, settings, monkeypatch
):
    """The server drops the beating thread's connection between two beats: that beat is
    lost, the next ones stamp again (a dead connection kept would fail them all, and the
    reaper would re-queue a match that is still being played)."""
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("Django never closes an in-memory SQLite database: run on PostgreSQL")
    monkeypatch.setattr(ms, "match_enqueue", lambda *a, **kw: None)  # no worker plays it
    match = _match(organiser, ready_version)
    ms.match_start(match_id=match.pk)
    beats: list[bool] = []
    stamp = ms.match_heartbeat

    def dropped_once(*, match_id: int) -> bool:
        if len(beats) == 1:
            connection.connection.close()  # this thread's connection, under Django's feet
        try:
            beats.append(stamp(match_id=match_id))
        except Exception:
            beats.append(False)
            raise
        return beats[-1]

    monkeypatch.setattr(ms, "match_heartbeat", dropped_once)
    settings.MATCH_HEARTBEAT_SECONDS = 0.02
    with ms._Heartbeat(match.pk):
        deadline = time.monotonic() + 30  # generous: beats come every 0.02 s
        while len(beats) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert beats[:2] == [True, False]  # the beat on the dropped connection failed ...
    assert len(beats) >= 4 and all(beats[2:]), beats  # ... the ones after it stamp again


def test_timeout_evidence_is_recorded_and_shown_to_the_owner_only(
    organiser, author, ready_version, runner
):
    mine, theirs = ready_version(author, "mine"), ready_version(organiser, "theirs")
    match = ms.match_create_internal(
        kind="challenge", mode="duel", options={}, bot_versions=[mine, theirs], league=None,
        requested_by=author,
    )  # fmt: skip
    evidence = {"cpu": 1.02, "wall": 1.4, "wait": 0.25, "load": [3.1, 2.0, 1.5]}
    original = runner.run_match

    def with_timeout(spec, **kw):
        out = original(spec, **kw)
        out["seats"][0].update(fault="timeout", fault_detail="used 1.020 s of CPU time",
                               fault_evidence=evidence)  # fmt: skip
        return out

    sys.modules["workers.runner"].run_match = with_timeout  # the runner fixture's module
    ms.match_play(match_id=match.pk)
    seat = match.seats.get(seat=0)
    assert seat.fault == "timeout" and seat.fault_evidence == evidence
    seats = client_for(author).get(f"/api/v1/matches/{match.pk}/").json()["seats"]
    assert seats[0]["fault_evidence"] == evidence
    seats = client_for(None).get(f"/api/v1/matches/{match.pk}/").json()["seats"]
    assert seats[0]["fault_evidence"] is None
    browser = Client()
    browser.force_login(author)
    page = browser.get(f"/matches/{match.pk}/").content.decode()
    assert "Timeout evidence" in page and "1.020 s of CPU time" in page
    assert "0.250 s of it waiting for a CPU" in page
    browser.force_login(organiser)
    assert "Timeout evidence" not in browser.get(f"/matches/{match.pk}/").content.decode()
