"""The broker queues of matches, shared by the code that sends them (tournament/services) and
the workers that consume them (workers/queueing/embedded.py, the reaper's look into the broker).

Matches go to Celery's default queue, or with MATCH_QUEUE_PER_MODE to ``matches.<mode>``. A match
sent again (its worker died, its message was lost, its play failed) goes to the retry queue beside
it, which the same workers consume: kombu serves a worker's queues in turn, so it is played at the
next free slot instead of behind the matches queued since (tournament/settings.py: Queues).
"""

from __future__ import annotations

from django.conf import settings

import engine


def match_queue(mode: str, *, again: bool = False) -> str | None:
    """The queue of a match of ``mode`` (None: Celery's default queue); ``again``: its retry
    queue."""
    if settings.MATCH_QUEUE_PER_MODE:
        return f"matches.{mode}.retry" if again else f"matches.{mode}"
    return settings.MATCH_RETRY_QUEUE if again else None


def match_queues() -> list[str]:
    """Every queue a match may wait in: what a worker that plays every mode consumes."""
    if not settings.MATCH_QUEUE_PER_MODE:
        return [settings.CELERY_TASK_DEFAULT_QUEUE, settings.MATCH_RETRY_QUEUE]

    modes = engine.available_modes()
    return [queue for mode in modes for queue in (f"matches.{mode}", f"matches.{mode}.retry")]


def bot_queues() -> list[str]:
    """The queues whose tasks start bot processes: every match queue and Celery's default
    queue (builds, and matches unless MATCH_QUEUE_PER_MODE). A worker whose sandbox lacks a
    required isolation layer consumes none of them (workers/queueing/worker_queues.py)."""
    return list(dict.fromkeys([settings.CELERY_TASK_DEFAULT_QUEUE, *match_queues()]))
