"""Sending a match's play task to the broker: the queue of its lane, once the surrounding
transaction commits, with time limits from its worst-case duration. Every send goes through
`match_enqueue`: the match services (`matches.py`) when a match is created or sent again,
a league resumed (`leagues.py`), and the workshop gate (`workshop_gate.py`) when it releases
held workshop work."""

from __future__ import annotations

import math

from django.conf import settings
from django.db import transaction

from competition.limits import Limits, match_worst_case_seconds
from workers.queueing.queues import BACKGROUND, match_lane
from workers.queueing.queues import match_queue as queue_of

from ..jobs import MATCH_PLAY, job
from ..models import Match


def match_worst_case(match: Match, seats: int | None = None) -> float | None:
    """The longest the match can take (``competition.limits.match_worst_case_seconds``: seats x
    (decisions x limit + bank) plus startup), or None for a mode without a decisions bound."""
    seats = match.seats.count() if seats is None else seats
    limits = Limits(decision_seconds=match.decision_time_limit, bank_seconds=match.time_bank)
    try:
        return match_worst_case_seconds(match.mode, seats, limits)
    except KeyError:
        return None


def match_time_limits(match: Match, seats: int | None = None) -> tuple[int, int]:
    """(soft, hard) Celery time limits of the match's play task: its worst case plus
    MATCH_TIME_MARGIN_SECONDS (half of it for the soft limit) for the engine, built-in bots
    and the replay upload. The runner's own per-seat wall budget ends a match before them, so
    they are reached only by a runner bug or a host so loaded that its bots waited for a CPU
    longer than the margin (a wait never charged to a bot), never because of a bot."""
    worst = match_worst_case(match, seats)
    if worst is None:
        hard = settings.CELERY_TASK_TIME_LIMIT
        return settings.CELERY_TASK_SOFT_TIME_LIMIT, hard
    margin = settings.MATCH_TIME_MARGIN_SECONDS
    return math.ceil(worst + margin / 2), math.ceil(worst + margin)


def match_enqueue(match: Match, seats: int | None = None, *, again: bool = False) -> None:
    """Queue the play task once the surrounding transaction commits (never a phantom id),
    with time limits from the match's worst-case duration (``seats``: its number of seats
    when the caller knows it, else counted), in its kind's lane (validations and challenges
    ahead of league matches: workers/queueing/queues.py). ``again``: the match is sent again
    (its worker died, its message was lost, its play failed), to the retry lane that workers
    serve ahead of a backlog, unless its own lane is higher."""
    match_id = match.pk
    queue = match_queue(match.mode, again=again, lane=match_lane(match.kind))
    soft, hard = match_time_limits(match, seats)
    transaction.on_commit(
        lambda: job(MATCH_PLAY).apply_async(
            (match_id,), queue=queue, time_limit=hard, soft_time_limit=soft
        )
    )


def match_queue(mode: str, *, again: bool = False, lane: str = BACKGROUND) -> str:
    """The broker queue of a mode's matches in ``lane``: ``matches.<lane>``, or per mode with
    MATCH_QUEUE_PER_MODE on (so workers can be given to modes); a match sent ``again`` goes to
    the retry lane, served ahead of a backlog (workers/queueing/queues.py)."""
    return queue_of(mode, again=again, lane=lane)
