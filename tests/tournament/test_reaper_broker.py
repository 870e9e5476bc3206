"""The reaper sends again a long-queued match only when the broker no longer holds its message:
a match waiting behind a backlog is left alone, so a long healthy queue gets no
duplicates, and a lost one is sent again, to the retry queue that workers serve first."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import timezone

from tournament.models import Match
from tournament.services import matches as ms

pytestmark = pytest.mark.django_db


def test_only_matches_without_a_message_in_the_broker_are_sent_again(
    organiser, ready_version, settings, monkeypatch
):
    from tournament.tasks import match_play_task

    settings.REAPER_QUEUED_AGE_SECONDS = 30
    monkeypatch.setattr(ms, "BROKER_RECHECK_SECONDS", 0)
    a, b = ready_version(organiser, "reap-a"), ready_version(organiser, "reap-b")
    sent: list[tuple[tuple, str | None]] = []
    monkeypatch.setattr(
        match_play_task, "apply_async", lambda args, queue=None, **kw: sent.append((args, queue))
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        waiting, lost = (
            ms.match_create_internal(
                kind="paired",
                mode="duel",
                options={},
                bot_versions=[a, b],
                league=None,
                requested_by=organiser,
            )  # fmt: skip
            for _ in range(2)
        )
    assert [queue for _, queue in sent] == ["matches.background"] * 2  # first sends: their lane
    Match.objects.update(queued_at=timezone.now() - timedelta(seconds=31))
    # The second look finds the message the first missed (a worker was taking it): not lost.
    looks = iter([set(), {waiting.pk, lost.pk}])
    monkeypatch.setattr(ms, "_match_ids_in_broker", lambda: next(looks))
    assert ms.matches_reap_stale() == []
    monkeypatch.setattr(ms, "_match_ids_in_broker", lambda: {waiting.pk})
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert ms.matches_reap_stale() == [lost.pk]
    assert sent[-1] == ((lost.pk,), "matches.retry")
    # A broker that cannot be read: every match past the age is sent again, once per age.
    Match.objects.update(queued_at=timezone.now() - timedelta(seconds=31))
    monkeypatch.setattr(ms, "_match_ids_in_broker", lambda: None)
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert sorted(ms.matches_reap_stale()) == sorted([waiting.pk, lost.pk])
        assert ms.matches_reap_stale() == []


def test_a_match_requeued_after_its_worker_died_goes_to_the_retry_queue(
    organiser, ready_version, settings, monkeypatch
):
    from tournament.tasks import match_play_task

    sent: list[tuple[tuple, str | None]] = []
    monkeypatch.setattr(
        match_play_task, "apply_async", lambda args, queue=None, **kw: sent.append((args, queue))
    )
    a, b = ready_version(organiser, "dead-a"), ready_version(organiser, "dead-b")
    for per_mode, expected in ((False, "matches.retry"), (True, "matches.duel.retry")):
        settings.MATCH_QUEUE_PER_MODE = per_mode
        with TestCase.captureOnCommitCallbacks(execute=True):
            match = ms.match_create_internal(
                kind="paired", mode="duel", options={}, bot_versions=[a, b], league=None,
                requested_by=organiser,
            )  # fmt: skip
        ms.match_start(match_id=match.pk)
        stale = timezone.now() + timedelta(seconds=settings.MATCH_HEARTBEAT_STALE_SECONDS + 1)
        with TestCase.captureOnCommitCallbacks(execute=True):
            assert ms.matches_reap_stale(now=stale) == [match.pk]
        assert sent[-1] == ((match.pk,), expected)
        Match.objects.filter(pk=match.pk).update(status=Match.Status.CANCELLED)
