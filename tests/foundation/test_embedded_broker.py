"""The embedded broker (workers/queueing/broker.py: kombu's SQLAlchemy transport on an SQLite file)
under concurrent writers: two producer processes of four threads each, and one real Celery
worker (prefork, as the embedded worker runs) that consumes and publishes at once. Every one of
3,000 messages (10,000 with BROKER_SOAK_MESSAGES=10000) runs exactly once and the worker never
dies (kombu's filesystem transport can hand a worker a half-written message file, which kills
it)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scripts.embedded_ladder import REPO, embedded_env
from tests.foundation.broker_probe import FORWARD_BELOW, FORWARD_OFFSET

pytestmark = pytest.mark.slow

# Enough messages that the producers' and the worker's transactions interleave thousands of
# times; BROKER_SOAK_MESSAGES=10000 runs the longer soak that docs/scaling.md reports.
TOTAL = int(os.environ.get("BROKER_SOAK_MESSAGES", "3000"))
PRODUCERS = 2
THREADS = 4


def _runs(data_dir: Path) -> list[tuple[int, str, int]]:
    path = data_dir / "probe.sqlite3"
    if not path.exists():
        return []
    db = sqlite3.connect(path, timeout=60)
    try:
        return db.execute("SELECT n, task_id, pid FROM runs").fetchall()
    except sqlite3.OperationalError:  # the table is not made yet
        return []
    finally:
        db.close()


def _waiting(data_dir: Path) -> int:
    db = sqlite3.connect(data_dir / "broker.sqlite3", timeout=60)
    try:
        return db.execute("SELECT count(*) FROM kombu_message").fetchone()[0]
    finally:
        db.close()


@pytest.mark.timeout(900)
def test_thousands_of_messages_from_concurrent_producers_run_exactly_once(tmp_path: Path):
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    # An idle worker polls every EMBEDDED_WORKER_POLL_SECONDS, and a worker whose two slots
    # are busy also waits that long before it takes the next message: for tasks of a few
    # milliseconds the product's 0.5 s would make this test take an hour. Polling this often
    # also makes the consumer take the broker's lock far more often than the product does.
    env = embedded_env(data_dir, PYTHONUNBUFFERED="1", EMBEDDED_WORKER_POLL_SECONDS="0.001")
    log = (data_dir / "worker.log").open("wb")
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "tests.foundation.broker_probe", "worker",
         "--pool=prefork", "--concurrency=2", "--without-gossip", "--without-mingle",
         "--without-heartbeat", "--loglevel=WARNING"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    sent_by_producers = TOTAL - FORWARD_BELOW  # the worker sends the rest
    share = sent_by_producers // PRODUCERS
    started = time.monotonic()
    try:
        producers = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.foundation.broker_probe",
                    "produce",
                    str(i * share),
                    str(share),
                    str(THREADS),
                ],
                cwd=REPO,
                env=env,
            )  # fmt: skip
            for i in range(PRODUCERS)
        ]
        for producer in producers:
            assert producer.wait(timeout=600) == 0
        print(f"producers done after {time.monotonic() - started:.1f}s")
        deadline = time.monotonic() + 600
        while len(runs := _runs(data_dir)) < TOTAL or _waiting(data_dir):
            assert worker.poll() is None, "the worker died"
            assert time.monotonic() < deadline, f"{len(runs)} of {TOTAL} messages ran"
            time.sleep(0.5)
        assert worker.poll() is None, "the worker died"
        print(f"all {TOTAL} messages ran after {time.monotonic() - started:.1f}s")
    finally:
        # The worker and its pool are killed, not asked to stop: what is tested ran above,
        # and a warm shutdown of a polling worker takes seconds.
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=60)
        log.close()
    numbers = [n for n, _, _ in runs]
    assert len(numbers) == TOTAL, f"{len(numbers) - len(set(numbers))} messages ran twice"
    assert set(numbers) == set(range(sent_by_producers)) | set(
        range(FORWARD_OFFSET, FORWARD_OFFSET + FORWARD_BELOW)
    )  # none lost
    assert len({task_id for _, task_id, _ in runs}) == TOTAL
    output = (data_dir / "worker.log").read_text(errors="replace")
    for sign_of_death in ("Unrecoverable error", "CRITICAL", "exited with", "WorkerLostError"):
        assert sign_of_death not in output, output[-3000:]
    # The pool's two processes ran everything: none was replaced after dying.
    assert len({pid for _, _, pid in runs}) <= 2
    assert _waiting(data_dir) == 0
    assert os.path.getsize(data_dir / "broker.sqlite3") > 0


def test_a_wait_for_a_message_lasts_at_most_one_polling_interval(monkeypatch) -> None:
    """Celery's blocking loop asks the transport to wait up to 2 s and looks at the worker's
    state only between waits: the embedded transport waits one polling interval at a time,
    so a worker asked to stop stops within one; a wait without a timeout is left unbounded."""
    from kombu.transport.virtual import Transport as VirtualTransport

    from workers.queueing.broker import Transport

    asked: list[float | None] = []
    monkeypatch.setattr(VirtualTransport, "drain_events",
                        lambda self, connection, timeout=None: asked.append(timeout))  # fmt: skip
    transport = Transport.__new__(Transport)
    transport.polling_interval = 0.5
    for timeout in (2.0, 0.1, None):
        transport.drain_events(object(), timeout=timeout)
    assert asked == [0.5, 0.1, None]
