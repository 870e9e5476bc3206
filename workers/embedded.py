"""The embedded background worker: matches run off the request path with nothing installed.

Without CELERY_BROKER_URL the Celery app uses kombu's filesystem transport, a queue of message
files under DATA_DIR/broker (tournament/settings.py). `runserver` and `manage.py demo` start one
`python -m workers.embedded` process beside them (`EmbeddedWorker`): a real Celery worker with
beat embedded, so ladders are topped up and stuck matches reaped as with Redis and a
deployment's own workers.

One worker per DATA_DIR: the process holds an exclusive lock on DATA_DIR/embedded-worker.lock,
and a second one (a second runserver on the same data) waits for that lock instead of running
beat twice. The worker dies with the process that started it: it watches its parent and shuts
down cold (running matches are cancelled and their messages returned to the queue) when the
parent is gone, whether it exited, crashed or was killed.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

log = logging.getLogger(__name__)

LOCK_NAME = "embedded-worker.lock"
LOG_NAME = "embedded-worker.log"
PARENT_POLL_SECONDS = 0.5
COLD_SHUTDOWN_GRACE_SECONDS = 30.0


def embedded_worker_wanted() -> bool:
    """True when tasks go to the filesystem broker and nothing else would consume them."""
    from django.conf import settings

    return bool(settings.EMBEDDED_WORKER) and not settings.CELERY_TASK_ALWAYS_EAGER


def worker_argv(concurrency: int, schedule_filename: str) -> list[str]:
    """Arguments of `celery worker` for the embedded worker (beat included)."""
    return [
        "worker",
        "--beat",
        f"--schedule={schedule_filename}",
        "--pool=prefork",
        f"--concurrency={concurrency}",
        # Gossip, mingle and heartbeats talk to other workers: there are none.
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "--hostname=embedded@%h",
        "--loglevel=INFO",
    ]


class EmbeddedWorker:
    """Starts `python -m workers.embedded` as a child and stops it again.

    `start()` returns at once; the child logs to DATA_DIR/embedded-worker.log. `stop()` asks
    for a cold shutdown (SIGQUIT) and kills the child's process group if it does not exit.
    """

    def __init__(self, *, data_dir: Path | None = None) -> None:
        from django.conf import settings

        self.data_dir = Path(data_dir or settings.DATA_DIR)
        self.log_path = self.data_dir / LOG_NAME
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    def start(self) -> None:
        if self.process is not None:
            return
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
        repo = Path(__file__).resolve().parent.parent
        self.process = subprocess.Popen(
            [sys.executable, "-m", "workers.embedded", "--parent-pid", str(os.getpid())],
            cwd=repo, stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT,
            start_new_session=True,  # Ctrl-C in the terminal goes to the parent, which stops us
        )  # fmt: skip

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout: float = COLD_SHUTDOWN_GRACE_SECONDS) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGQUIT)
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> EmbeddedWorker:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _ParentWatch(threading.Thread):
    """Ends this process when the process that started it is gone (its pid is no longer our
    parent): before the Celery worker runs by exiting, afterwards by a cold shutdown."""

    def __init__(self, parent_pid: int) -> None:
        super().__init__(name="embedded-parent-watch", daemon=True)
        self.parent_pid = parent_pid
        self.worker_started = threading.Event()

    def run(self) -> None:
        while os.getppid() == self.parent_pid:
            time.sleep(PARENT_POLL_SECONDS)
        if not self.worker_started.is_set():
            os._exit(0)
        os.kill(os.getpid(), signal.SIGQUIT)
        time.sleep(COLD_SHUTDOWN_GRACE_SECONDS)
        os._exit(1)


def _lock(data_dir: Path) -> Any:
    """Hold DATA_DIR's worker lock for the life of the process (waits while another has it)."""
    handle = open(data_dir / LOCK_NAME, "a+")  # noqa: SIM115 - held until the process exits
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"embedded worker: another one serves {data_dir}; waiting", flush=True)
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m workers.embedded", description=__doc__)
    parser.add_argument("--parent-pid", type=int, help="shut down when this process is gone")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    watch = _ParentWatch(args.parent_pid) if args.parent_pid else None
    if watch is not None:
        watch.start()

    import django

    django.setup()
    from django.conf import settings

    if not settings.EMBEDDED_WORKER:
        print("embedded worker: CELERY_BROKER_URL is set; run `celery worker` instead")
        return 2
    lock = _lock(Path(settings.DATA_DIR))  # noqa: F841 - held while the worker runs
    from workers.celery_app import app

    if watch is not None:
        watch.worker_started.set()
    app.worker_main(
        worker_argv(settings.EMBEDDED_WORKER_CONCURRENCY, settings.CELERY_BEAT_SCHEDULE_FILENAME)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
