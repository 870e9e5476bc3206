"""Matches go to Celery's default queue, or to a queue per mode (MATCH_QUEUE_PER_MODE), so
that workers can be sized per mode (docs/scaling.md)."""

from __future__ import annotations

import pytest
from django.test import TestCase

from tournament.services.challenges import challenge_create

pytestmark = pytest.mark.django_db


def test_a_queue_per_mode_when_asked(settings, author, ready_version, monkeypatch):
    from workers.tasks import match_play_task

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
