"""The embedded background workers: matches run off the request path with nothing installed.

Without CELERY_BROKER_URL the Celery app uses the embedded broker, an SQLite file under DATA_DIR
(workers/queueing/broker.py). `runserver` and `manage.py demo` start two `python -m
workers.queueing.embedded`
processes beside them and supervise them (`EmbeddedWorker`):

* ``matches``: a real Celery worker (prefork, EMBEDDED_WORKER_CONCURRENCY slots) on the match
  lanes and the default queue (builds, deferred records), highest lane first
  (workers/queueing/queues.py);
* ``periodic``: a Celery worker with beat embedded, on the ``periodic`` queue only, so that
  the ladders are topped up and stuck or lost matches reaped on time however many matches
  wait (a single worker would run the reaper only when a match slot frees up).

A worker that dies is started again at once, with the reason (its signal or exit code and the
last error it logged) on the console and in its log. After MAX_DEATHS deaths within
DEATH_WINDOW_SECONDS it is not started again: the console says so loudly, and the state file
DATA_DIR/embedded-workers.json, which `supervisor_state()` reads for the site, says "failed".

One worker of each role per DATA_DIR: the process holds an exclusive lock on
DATA_DIR/embedded-<role>.lock, and a second one (a second runserver on the same data) waits for
that lock instead of running beat twice. The workers die with the process that started them:
each watches its parent and shuts down cold (running matches are cancelled and their messages
returned to the queue) when the parent is gone, whether it exited, crashed or was killed.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import django
from django.conf import settings

from .queues import worker_queues

ROLES = ("matches", "periodic")
LOG_NAMES = {"matches": "embedded-worker.log", "periodic": "embedded-periodic.log"}
LOCK_NAMES = {"matches": "embedded-worker.lock", "periodic": "embedded-periodic.lock"}
STATE_NAME = "embedded-workers.json"
PARENT_POLL_SECONDS = 0.5
COLD_SHUTDOWN_GRACE_SECONDS = 30.0
WATCH_SECONDS = 0.2  # how often the supervisor looks at its workers
MAX_DEATHS = 5  # ... within DEATH_WINDOW_SECONDS, and the supervisor gives up
DEATH_WINDOW_SECONDS = 300.0
RESTART_PAUSES = (0.0, 1.0, 2.0, 3.0)  # before the 1st, 2nd, ... restart in the window

# Back-compat name: the matches worker's log (README, scripts/embedded_ladder.py).
LOG_NAME = LOG_NAMES["matches"]
LOCK_NAME = LOCK_NAMES["matches"]


def embedded_worker_wanted() -> bool:
    """True when tasks go to the embedded broker and nothing else would consume them."""
    return bool(settings.EMBEDDED_WORKER) and not settings.CELERY_TASK_ALWAYS_EAGER


def worker_argv(role: str) -> list[str]:
    """Arguments of `celery worker` for the embedded worker of ``role``."""
    common = [
        # Gossip, mingle and heartbeats talk to other workers: there are none.
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "--loglevel=INFO",
    ]
    if role == "matches":
        queues = worker_queues()  # highest lane first: the broker takes them in this order
        return [
            "worker",
            "--pool=prefork",
            f"--concurrency={settings.EMBEDDED_WORKER_CONCURRENCY}",
            f"--queues={','.join(dict.fromkeys(queues))}",
            "--hostname=embedded@%h",
            *common,
        ]
    if role == "periodic":
        # One process: the jobs are short database work, and a pool process would start a
        # bot fork server and sweep bot leftovers (workers.queueing.celery_app) for nothing.
        return [
            "worker",
            "--beat",
            f"--schedule={settings.CELERY_BEAT_SCHEDULE_FILENAME}",
            "--pool=solo",
            f"--queues={settings.PERIODIC_QUEUE}",
            "--hostname=embedded-periodic@%h",
            *common,
        ]
    raise ValueError(f"no embedded worker role {role!r}")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _pid_alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    stat = Path(f"/proc/{pid}/stat")
    with contextlib.suppress(OSError, IndexError):
        return stat.read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    return True


def supervisor_state(data_dir: Path | None = None) -> dict[str, Any]:
    """What the supervisor of DATA_DIR's embedded workers last recorded, for the site:

    ``{"state": "running" | "restarting" | "failed" | "stopped" | "absent",
       "message": one sentence for people, "supervisor_pid": int | None,
       "roles": {role: {"state", "pid", "started_at", "restarts", "deaths": [{"at",
       "reason"}], "gave_up_at"}}, "updated_at": ISO time}``

    "failed": a worker died MAX_DEATHS times and is not started again. "absent": no embedded
    supervisor (a deployment with its own workers, or nothing started yet). A state file whose
    supervisor is no longer alive reads "stopped".
    """
    if data_dir is None:
        data_dir = Path(settings.DATA_DIR)
    try:
        state = json.loads((Path(data_dir) / STATE_NAME).read_text())
    except (OSError, ValueError):
        return {"state": "absent", "message": "No embedded worker runs here.", "roles": {},
                "supervisor_pid": None, "updated_at": None}  # fmt: skip
    roles = state.get("roles", {})
    if not _pid_alive(state.get("supervisor_pid")):
        for role in roles.values():
            if role.get("state") != "failed":
                role["state"] = "stopped"
    states = {role.get("state") for role in roles.values()}
    for overall in ("failed", "restarting", "stopped", "running"):
        if overall in states:
            break
    else:
        overall = "absent"
    state["state"] = overall
    state["message"] = _message(overall, roles)
    return state


def _message(overall: str, roles: dict[str, Any]) -> str:
    if overall == "failed":
        failed = [name for name, role in roles.items() if role.get("state") == "failed"]
        reasons = "; ".join(
            f"{name}: {roles[name]['deaths'][-1]['reason']}" for name in failed
            if roles[name].get("deaths")
        )  # fmt: skip
        return (
            f"The embedded {' and '.join(failed)} worker died {MAX_DEATHS} times and is not "
            f"restarted any more ({reasons}). Matches will not run until the server is "
            "restarted."
        )
    return {
        "restarting": "An embedded worker died and is being restarted.",
        "stopped": "The embedded workers are stopped.",
        "running": "The embedded workers are running.",
    }.get(overall, "No embedded worker runs here.")


def describe_exit(returncode: int) -> str:
    if returncode < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-returncode).name}"
        return f"killed by signal {-returncode}"
    return f"exited with code {returncode}"


ERROR_LINE = re.compile(r"CRITICAL|ERROR|Error|Traceback")


def last_error(log_path: Path, since: int) -> str:
    """The last line that looks like an error in ``log_path`` after byte ``since``."""
    try:
        with log_path.open("rb") as handle:
            handle.seek(max(since, log_path.stat().st_size - 65536))
            lines = handle.read().decode(errors="replace").splitlines()
    except OSError:
        return ""
    found = [line.strip() for line in lines if ERROR_LINE.search(line)]
    return found[-1][:500] if found else ""


class _Child:
    """One supervised worker process."""

    def __init__(self, role: str, log_path: Path) -> None:
        self.role = role
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None
        self.log_offset = 0
        self.started_at: str | None = None
        self.deaths: list[tuple[float, str, str]] = []  # (monotonic, ISO time, reason)
        self.restarts = 0
        self.state = "stopped"
        self.gave_up_at: str | None = None
        self.restart_at: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "pid": self.process.pid if self.process is not None else None,
            "started_at": self.started_at,
            "restarts": self.restarts,
            "deaths": [{"at": at, "reason": reason} for _, at, reason in self.deaths[-10:]],
            "gave_up_at": self.gave_up_at,
            "log": str(self.log_path),
        }


class EmbeddedWorker:
    """Starts the embedded workers (`python -m workers.queueing.embedded --role ...`) as children,
    restarts one that dies, and stops them again.

    `start()` returns at once; each child logs to its file under DATA_DIR (LOG_NAMES). `stop()`
    asks for a cold shutdown (SIGQUIT) and kills a child's process group if it does not exit.
    ``command`` (tests) replaces the command line of a role.
    """

    def __init__(
        self,
        *,
        data_dir: Path | None = None,
        command: Callable[[str], list[str]] | None = None,
        console: IO[str] | None = None,
    ) -> None:
        self.data_dir = Path(data_dir or settings.DATA_DIR)
        self.log_path = self.data_dir / LOG_NAMES["matches"]
        self.state_path = self.data_dir / STATE_NAME
        self.command = command or self._command
        self.console = console
        self.children = {role: _Child(role, self.data_dir / LOG_NAMES[role]) for role in ROLES}
        self._logs: dict[str, IO[bytes]] = {}
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._watch: threading.Thread | None = None
        self.rounds = 0  # how often the children were looked at: "nothing happened since" is seen

    @staticmethod
    def _command(role: str) -> list[str]:
        args = ["--role", role, "--parent-pid", str(os.getpid())]
        return [sys.executable, "-m", "workers.queueing.embedded", *args]

    # --- lifecycle ----------------------------------------------------------------------

    def start(self) -> None:
        if self._watch is not None:
            return
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._remove_filesystem_queue()
        self._stop.clear()
        for child in self.children.values():
            self._spawn(child)
        self._write_state()
        self._watch = threading.Thread(target=self._run, name="embedded-supervisor", daemon=True)
        self._watch.start()

    def _remove_filesystem_queue(self) -> None:
        """Remove DATA_DIR/broker, the message files of the filesystem transport used before
        the SQLite broker. A match whose message was there is sent again by the reaper (it is
        queued, and the broker no longer holds its message)."""
        old = self.data_dir / "broker"
        if (old / "queue").is_dir() or (old / "control").is_dir():
            shutil.rmtree(old, ignore_errors=True)
            self._say(f"embedded workers: removed {old}, the old broker's message files")

    def _spawn(self, child: _Child) -> None:
        if child.role not in self._logs:
            self._logs[child.role] = open(child.log_path, "ab")  # noqa: SIM115 - see stop()
        out = self._logs[child.role]
        out.flush()
        child.log_offset = child.log_path.stat().st_size
        repo = Path(__file__).resolve().parents[2]
        child.process = subprocess.Popen(
            self.command(child.role),
            cwd=repo, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,  # Ctrl-C in the terminal goes to the parent, which stops us
        )  # fmt: skip
        child.started_at = _now()
        child.state = "running"
        child.restart_at = None

    @property
    def pid(self) -> int | None:
        """The matches worker's pid."""
        process = self.children["matches"].process
        return process.pid if process is not None else None

    def pids(self) -> dict[str, int | None]:
        return {
            role: child.process.pid if child.process is not None else None
            for role, child in self.children.items()
        }

    def running(self) -> bool:
        return all(
            child.process is not None and child.process.poll() is None
            for child in self.children.values()
        )

    def stop(self, timeout: float = COLD_SHUTDOWN_GRACE_SECONDS) -> None:
        self._stop.set()
        if self._watch is not None:
            self._watch.join(timeout=10)
            self._watch = None
        with self._lock:
            processes = []
            for child in self.children.values():
                process, child.process = child.process, None
                if child.state != "failed":
                    child.state = "stopped"
                if process is not None and process.poll() is None:
                    with contextlib.suppress(ProcessLookupError):
                        process.send_signal(signal.SIGQUIT)
                    processes.append(process)
            for process in processes:
                try:
                    process.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=10)
            for out in self._logs.values():
                out.close()
            self._logs.clear()
            self._write_state()

    def __enter__(self) -> EmbeddedWorker:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- supervision --------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.wait(WATCH_SECONDS):
            with self._lock:
                if self._stop.is_set():
                    return
                for child in self.children.values():
                    self._check(child)
                self.rounds += 1

    def _check(self, child: _Child) -> None:
        if child.state == "failed":
            return
        if child.state == "restarting":
            if child.restart_at is not None and time.monotonic() >= child.restart_at:
                child.restarts += 1
                self._spawn(child)
                self._say(f"embedded {child.role} worker restarted (pid {child.process.pid})")
                self._write_state()
            return
        if child.process is None or (returncode := child.process.poll()) is None:
            return
        reason = describe_exit(returncode)
        error = last_error(child.log_path, child.log_offset)
        if error:
            reason += f"; last error: {error}"
        now = time.monotonic()
        child.deaths.append((now, _now(), reason))
        recent = [d for d in child.deaths if now - d[0] <= DEATH_WINDOW_SECONDS]
        if len(recent) >= MAX_DEATHS:
            child.state = "failed"
            child.gave_up_at = _now()
            self._shout(child, reason, len(recent))
        else:
            pause = RESTART_PAUSES[min(len(recent) - 1, len(RESTART_PAUSES) - 1)]
            child.state = "restarting"
            child.restart_at = now + pause
            self._say(
                f"embedded {child.role} worker (pid {child.process.pid}) died: {reason}; "
                f"restarting in {pause:.0f}s (death {len(recent)} of {MAX_DEATHS} allowed "
                f"within {DEATH_WINDOW_SECONDS:.0f}s)",
                child,
            )
        self._write_state()

    def _say(self, text: str, child: _Child | None = None) -> None:
        """To the console (runserver's terminal: stderr) and to the worker's own log."""
        console = self.console or sys.stderr
        with contextlib.suppress(OSError, ValueError):
            console.write(text + "\n")
            console.flush()
        for role in [child.role] if child is not None else list(self._logs):
            out = self._logs.get(role)
            if out is not None:
                with contextlib.suppress(OSError, ValueError):
                    out.write(f"[{_now()}] supervisor: {text}\n".encode())
                    out.flush()

    def _shout(self, child: _Child, reason: str, deaths: int) -> None:
        bar = "!" * 78
        self._say(
            f"{bar}\n"
            f"!! The embedded {child.role} worker died {deaths} times within "
            f"{DEATH_WINDOW_SECONDS:.0f}s and is NOT restarted any more.\n"
            f"!! Last reason: {reason}\n"
            f"!! {'Matches' if child.role == 'matches' else 'Ladders and the reaper'} will not "
            f"run until this server is restarted. Log: {child.log_path}\n"
            f"{bar}",
            child,
        )

    def _write_state(self) -> None:
        state = {
            "supervisor_pid": os.getpid(),
            "updated_at": _now(),
            "roles": {role: child.to_json() for role, child in self.children.items()},
        }
        tmp = self.state_path.with_suffix(f".{os.getpid()}.tmp")
        with contextlib.suppress(OSError):
            tmp.write_text(json.dumps(state, indent=1))
            os.replace(tmp, self.state_path)  # readers see the old or the new file, whole


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


def _lock(data_dir: Path, role: str) -> Any:
    """Hold DATA_DIR's lock of ``role`` for the life of the process (waits while another has
    it)."""
    handle = open(data_dir / LOCK_NAMES[role], "a+")  # noqa: SIM115 - held until the process exits
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"embedded {role} worker: another one serves {data_dir}; waiting", flush=True)
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m workers.queueing.embedded", description=__doc__
    )
    parser.add_argument("--role", choices=ROLES, default="matches", help="which worker")
    parser.add_argument("--parent-pid", type=int, help="shut down when this process is gone")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    watch = _ParentWatch(args.parent_pid) if args.parent_pid else None
    if watch is not None:
        watch.start()

    django.setup()

    if not settings.EMBEDDED_WORKER:
        print("embedded worker: CELERY_BROKER_URL is set; run `celery worker` instead")
        return 2
    lock = _lock(Path(settings.DATA_DIR), args.role)  # noqa: F841 - held while the worker runs
    # The Celery app reads Django's settings when it is made: only after django.setup() above.
    from workers.queueing.celery_app import app  # noqa: PLC0415

    if watch is not None:
        watch.worker_started.set()
    app.worker_main(worker_argv(args.role))
    return 0


if __name__ == "__main__":
    sys.exit(main())
