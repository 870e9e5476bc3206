"""A queued match's place in its lane and its expected wait (tournament/selectors/queue_place.py),
shown on the match page and, for a validation, on the version page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tournament.models import BotVersion, Match
from tournament.selectors.queue_place import match_queue_place, recent_match_seconds
from tournament.services import matches as ms

pytestmark = pytest.mark.django_db


def _match(kind: str, versions: list[BotVersion], owner: object, mode: str = "duel") -> Match:
    """A queued match (its message is never sent: the test's transaction is rolled back)."""
    return ms.match_create_internal(kind=kind, mode=mode, options={}, bot_versions=versions,
                                    league=None, requested_by=owner)  # fmt: skip


@pytest.fixture
def busy(settings, author, ready_version):
    """Two finished duels of 20 s, one running for 10 s, three league matches queued."""
    settings.EMBEDDED_WORKER = False  # slots: as many as matches running
    settings.MATCH_QUEUE_PER_MODE = False
    versions = [ready_version(author, "qp-a"), ready_version(author, "qp-b")]
    now = timezone.now()
    for _ in range(2):
        done = _match("league", versions, author)
        Match.objects.filter(pk=done.pk).update(
            status=Match.Status.FINISHED, started_at=now - timedelta(seconds=60),
            finished_at=now - timedelta(seconds=40),
        )  # fmt: skip
    running = _match("league", versions, author)
    Match.objects.filter(pk=running.pk).update(
        status=Match.Status.RUNNING, started_at=now - timedelta(seconds=10))
    backlog = [_match("league", versions, author) for _ in range(3)]
    return versions, backlog


def test_the_typical_duration_is_the_median_of_recent_matches(busy):
    assert recent_match_seconds(mode="duel") == pytest.approx(20.0)
    assert recent_match_seconds(mode="standard") is None


def test_a_validation_goes_before_the_backlog(busy, author):
    versions, backlog = busy
    validation = _match("validation", versions, author)
    place = match_queue_place(match=validation)
    assert (place.lane, place.place, place.ahead, place.running) == ("interactive", 1, 0, 1)
    # the running duel has about 10 s left of its typical 20 s
    assert place.expected_seconds == pytest.approx(10.0, abs=2.0)
    challenge = _match("challenge", versions, author)
    place = match_queue_place(match=challenge)
    assert (place.place, place.ahead) == (2, 1)
    assert place.expected_seconds == pytest.approx(30.0, abs=2.0)
    # the last of the backlog: its lane's two older ones and both interactive matches first
    place = match_queue_place(match=backlog[-1])
    assert (place.lane, place.place, place.ahead) == ("background", 3, 4)
    assert place.expected_seconds == pytest.approx(10.0 + 4 * 20.0, abs=2.0)
    assert place.wait_text in ("about 90 s", "about 2 min")


def test_a_free_slot_takes_it_at_once(busy, author, settings):
    settings.EMBEDDED_WORKER, settings.EMBEDDED_WORKER_CONCURRENCY = True, 2
    versions, _backlog = busy
    place = match_queue_place(match=_match("validation", versions, author))
    assert place.expected_seconds == 0.0 and place.wait_text == "a few seconds"


def test_no_history_no_estimate(busy, author):
    versions, _backlog = busy
    place = match_queue_place(match=_match("challenge", versions, author, mode="standard"))
    assert place.ahead == 0 and place.expected_seconds is not None  # the running duel's 10 s
    Match.objects.filter(status=Match.Status.FINISHED).delete()
    place = match_queue_place(match=_match("challenge", versions, author, mode="standard"))
    assert place.expected_seconds is None and place.wait_text.startswith("unknown")


def test_only_a_queued_match_has_a_place(busy):
    assert match_queue_place(match=Match.objects.get(status=Match.Status.RUNNING)) is None


def test_the_pages_say_the_place(busy, author, client):
    versions, _backlog = busy
    validation = _match("validation", versions, author)
    BotVersion.objects.filter(pk=versions[0].pk).update(status=BotVersion.Status.PENDING)
    page = client.get(f"/matches/{validation.pk}/").content.decode()
    assert "Place 1 in the interactive lane" in page and "Expected wait: about 10 s" in page
    page = client.get(f"/versions/{versions[0].pk}/").content.decode()
    assert "Place 1 in the interactive lane" in page
