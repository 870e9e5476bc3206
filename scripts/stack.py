"""Run the production topology without Docker: gunicorn web + N Celery workers + beat (with the
worker of the periodic queue).

Used by `scripts/stack.sh start|stop|status`, by integration tests and by benchmarks:

    with Stack(workers=2, env={"CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"}) as s:
        urllib.request.urlopen(s.base_url + "/healthz")

Each process runs in its own process group (so stopping it also stops gunicorn's and Celery's
children) and leaves a pidfile and a log under the state directory (default var/stack/), which
is what lets a later `stop` from another shell find them. PostgreSQL and Redis are not started
here: they come from DATABASE_URL and CELERY_BROKER_URL in the environment.

With `hosts=True` (`stack.sh start --hosts`) every process is a separate host: its own network
namespace that reaches only PostgreSQL, Redis and the S3 server (scripts/hosts.py), and its own
DATA_DIR under <state dir>/hosts/<name>/. They share no disk, so files must be in an object
store: STORAGE_URL, or `--s3` to start a moto server (a dev dependency) as part of the stack.
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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scripts.hosts import HostNetwork

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as `python scripts/stack.py`
    sys.path.insert(0, str(REPO))
DEFAULT_STATE_DIR = REPO / "var" / "stack"
# A match worker's queues, highest lane first, as worker_queues() gives them without
# MATCH_QUEUE_PER_MODE (docker-compose.yml's worker says the same).
MATCH_WORKER_QUEUES = "matches.interactive,matches.workshop,celery,matches.retry,matches.background"

from scripts.lifecycle import Lifecycle  # noqa: E402 - needs REPO on sys.path


class StackError(RuntimeError):
    """The stack could not start, or a process died while it was starting."""


class Stack(Lifecycle):
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
        hosts: bool = False,
        wrappers: dict[str, list[str]] | None = None,
    ) -> None:
        self.workers = workers
        # a command line that runs a process's own (e.g. "w2": capsh dropping a capability)
        self.wrappers = wrappers or {}
        self.hosts = hosts
        self.network: HostNetwork | None = None
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
        if self.network is not None and self.network.base_port:
            return f"http://127.0.0.1:{self.network.base_port}"
        return f"http://{self.host}:{self.port}"

    @property
    def host_names(self) -> list[str]:
        return ["web", *self.worker_names(), *(["beat"] if self.beat else [])]

    def host_data_dir(self, name: str) -> Path:
        """The private DATA_DIR of one host (hosts mode)."""
        return self.state_dir / "hosts" / name

    def env_for(self, name: str) -> dict[str, str]:
        if not self.hosts:
            return self.env
        return {**self.env, "DATA_DIR": str(self.host_data_dir(name))}

    def worker_names(self) -> list[str]:
        return [f"w{i}" for i in range(1, self.workers + 1)]

    # --- commands -------------------------------------------------------------------------

    def _commands(self) -> dict[str, list[str]]:
        celery = [self.python, "-m", "celery", "-A", "workers.queueing.celery_app"]
        bind = f"{self.host}:{self.port}"
        if self.network is not None and self.network.available:
            bind = f"127.0.0.1:{self.network.web_port}"  # inside the web's namespace
        commands = {
            "web": [
                self.python, "-m", "gunicorn", "tournament.wsgi:application",
                "--bind", bind,
                "--workers", str(self.web_workers),
                "--graceful-timeout", "5",
                "--access-logfile", "-",
            ],
        }  # fmt: skip
        for name in self.worker_names():
            commands[name] = [
                *self.wrappers.get(name, []),
                *celery, "worker", "--concurrency=1", "-n", f"{name}@%h", "--loglevel=info",
                # every match lane, highest first (workers/queueing/queues.py: worker_queues)
                "-Q", MATCH_WORKER_QUEUES,
            ]  # fmt: skip
        if self.beat:
            # beat, and the worker of the periodic jobs, which no match ever delays (as in
            # docker-compose.yml)
            commands["beat"] = [
                *celery, "worker", "--beat", "--pool=solo", "-Q", "periodic",
                "-n", "beat@%h", "--loglevel=info",
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
        if self.hosts and not (
            self.env.get("STORAGE_URL") or self.env.get("AWS_STORAGE_BUCKET_NAME")
        ):
            raise StackError(
                "hosts share no disk: set STORAGE_URL=s3://bucket?endpoint_url=... "
                "(or start with --s3 for a moto server)"
            )
        self.log_dir.mkdir(parents=True, exist_ok=True)
        try:
            if self.hosts:
                self._start_network()
            self._manage(["migrate", "--noinput"], ["collectstatic", "--noinput"])
            for name, argv in self._commands().items():
                self._spawn(name, argv)
            self.wait_ready(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _start_network(self) -> None:
        from scripts.hosts import HostNetwork, service_endpoints

        self.network = HostNetwork(
            names=self.host_names, services=service_endpoints(self.env), state_dir=self.state_dir
        )
        services = set(self.network.services.values())
        while ("127.0.0.1", self.network.web_port) in services:
            self.network.web_port += 1
        self.network.start(python=self.python)
        for name in self.host_names:
            self.host_data_dir(name).mkdir(parents=True, exist_ok=True)
        note = (
            f"network namespaces {self.network.namespace('*')}"
            if self.network.available
            else f"separate processes without namespaces ({self.network.reason})"
        )
        with self._log("setup").open("a") as out:
            out.write(f"hosts: {', '.join(self.host_names)} as {note}\n")

    def _wrap(self, name: str, argv: list[str]) -> list[str]:
        return self.network.wrap(name, argv) if self.network is not None else argv

    def _manage(self, *commands: list[str]) -> None:
        """Run the ``manage.py`` commands side by side (they do not depend on each other:
        migrate writes the database, collectstatic the static folder) and wait for all."""
        log = self._log("setup")
        with log.open("ab") as out:
            running = [
                (args, subprocess.Popen(
                    self._wrap("web", [self.python, "manage.py", *args]),
                    cwd=REPO, env=self.env_for("web"), stdout=out, stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                ))
                for args in commands
            ]  # fmt: skip
            failed = [args for args, proc in running if proc.wait()]
        if failed:
            names = ", ".join(" ".join(args) for args in failed)
            raise StackError(f"manage.py {names} failed:\n{_tail(log)}")

    def _spawn(self, name: str, argv: list[str]) -> None:
        with self._log(name).open("ab") as out:
            proc = subprocess.Popen(
                self._wrap(name, argv), cwd=REPO, env=self.env_for(name), stdout=out,
                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
        self._children[proc.pid] = proc
        self._pidfile(name).write_text(f"{proc.pid}\n")

    def wait_ready(self, timeout: float = 90.0, names: list[str] | None = None) -> None:
        """Wait for /healthz to answer 200 and every worker to log that it is ready (only
        for ``names``, when given: "web" and worker names)."""
        deadline = time.monotonic() + timeout
        pending = set(names) if names is not None else {"web", *self.worker_names()}
        while pending:
            for name, pid in self.status().items():
                if pid is None:
                    raise StackError(f"{name} exited while starting:\n{_tail(self._log(name))}")
            if "web" in pending and _http_ok(self.base_url + "/healthz"):
                pending.discard("web")
            for name in pending & set(self.worker_names()):
                text = _read(self._log(name))
                if f"{name}@" in text and " ready." in text:  # celery logs "w1@host ready."
                    pending.discard(name)
            if not pending:
                return
            if time.monotonic() > deadline:
                logs = "\n".join(f"--- {n}\n{_tail(self._log(n))}" for n in sorted(pending))
                raise StackError(f"not ready after {timeout:.0f}s: {sorted(pending)}\n{logs}")
            time.sleep(0.2)

    def kill(self, name: str) -> None:
        """SIGKILL the whole process group of ``name`` at once (a Celery worker: its main
        process and its pool), as a crash of its host would end it: no warm shutdown, no
        message handed back to the broker, no clean-up of its own. Returns once the group is
        gone; its pidfile goes too, so `status` and `stop` forget it."""
        pid = self.status().get(name)
        if pid is None:
            raise StackError(f"{name} is not running")
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
        while self._group_alive(pid):
            time.sleep(0.05)
        self._children.pop(pid, None)
        self._pidfile(name).unlink(missing_ok=True)

    def add_worker(self, timeout: float = 90.0) -> str:
        """Start one more Celery worker, ``w<n+1>`` (a new name, so its log and its
        readiness are its own, e.g. to replace a killed one), and wait until it is ready.
        Returns its name."""
        if self.hosts:
            raise StackError("a stack of hosts adds no worker: its namespaces are made at start")
        self.workers += 1
        name = self.worker_names()[-1]
        self._spawn(name, self._commands()[name])
        self.wait_ready(timeout, names=[name])
        return name

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
        if self.network is not None:
            self.network.stop()
            self.network = None
        else:
            from scripts.hosts import remove_saved_network

            remove_saved_network(self.state_dir)

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


def _start_s3(state_dir: Path):  # noqa: ANN202 - scripts.s3server.S3Server
    """A moto server of the stack's own, with the bucket "arena"."""
    from scripts.s3server import S3Server

    (state_dir / "logs").mkdir(parents=True, exist_ok=True)
    server = S3Server(log_path=state_dir / "logs" / "s3.log").start()
    server.create_bucket("arena")
    return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["start", "stop", "status"])
    parser.add_argument("--workers", type=int, default=1, help="Celery worker processes")
    parser.add_argument("--port", type=int, default=8001, help="gunicorn port on 127.0.0.1")
    parser.add_argument("--no-beat", action="store_true", help="do not start celery beat")
    parser.add_argument("--state-dir", default=str(DEFAULT_STATE_DIR), help="pidfiles and logs")
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds to become ready")
    parser.add_argument(
        "--hosts", action="store_true",
        help="every process a separate host: own network namespace (as root) and DATA_DIR",
    )  # fmt: skip
    parser.add_argument(
        "--s3", action="store_true", help="start a moto S3 server for the files (STORAGE_URL)"
    )
    args = parser.parse_args(argv)
    env: dict[str, str] = {}
    s3 = None
    if args.action == "start" and args.s3:
        s3 = _start_s3(Path(args.state_dir))
        env["STORAGE_URL"] = s3.storage_url("arena")
    stack = Stack(
        workers=args.workers, port=args.port, beat=not args.no_beat, state_dir=args.state_dir,
        hosts=args.hosts, env=env,
    )  # fmt: skip
    if args.action == "start":
        try:
            stack.start(timeout=args.timeout)
        except StackError as exc:
            print(f"stack: {exc}", file=sys.stderr)
            if s3 is not None:
                s3.stop()
            return 1
        if s3 is not None:  # stopped with the stack from now on
            (stack.state_dir / "s3.pid").write_text(f"{s3.process.pid}\n")  # type: ignore[union-attr]
        print(f"stack: up at {stack.base_url}; logs in {stack.log_dir}")
        if stack.network is not None:
            how = "in network namespaces" if stack.network.available else stack.network.reason
            print(f"stack: hosts {', '.join(stack.host_names)} ({how})")
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
