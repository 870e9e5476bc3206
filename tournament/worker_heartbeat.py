"""A Celery worker's heartbeat: a thread of the worker's main process stamps its row in the
database (`tournament.services.worker_health.worker_beat`) every WORKER_HEARTBEAT_SECONDS, from
`worker_ready` until `worker_shutdown` (tournament/tasks.py connects both).

Celery's own heartbeats are events between workers, which the embedded worker turns off and
which the web cannot read; the database is the one store that every process shares on every
setup (SQLite embedded, PostgreSQL in production). A thread rather than the consumer's timer,
so that a write waiting on a busy SQLite file never holds up the delivery of tasks. The
thread closes its connection after each beat: pool processes forked while it runs must not
inherit an open one.
"""

from __future__ import annotations

import logging
import os
import threading

from django.conf import settings
from django.db import connection
from django.utils import timezone

from workers.queueing.worker_queues import WorkerQueues

from .services.worker_health import worker_beat

log = logging.getLogger(__name__)


class Heartbeat(threading.Thread):
    """Beats for the worker named ``name``, consuming ``queues``, every ``interval`` seconds
    until `stop()`."""

    def __init__(self, name: str, interval: float, queues: WorkerQueues | None = None) -> None:
        super().__init__(name="worker-heartbeat", daemon=True)
        self.node = name
        self.interval = interval
        self.queues = queues
        self.started_at = timezone.now()
        self._stopping = threading.Event()

    def beat(self) -> bool:
        """One beat; a failure (database away for a moment) is logged and tried again at the
        next one, never raised: the worker goes on taking tasks."""
        try:
            worker_beat(
                name=self.node, pid=os.getpid(), started_at=self.started_at, queues=self.queues
            )
        except Exception:  # any driver error: reported, retried at the next beat
            log.warning("worker heartbeat of %s: not recorded", self.node, exc_info=True)
            return False
        return True

    def run(self) -> None:
        while not self._stopping.is_set():
            try:
                self.beat()
            finally:
                connection.close()  # this thread's own connection, never held between beats
            self._stopping.wait(self.interval)

    def stop(self) -> None:
        self._stopping.set()


_current: Heartbeat | None = None


def heartbeat_start(name: str, queues: WorkerQueues | None = None) -> Heartbeat:
    """Start this process's heartbeat (once; a second call returns the running one)."""
    global _current
    if _current is None or not _current.is_alive():
        _current = Heartbeat(name, settings.WORKER_HEARTBEAT_SECONDS, queues)
        _current.start()
    return _current


def heartbeat_stop() -> None:
    global _current
    if _current is not None:
        _current.stop()
        _current = None
