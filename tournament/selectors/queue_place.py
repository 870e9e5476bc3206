"""Where a queued match waits: its place in its lane (workers/queueing/queues.py) and the
expected wait, from how long the recent matches of each mode took. Shown on the match page and,
for a validation, on the version page.

The database knows a match's kind, hence its lane, but not whether it was sent again or was a
ladder newcomer's first match (the retry lane): such a match is counted in its kind's lane, so
for a background match the place is an upper bound. Matches of a paused league stay queued
without a message in the broker and are not counted."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone

from workers.queueing.queues import KIND_LANES, LANES

from ..models import League, Match

RECENT_DURATIONS = 20  # finished matches of a mode whose median duration is its typical one


@dataclass(frozen=True)
class QueuePlace:
    lane: str
    place: int  # 1: the next match of its lane to be taken
    ahead: int  # queued matches taken before it: its lane's older ones and the higher lanes'
    running: int  # matches being played now
    expected_seconds: float | None  # None: no finished match of a mode concerned to go by

    @property
    def wait_text(self) -> str:
        """The expected wait in words ("about 40 s", "about 3 min")."""
        if self.expected_seconds is None:
            return "unknown (no recent match of this mode to go by)"
        seconds = self.expected_seconds
        if seconds < 5:
            return "a few seconds"
        if seconds < 90:
            return f"about {5 * math.ceil(seconds / 5):.0f} s"
        return f"about {math.ceil(seconds / 60):.0f} min"


def recent_match_seconds(*, mode: str, limit: int = RECENT_DURATIONS) -> float | None:
    """The median duration of the last ``limit`` finished matches of ``mode`` (None: none)."""
    rows = (
        Match.objects.filter(mode=mode, status=Match.Status.FINISHED,
                             started_at__isnull=False, finished_at__isnull=False)
        .order_by("-finished_at")
        .values_list("started_at", "finished_at")[:limit]
    )  # fmt: skip
    durations = [(end - start).total_seconds() for start, end in rows]
    return statistics.median(durations) if durations else None


def _lane_q(lanes: list[str]) -> Q:
    return Q(kind__in=[kind for kind, lane in KIND_LANES.items() if lane in lanes])


def _waiting_ahead(match: Match) -> tuple[str, Any, Any, Q, Q]:
    """(lane, queued matches, running matches, its lane's older ones, the higher lanes'), the
    querysets limited to its mode's lanes when each mode has its own."""
    lane = KIND_LANES[match.kind]
    waiting = Match.objects.filter(status=Match.Status.QUEUED).exclude(
        league__status=League.Status.PAUSED
    )
    running = Match.objects.filter(status=Match.Status.RUNNING)
    if settings.MATCH_QUEUE_PER_MODE:  # each mode's lanes have workers of their own
        waiting, running = waiting.filter(mode=match.mode), running.filter(mode=match.mode)
    older = Q(queued_at__lt=match.queued_at) | Q(queued_at=match.queued_at, pk__lt=match.pk)
    higher = _lane_q(list(LANES[: LANES.index(lane)]))
    return lane, waiting, running, _lane_q([lane]) & older, higher


def matches_ahead(match: Match) -> int | None:
    """How many queued matches a worker takes before this one (None: it is not queued)."""
    if match.status != Match.Status.QUEUED:
        return None
    _lane, waiting, _running, same_lane, higher = _waiting_ahead(match)
    return waiting.filter(same_lane | higher).count()


def match_queue_place(*, match: Match) -> QueuePlace | None:
    """The place of a queued match in its lane and its expected wait (None: not queued).

    Expected wait: until a slot is free (at once if one is; else when the first running match
    ends: its mode's typical duration less the time it has run), then the typical durations of
    the matches ahead of it shared among the slots (the embedded worker's
    EMBEDDED_WORKER_CONCURRENCY; with a broker, as many as matches are running, at least
    one)."""
    if match.status != Match.Status.QUEUED:
        return None
    lane, waiting, running, same_lane, higher = _waiting_ahead(match)
    ahead_by_mode = dict(
        waiting.filter(same_lane | higher).values_list("mode").annotate(n=Count("pk"))
    )
    place = 1 + waiting.filter(same_lane).count()
    running_now = list(running.values_list("mode", "started_at"))
    typical = {
        mode: recent_match_seconds(mode=mode)
        for mode in {match.mode, *ahead_by_mode, *(mode for mode, _ in running_now)}
    }
    return QueuePlace(
        lane=lane, place=place, ahead=sum(ahead_by_mode.values()), running=len(running_now),
        expected_seconds=_expected_wait(match.mode, ahead_by_mode, running_now, typical,
                                        slots=_slots(len(running_now))),
    )  # fmt: skip


def _slots(running: int) -> int:
    if settings.EMBEDDED_WORKER:
        return max(1, settings.EMBEDDED_WORKER_CONCURRENCY)
    return max(1, running)


def _expected_wait(
    mode: str,
    ahead_by_mode: dict[str, int],
    running_now: list[tuple[str, object]],
    typical: dict[str, float | None],
    *,
    slots: int,
) -> float | None:
    own = typical.get(mode)

    def seconds_of(other: str) -> float | None:
        return typical.get(other) if typical.get(other) is not None else own

    now = timezone.now()
    first_free = 0.0
    if len(running_now) >= slots:
        left = [
            max(0.0, seconds - (now - started).total_seconds()) if started else seconds
            for other, started in running_now
            if (seconds := seconds_of(other)) is not None
        ]
        if not left:
            return None
        first_free = min(left)
    work = 0.0
    for other, count in ahead_by_mode.items():
        seconds = seconds_of(other)
        if seconds is None:
            return None
        work += seconds * count
    return first_free + work / slots
