"""Where a queued match waits: its place in its lane (workers/queueing/queues.py) and the
expected wait, from how long the recent matches of each mode took. Shown on the match page and,
for a validation, on the version page.

The database knows a match's kind, hence its lane, but not whether it was sent again or was a
ladder newcomer's first match (the retry lane): such a match is counted in its kind's lane, so
for a background match the place is an upper bound. Matches of a paused league stay queued
without a message in the broker and are not counted. Held workshop work
(tournament/services/workshop_gate.py) has no message either: only a held match counts it. A
held match waits for the workshop matches already sent and for the held ones the gate releases
before it (selectors/workshop_gate.py), whatever their mode (one gate serves every mode); as
the gate lets through WORKSHOP_SLOTS at a time, its expected wait is at least that work and
what the workshop matches playing now have left, shared among that many slots."""

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
from .workshop_gate import gate_queue_ahead, workshop_in_flight

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


def _waiting_ahead(match: Match) -> tuple[str, Any, Any, Any]:
    """(lane, the higher lanes' queued matches, its own lane's queued before it, running
    matches), limited to its mode's lanes when each mode has its own (but for a held match's
    own lane: the workshop gate is one for every mode)."""
    lane = KIND_LANES[match.kind]
    waiting = Match.objects.filter(status=Match.Status.QUEUED, held=False).exclude(
        league__status=League.Status.PAUSED
    )
    running = Match.objects.filter(status=Match.Status.RUNNING)
    if settings.MATCH_QUEUE_PER_MODE:  # each mode's lanes have workers of their own
        waiting, running = waiting.filter(mode=match.mode), running.filter(mode=match.mode)
    higher = waiting.filter(_lane_q(list(LANES[: LANES.index(lane)])))
    if match.held:
        return lane, higher, gate_queue_ahead(match), running
    older = Q(queued_at__lt=match.queued_at) | Q(queued_at=match.queued_at, pk__lt=match.pk)
    return lane, higher, waiting.filter(_lane_q([lane]) & older), running


def matches_ahead(match: Match) -> int | None:
    """How many queued matches a worker takes before this one (None: it is not queued)."""
    if match.status != Match.Status.QUEUED:
        return None
    _lane, higher, same_lane, _running = _waiting_ahead(match)
    return higher.count() + same_lane.count()


def match_queue_place(*, match: Match) -> QueuePlace | None:
    """The place of a queued match in its lane and its expected wait (None: not queued).

    Expected wait: until a slot is free (at once if one is; else when the first running match
    ends: its mode's typical duration less the time it has run), then the typical durations of
    the matches ahead of it shared among the slots (the embedded worker's
    EMBEDDED_WORKER_CONCURRENCY; with a broker, as many as matches are running, at least
    one). A held workshop match waits at least until the workshop matches ahead of it have
    been played through the gate's WORKSHOP_SLOTS (`_gate_wait`)."""
    if match.status != Match.Status.QUEUED:
        return None
    lane, higher, same_lane, running = _waiting_ahead(match)
    own_by_mode = _by_mode(same_lane)
    ahead_by_mode = _by_mode(higher)
    for mode, count in own_by_mode.items():
        ahead_by_mode[mode] = ahead_by_mode.get(mode, 0) + count
    running_now = list(running.values_list("mode", "started_at"))
    gate_running = (
        list(workshop_in_flight().filter(status=Match.Status.RUNNING)
             .values_list("mode", "started_at"))
        if match.held else []
    )  # fmt: skip
    typical = {
        mode: recent_match_seconds(mode=mode)
        for mode in {match.mode, *ahead_by_mode, *(mode for mode, _ in running_now + gate_running)}
    }
    slots = _slots(len(running_now))
    expected = _expected_wait(match.mode, ahead_by_mode, running_now, typical, slots=slots)
    if match.held and expected is not None:
        gate_slots = min(settings.WORKSHOP_SLOTS, slots)
        gate = _gate_wait(match.mode, own_by_mode, gate_running, typical, slots=gate_slots)
        expected = None if gate is None else max(expected, gate)
    return QueuePlace(
        lane=lane, place=1 + sum(own_by_mode.values()), ahead=sum(ahead_by_mode.values()),
        running=len(running_now), expected_seconds=expected,
    )  # fmt: skip


def _by_mode(matches: Any) -> dict[str, int]:
    return dict(matches.values_list("mode").annotate(n=Count("pk")))


def _slots(running: int) -> int:
    if settings.EMBEDDED_WORKER:
        return max(1, settings.EMBEDDED_WORKER_CONCURRENCY)
    return max(1, running)


def _gate_wait(
    mode: str,
    gate_by_mode: dict[str, int],
    gate_running: list[tuple[str, Any]],
    typical: dict[str, float | None],
    *,
    slots: int,
) -> float | None:
    """How long the workshop matches ahead of a held one keep the gate's ``slots`` busy: what
    the playing ones have left and the typical durations of the queued ones, shared."""
    work = 0.0
    for other, started in gate_running:
        seconds = _seconds_of(other, mode, typical)
        if seconds is None:
            return None
        work += _time_left(seconds, started, timezone.now())
    for other, count in gate_by_mode.items():
        seconds = _seconds_of(other, mode, typical)
        if seconds is None:
            return None
        work += seconds * count
    return work / slots


def _seconds_of(other: str, mode: str, typical: dict[str, float | None]) -> float | None:
    """The typical duration of a match of ``other``, else of the waiting match's ``mode``."""
    return typical.get(other) if typical.get(other) is not None else typical.get(mode)


def _time_left(seconds: float, started: Any, now: Any) -> float:
    """What a running match of typical duration ``seconds``, begun at ``started``, has left."""
    return max(0.0, seconds - (now - started).total_seconds()) if started else seconds


def _expected_wait(
    mode: str,
    ahead_by_mode: dict[str, int],
    running_now: list[tuple[str, object]],
    typical: dict[str, float | None],
    *,
    slots: int,
) -> float | None:
    def seconds_of(other: str) -> float | None:
        return _seconds_of(other, mode, typical)

    now = timezone.now()
    first_free = 0.0
    if len(running_now) >= slots:
        left = [
            _time_left(seconds, started, now)
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
