"""Which queues this worker consumes, and which it leaves to others.

A worker whose bots would lack an isolation layer that the deployment requires
(SANDBOX_REQUIRED_ISOLATION: every layer in production) would refuse every match and build in
a fraction of a second, and so take most of the queue from the workers that can play it. So at
start, before it consumes anything (Celery's ``celeryd_after_setup``, sent once the ``-Q``
option is applied), such a worker drops the queues that carry bot work (`queues.bot_queues`),
says why in its log, and keeps the rest (periodic jobs run no bot). Its heartbeat records what
it consumes, what it refused and the layers it lacks (tournament/worker_heartbeat.py), so
/status and /metrics show it as ``isolation: missing <layer>`` and do not count it as a live
match worker. Nothing here imports the tournament.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from celery.signals import celeryd_after_setup
from django.conf import settings

from ..sandbox.isolation import detect_isolation
from .queues import bot_queues, match_queues

log = logging.getLogger("workers.sandbox.isolation")

MATCH, PERIODIC, OTHER = "match", "periodic", "other"
ROLES = (MATCH, PERIODIC, OTHER)


@dataclass(frozen=True)
class WorkerQueues:
    """The queues a worker was asked to consume, split into those it ``consumed`` and those
    it ``refused`` because its sandbox lacks the layers named in ``missing``."""

    consumed: tuple[str, ...]
    refused: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()

    @property
    def role(self) -> str:
        """"match" for a worker started to play matches (even one that refused them),
        "periodic" for the worker of the periodic jobs (beside beat), "other" otherwise."""
        asked = {*self.consumed, *self.refused}
        if asked & set(match_queues()):
            return MATCH
        return PERIODIC if settings.PERIODIC_QUEUE in asked else OTHER

    @property
    def state(self) -> str:
        """What /status says of it: "ok", or the layers whose lack keeps it off bot work."""
        return f"isolation: missing {', '.join(self.missing)}" if self.refused else "ok"


def queues_split(asked: Iterable[str], missing: Iterable[str]) -> WorkerQueues:
    """The queues of ``asked`` a worker lacking the isolation layers ``missing`` consumes:
    all of them when it lacks none, else all but the queues of bot work."""
    asked, missing = tuple(dict.fromkeys(asked)), tuple(missing)
    if not missing:
        return WorkerQueues(consumed=asked)
    bot = set(bot_queues())
    return WorkerQueues(
        consumed=tuple(q for q in asked if q not in bot),
        refused=tuple(q for q in asked if q in bot),
        missing=missing,
    )


_current: WorkerQueues | None = None


def worker_queues() -> WorkerQueues | None:
    """This worker's split, once it has started (None in a process that is no worker)."""
    return _current


def consumer_queues(consumer: object) -> WorkerQueues:
    """The queues a worker's consumer reads, for a worker started without Celery's worker
    program (so without the start-up split below)."""
    queues = getattr(getattr(consumer, "task_consumer", None), "queues", None) or []
    return WorkerQueues(consumed=tuple(q.name for q in queues))


@celeryd_after_setup.connect
def _leave_bot_work_to_isolated_workers(instance: object = None, **_: object) -> None:
    """Before the worker consumes: drop the queues of bot work when a required layer is
    missing (`queues_split`), and remember the split for the heartbeat."""
    global _current
    queues = instance.app.amqp.queues  # type: ignore[attr-defined]
    asked = list(queues.consume_from)
    needs_bots = bool(set(asked) & set(bot_queues()))
    missing = detect_isolation().missing(settings.SANDBOX_REQUIRED_ISOLATION) if needs_bots else []
    split = queues_split(asked, missing)
    if split.refused:
        queues.deselect(list(split.refused))
        log.error(
            "%s: this worker takes no match and no build, and leaves the queues %s to workers "
            "that have every layer SANDBOX_REQUIRED_ISOLATION requires; it consumes %s",
            split.state, ", ".join(split.refused), ", ".join(split.consumed) or "no queue",
        )  # fmt: skip
    _current = split
