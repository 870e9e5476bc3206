"""The broker queues of matches, shared by the code that sends them (tournament/services) and
the workers that consume them (workers/queueing/embedded.py, the reaper's look into the broker).

Matches wait in **lanes**, each a queue of its own, which a match worker consumes in the order
of LANES, highest first:

* ``interactive``: validation matches and challenges, which someone is waiting at a page for;
* ``workshop``: an author's test games (tournament/services/test_games.py), which the author
  waits for at the match page or in ``arena test``, and the games of boss leagues' promotion
  runs; the workshop gate (tournament/services/workshop_gate.py) sends at most WORKSHOP_SLOTS
  of them at a time, so this lane never holds more than a few messages;
* ``retry``: a match sent again (its worker died, its message was lost, its play failed) and a
  ladder newcomer's first match, ahead of the backlog they would otherwise wait behind;
* ``background``: league, ladder and (requested) paired-comparison matches.

Celery's default queue (builds, deferred result records, analyses) is consumed between the
workshop and retry lanes: a bot's build is short and its validation waits for it.

Without MATCH_QUEUE_PER_MODE a lane's queue is ``matches.<lane>`` (the retry lane keeps the
name MATCH_RETRY_QUEUE); with it, ``matches.<mode>.<lane>``, the background lane being plain
``matches.<mode>`` (so `celery worker -Q` lines written for per-mode queues keep working).

How "highest lane first" is kept (docs/architecture.md, "Queues and lanes"): the embedded
broker takes the oldest message of the first of a consumer's queues that has one
(workers/queueing/broker.py), and on Redis the transport option ``queue_order_strategy:
priority`` makes BRPOP list the queues in the consumer's order. With acks late and a prefetch
multiplier of 1 a worker takes a message only when a slot is free, so a match in a higher lane
waits at most for the first running match to end.
"""

from __future__ import annotations

from django.conf import settings

import engine

INTERACTIVE = "interactive"
WORKSHOP = "workshop"
RETRY = "retry"
BACKGROUND = "background"
LANES = (INTERACTIVE, WORKSHOP, RETRY, BACKGROUND)  # highest first

# Match.Kind value -> its lane. A test checks that every kind has one.
KIND_LANES = {
    "validation": INTERACTIVE,
    "challenge": INTERACTIVE,
    "league": BACKGROUND,
    "paired": BACKGROUND,  # many games per comparison: they must not starve the ladders' peers
    "test": WORKSHOP,  # an author's test game, capped per author (services/test_games.py)
    "boss": WORKSHOP,  # a boss league's promotion game; with test games, through the gate
}


def match_lane(kind: str, *, again: bool = False) -> str:
    """The lane of a match of ``kind``; ``again`` (sent again, or a ladder newcomer's first
    match): the retry lane, unless its own lane is higher."""
    lane = KIND_LANES[kind]
    if again and LANES.index(lane) > LANES.index(RETRY):
        return RETRY
    return lane


def lane_queue(lane: str, mode: str | None = None) -> str:
    """The queue of ``lane`` (``mode``'s, with MATCH_QUEUE_PER_MODE)."""
    if lane not in LANES:
        raise KeyError(f"no match lane {lane!r}")
    if settings.MATCH_QUEUE_PER_MODE and mode is not None:
        return f"matches.{mode}" if lane == BACKGROUND else f"matches.{mode}.{lane}"
    return settings.MATCH_RETRY_QUEUE if lane == RETRY else f"matches.{lane}"


def match_queue(mode: str, *, again: bool = False, lane: str = BACKGROUND) -> str:
    """The queue of a match of ``mode`` in ``lane``; ``again``: moved up to the retry lane."""
    if again and LANES.index(lane) > LANES.index(RETRY):
        lane = RETRY
    return lane_queue(lane, mode)


def lane_of_queue(queue: str) -> str | None:
    """The lane a match queue belongs to (None: not a match queue)."""
    for lane in LANES:
        if queue == lane_queue(lane) or any(
            queue == lane_queue(lane, mode) for mode in engine.available_modes()
        ):
            return lane
    return None


def match_queues() -> list[str]:
    """Every queue a match may wait in, highest lane first (each lane's modes together): what
    a worker that plays every mode consumes, in this order."""
    if not settings.MATCH_QUEUE_PER_MODE:
        return [lane_queue(lane) for lane in LANES]
    modes = engine.available_modes()
    return [lane_queue(lane, mode) for lane in LANES for mode in modes]


def worker_queues() -> list[str]:
    """The queues of a worker that plays matches, in the order it must consume them: the
    interactive and workshop lanes, Celery's default queue (builds, deferred records), then
    the retry and background lanes."""
    queues = match_queues()
    split = next(i for i, q in enumerate(queues) if lane_of_queue(q) in (RETRY, BACKGROUND))
    default = settings.CELERY_TASK_DEFAULT_QUEUE
    return list(dict.fromkeys([*queues[:split], default, *queues[split:]]))


def bot_queues() -> list[str]:
    """The queues whose tasks start bot processes: every match queue and Celery's default
    queue (builds, and matches unless MATCH_QUEUE_PER_MODE). A worker whose sandbox lacks a
    required isolation layer consumes none of them (workers/queueing/worker_queues.py)."""
    return list(dict.fromkeys([settings.CELERY_TASK_DEFAULT_QUEUE, *match_queues()]))
