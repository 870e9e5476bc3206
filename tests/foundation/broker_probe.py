"""A Celery app on the embedded broker exactly as the product configures it (tournament.settings
without CELERY_BROKER_URL, on the DATA_DIR of the environment), with one trivial task that
records each message it runs, for tests/foundation/test_embedded_broker.py.

    python -m celery -A tests.foundation.broker_probe worker ...   # the consumer
    python -m tests.foundation.broker_probe produce FIRST COUNT THREADS  # a producer process

Each run of `probe.record` inserts (number, task id, pid) into DATA_DIR/probe.sqlite3; a number
below FORWARD_BELOW also sends the message number + FORWARD_OFFSET from inside the worker, so the
worker publishes while it consumes, as the embedded workers do (a failed match re-queued, beat).
"""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
from pathlib import Path

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

app = Celery("broker_probe", set_as_current=False)  # imported by the tests: never their current app
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.task_routes = {}
app.conf.beat_schedule = {}

FORWARD_BELOW = 1000
FORWARD_OFFSET = 9000


def results_path() -> Path:
    return Path(os.environ["DATA_DIR"]) / "probe.sqlite3"


_DB: dict[int, sqlite3.Connection] = {}  # pid -> this pool process's connection


def results_db() -> sqlite3.Connection:
    if os.getpid() not in _DB:
        db = sqlite3.connect(results_path(), timeout=60, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=OFF")  # the test's own records: no need to survive a crash
        db.execute("CREATE TABLE IF NOT EXISTS runs (n INTEGER, task_id TEXT, pid INTEGER)")
        _DB[os.getpid()] = db
    return _DB[os.getpid()]


@app.task(name="probe.record", bind=True)
def record(self, n: int) -> None:
    results_db().execute("INSERT INTO runs VALUES (?, ?, ?)", (n, self.request.id, os.getpid()))
    if n < FORWARD_BELOW:
        record.delay(n + FORWARD_OFFSET)


def produce(first: int, count: int, threads: int) -> None:
    """Send record(first .. first + count - 1) from ``threads`` threads at once."""
    numbers = list(range(first, first + count))

    def send(share: list[int]) -> None:
        for n in share:
            record.delay(n)

    workers = [threading.Thread(target=send, args=(numbers[i::threads],)) for i in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()


if __name__ == "__main__":
    if sys.argv[1:2] == ["produce"]:
        produce(*(int(a) for a in sys.argv[2:5]))
