"""Run the production topology without Docker: gunicorn web + N Celery workers + beat.

Used by `scripts/stack.sh start|stop|status`, by integration tests and by benchmarks:

    with Stack(workers=2, env={"CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"}) as s:
        urllib.request.urlopen(s.base_url + "/healthz")

Each process runs in its own process group (so stopping it also stops gunicorn's and Celery's
children) and leaves a pidfile and a log under the state directory (default var/stack/), which
is what lets a later `stop` from another shell find them. PostgreSQL and Redis are not started
here: they come from DATABASE_URL and CELERY_BROKER_URL in the environment.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType

REPO = Path(__file__).resolve().parent.parent
DEFAULT_STATE_DIR = REPO / "var" / "stack"


class StackError(RuntimeError):
    """The stack could not start, or a process died while it was starting."""


class Stack:
    """One web server, `workers` Celery workers (one slot each) and optionally beat."""

    def __init__(
        self,
        workers: int = 1,
        port: int = 8001,
        env: dict[str, str] | None = None,
        state_dir: str | os.PathLike[str] | None = None,
        beat: bool = True,
        web_workers: int = 2,
        host: str = "127.0.0.1",
        python: str | None = None,
    ) -> None:
        self.workers = workers
        self.port = port
        self.host = host
        self.beat = beat
        self.web_workers = web_workers
        self.python = python or sys.executable
        self.state_dir = Path(state_dir or DEFAULT_STATE_DIR).resolve()
        self.log_dir = self.state_dir / "logs"
        self.env = {**os.environ, **(env or {}), "PYTHONUNBUFFERED": "1"}
        self.env.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
        self._children: dict[int, subprocess.Popen[bytes]] = {}

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def worker_names(self) -> list[str]:
        return [f"w{i}" for i in range(1, self.workers + 1)]

    # --- commands -------------------------------------------------------------------------

    def _commands(self) -> dict[str, list[str]]:
        celery = [self.python, "-m", "celery", "-A", "workers.celery_app"]
        commands = {
            "web": [
                self.python, "-m", "gunicorn", "tournament.wsgi:application",
                "--bind", f"{self.host}:{self.port}",
                "--workers", str(self.web_workers),
                "--graceful-timeout", "5",
                "--access-logfile", "-",
            ],
        }  # fmt: skip
        for name in self.worker_names():
            commands[name] = [
                *celery, "worker", "--concurrency=1", "-n", f"{name}@%h", "--loglevel=info",
            ]  # fmt: skip
        if self.beat:
            commands["beat"] = [
                *celery, "beat", "--loglevel=info",
                "--schedule", str(self.state_dir / "celerybeat-schedule"),
            ]  # fmt: skip
        return commands

    def _pidfile(self, name: str) -> Path:
        return self.state_dir / f"{name}.pid"

    def _log(self, name: str) -> Path:
        return self.log_dir / f"{name}.log"

    # --- lifecycle ------------------------------------------------------------------------

    def start(self, timeout: float = 90.0) -> Stack:
        """Migrate, collect static files, spawn every process and wait until all are ready."""
        if (self.workers or self.beat) and not self.env.get("CELERY_BROKER_URL"):
            raise StackError(
                "CELERY_BROKER_URL is not set: workers and beat need a real broker "
                "(e.g. redis://127.0.0.1:6379/0). Use workers=0, beat=False for web only."
            )
        running = {name: pid for name, pid in self.status().items() if pid}
        if running:
            raise StackError(f"already running under {self.state_dir}: {running}; stop it first")
        self.log_dir.mkdir(parents=True, exist_ok=True)
        for args in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
            self._manage(*args)
        try:
            for name, argv in self._commands().items():
                self._spawn(name, argv)
            self.wait_ready(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _manage(self, *args: str) -> None:
        log = self._log("setup")
        with log.open("ab") as out:
            done = subprocess.run(
                [self.python, "manage.py", *args],
                cwd=REPO, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )  # fmt: skip
        if done.returncode:
            raise StackError(f"manage.py {' '.join(args)} failed:\n{_tail(log)}")

    def _spawn(self, name: str, argv: list[str]) -> None:
        with self._log(name).open("ab") as out:
            proc = subprocess.Popen(
                argv, cwd=REPO, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
        self._children[proc.pid] = proc
        self._pidfile(name).write_text(f"{proc.pid}\n")

    def wait_ready(self, timeout: float = 90.0) -> None:
        """Wait for /healthz to answer 200 and every worker to log that it is ready."""
        deadline = time.monotonic() + timeout
        pending = {"web", *self.worker_names()}
        while pending:
            for name, pid in self.status().items():
                if pid is None:
                    raise StackError(f"{name} exited while starting:\n{_tail(self._log(name))}")
            if "web" in pending and _http_ok(self.base_url + "/healthz"):
                pending.discard("web")
            for name in self.worker_names():
                text = _read(self._log(name))
                if f"{name}@" in text and " ready." in text:  # celery logs "w1@host ready."
                    pending.discard(name)
            if not pending:
                return
            if time.monotonic() > deadline:
                logs = "\n".join(f"--- {n}\n{_tail(self._log(n))}" for n in sorted(pending))
                raise StackError(f"not ready after {timeout:.0f}s: {sorted(pending)}\n{logs}")
            time.sleep(0.2)

    def status(self) -> dict[str, int | None]:
        """Map each process name that has a pidfile to its pid, or None if it is gone."""
        result: dict[str, int | None] = {}
        for pidfile in sorted(self.state_dir.glob("*.pid")):
            pid = int(pidfile.read_text().split()[0])
            result[pidfile.stem] = pid if self._alive(pid) else None
        return result

    def stop(self, timeout: float = 20.0) -> None:
        """SIGTERM every process group we started, wait, then SIGKILL what is left."""
        groups = {name: pid for name, pid in self.status().items() if pid}
        for pgid in groups.values():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pgid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while any(self._group_alive(p) for p in groups.values()) and time.monotonic() < deadline:
            time.sleep(0.1)
        for pgid in groups.values():
            if self._group_alive(pgid):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pgid, signal.SIGKILL)
        for pgid in groups.values():
            while self._group_alive(pgid):
                time.sleep(0.05)
        for pidfile in self.state_dir.glob("*.pid"):
            pidfile.unlink(missing_ok=True)
        self._children.clear()

    def _alive(self, pid: int) -> bool:
        if pid in self._children:
            return self._children[pid].poll() is None
        return _pid_alive(pid)

    def _group_alive(self, pgid: int) -> bool:
        self._alive(pgid)  # reaps our own leader so a zombie does not keep the group "alive"
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return _group_has_live_members(pgid)

    def __enter__(self) -> Stack:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return _proc_state(pid) not in {"Z", "X", None}


def _proc_state(pid: int) -> str | None:
    """Linux process state letter ("Z" for zombie); "?" where /proc is not available."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return None if Path("/proc/self").exists() else "?"
    return stat.rsplit(")", 1)[1].split()[0]


def _group_has_live_members(pgid: int) -> bool:
    """True unless /proc shows that every member of the group is a zombie."""
    proc = Path("/proc")
    if not proc.exists():
        return True
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] not in {"Z", "X"}:
            return True
    return False


def _http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except FileNotFoundError:
        return ""


def _tail(path: Path, lines: int = 40) -> str:
    return "\n".join(_read(path).splitlines()[-lines:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["start", "stop", "status"])
    parser.add_argument("--workers", type=int, default=1, help="Celery worker processes")
    parser.add_argument("--port", type=int, default=8001, help="gunicorn port on 127.0.0.1")
    parser.add_argument("--no-beat", action="store_true", help="do not start celery beat")
    parser.add_argument("--state-dir", default=str(DEFAULT_STATE_DIR), help="pidfiles and logs")
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds to become ready")
    args = parser.parse_args(argv)
    stack = Stack(
        workers=args.workers, port=args.port, beat=not args.no_beat, state_dir=args.state_dir
    )
    if args.action == "start":
        try:
            stack.start(timeout=args.timeout)
        except StackError as exc:
            print(f"stack: {exc}", file=sys.stderr)
            return 1
        print(f"stack: up at {stack.base_url}; logs in {stack.log_dir}")
        return 0
    if args.action == "stop":
        stack.stop()
        print("stack: stopped")
        return 0
    states = stack.status()
    for name, pid in states.items():
        print(f"{name:8} {'running pid ' + str(pid) if pid else 'dead'}")
    if not states:
        print("stack: not running")
    return 0 if states and all(states.values()) else 3


if __name__ == "__main__":
    sys.exit(main())
