"""Starting Python bots from a warm interpreter: the worker's side of the fork server.

``spawn(plan, env)`` starts a Python bot through the fork server of its interpreter
(``workers/sandbox/forkserver_main.py``, one per worker process and interpreter, started on first
use) and returns a ``ForkedProcess``, which the sandbox drives like the ``Popen`` of an
exec'd bot: its pid (the leader of the bot's session and process group), its three pipes,
and its exit status with the CPU time it used, which the server reports when it reaps it.

A bot started this way goes through the same sandbox steps as an exec'd one and then runs its
file as ``__main__``; it skips the interpreter's start (about 10 ms of CPU) and its own
imports of what the server has already imported. ``eligible(plan)`` says which plans qualify
(Python 3 bots run as ``python3 -s -B FILE``); ``ISLE_PYTHON_FORKSERVER=0`` turns it off.

No Django here.
"""

from __future__ import annotations

import array
import contextlib
import io
import json
import logging
import os
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from .bundles import BundleError, resolve_interpreter
from .engine_path import BOT_PYTHONPATH
from .isolation import LaunchPlan

log = logging.getLogger(__name__)

PROJECT = Path(__file__).resolve().parents[2]
SERVER = Path(__file__).with_name("forkserver_main.py")
PYTHON_FLAGS = ("-s", "-B")  # as in data/languages.json's python3 command
SERVER_ENV = {  # what every Python bot's environment holds besides HOME and TMPDIR
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "PYTHONPATH": BOT_PYTHONPATH,  # the engine, importable as ``engine`` (engine/botpath)
    "LANG": "C.UTF-8",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONHASHSEED": "0",
    "PYTHONUNBUFFERED": "1",
}
START_TIMEOUT = 30.0  # seconds to wait for the server's answer to one start


def enabled() -> bool:
    return os.environ.get("ISLE_PYTHON_FORKSERVER", "1") != "0"


def eligible(plan: LaunchPlan, env: dict[str, str]) -> bool:
    """Whether a plan runs a Python bot the fork server can start: ``python3 -s -B FILE``
    with the standard bot environment, not a build."""
    command = plan.command
    return (
        enabled()
        and plan.output_dir is None
        and len(command) == 4
        and tuple(command[1:3]) == PYTHON_FLAGS
        and Path(command[0]).name.startswith("python3")
        and all(env.get(k) == v for k, v in SERVER_ENV.items() if k != "PATH")
    )


class ForkServerGone(Exception):
    """The fork server died or did not answer: the bot was not started, start it by exec."""


class ForkServer:
    """One running fork server for one interpreter, owned by one worker process."""

    def __init__(self, interpreter: str) -> None:
        self.interpreter = interpreter
        self.owner = os.getpid()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = dict(SERVER_ENV)
        try:
            self.process = subprocess.Popen(
                [interpreter, *PYTHON_FLAGS, str(SERVER), str(PROJECT), str(theirs.fileno())],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),),
                env=env,
                cwd="/",
                start_new_session=True,
            )
        finally:
            theirs.close()
        self.sock = ours
        self._lock = threading.Lock()  # one start request at a time on the socket
        self._cond = threading.Condition()
        self._replies: dict[int, dict[str, Any]] = {}
        self._exits: dict[int, tuple[int, float]] = {}
        self._next_id = 0
        self.alive = True
        self._reader = threading.Thread(target=self._read, name="forkserver", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                packet = self.sock.recv(1 << 20)
            except OSError:
                packet = b""
            if not packet:
                break
            message = json.loads(packet)
            with self._cond:
                if "exit" in message:
                    self._exits[message["exit"]] = (message["status"], message["cpu"])
                else:
                    self._replies[message["id"]] = message
                self._cond.notify_all()
        with self._cond:  # the server is gone, and every bot it started died with it
            self.alive = False
            self._cond.notify_all()
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            self.process.wait(5)

    def start(self, plan: LaunchPlan, env: dict[str, str], fds: list[int]) -> int:
        with self._lock:
            self._next_id += 1
            ident = self._next_id
            request = json.dumps({"id": ident, "plan": plan.to_json(), "env": env}).encode()
            fd_bytes = array.array("i", fds).tobytes()
            try:
                self.sock.sendmsg([request], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fd_bytes)])
            except OSError as exc:
                raise ForkServerGone(f"the fork server is gone: {exc}") from None
        deadline = time.monotonic() + START_TIMEOUT
        with self._cond:
            while ident not in self._replies:
                remaining = deadline - time.monotonic()
                if not self.alive or remaining <= 0:
                    raise ForkServerGone("the fork server did not answer")
                self._cond.wait(remaining)
            reply = self._replies.pop(ident)
        if "error" in reply:  # a sandbox step failed: the bot's start failed, as by exec
            raise OSError(reply["error"])
        return int(reply["pid"])

    def exit_status(self, pid: int) -> tuple[int, float] | None:
        """The wait status and CPU seconds of an ended bot, or None while it runs. A bot of a
        server that died was killed with it (its parent-death signal)."""
        with self._cond:
            found = self._exits.pop(pid, None)
            if found is None and not self.alive:
                return (signal.SIGKILL, 0.0)  # a wait status: killed by SIGKILL
            return found

    def wait_exit(self, pid: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        with self._cond:
            while pid not in self._exits and self.alive:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                self._cond.wait(remaining)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            self.process.wait(5)


_servers: dict[str, ForkServer] = {}
_servers_lock = threading.Lock()


def server_for(interpreter: str) -> ForkServer:
    """This process's fork server for ``interpreter``, started (again) when needed; a forked
    worker process never uses its parent's."""
    with _servers_lock:
        server = _servers.get(interpreter)
        if server is None or server.owner != os.getpid() or not server.alive:
            server = ForkServer(interpreter)
            _servers[interpreter] = server
        return server


def prestart() -> None:
    """Start this process's fork server for the Python bots' interpreter now (a worker pool
    process calls it as it starts), so that the first match does not wait for it. Never
    raises: a server that cannot start leaves bots to be exec'd."""
    if not enabled():
        return

    try:
        server_for(resolve_interpreter("python3"))
    except (BundleError, OSError, subprocess.SubprocessError) as exc:
        log.warning("no Python fork server: %s", exc)


class ForkedProcess:
    """A bot started by a fork server, with the parts of ``Popen`` the sandbox uses."""

    def __init__(self, server: ForkServer, pid: int, stdin: int, stdout: int, stderr: int):
        self.server = server
        self.pid = pid
        self.returncode: int | None = None
        self.cpu_seconds: float | None = None
        self.stdin = io.FileIO(stdin, "w")
        self.stdout = io.FileIO(stdout, "r")
        self.stderr = io.FileIO(stderr, "r")

    def reap(self) -> tuple[int, float] | None:
        """``(wait status, CPU seconds)`` once the bot has ended (once only), else None."""
        found = self.server.exit_status(self.pid)
        if found is not None:
            status, cpu = found
            self.returncode = os.waitstatus_to_exitcode(status)
            self.cpu_seconds = cpu
        return found

    def poll(self) -> int | None:
        if self.returncode is None:
            self.reap()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            left = 3600.0 if deadline is None else deadline - time.monotonic()
            if left <= 0:
                raise subprocess.TimeoutExpired(str(self.pid), timeout or 0.0)
            self.server.wait_exit(self.pid, min(left, 1.0))
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def spawn(plan: LaunchPlan, env: dict[str, str]) -> ForkedProcess:
    """Start the bot of an eligible plan through its interpreter's fork server; raises OSError
    with the reason when the sandbox could not start it, ``ForkServerGone`` when the server
    itself failed (the caller then starts the bot by exec: never the bot's fault)."""
    server = server_for(plan.command[0])
    stdin_r, stdin_w = os.pipe()
    stdout_r, stdout_w = os.pipe()
    stderr_r, stderr_w = os.pipe()
    ours = (stdin_w, stdout_r, stderr_r)
    for fd in ours:
        os.set_inheritable(fd, False)
    try:
        pid = server.start(plan, env, [stdin_r, stdout_w, stderr_w])
    except BaseException:
        for fd in ours:
            os.close(fd)
        raise
    finally:
        for fd in (stdin_r, stdout_w, stderr_w):
            os.close(fd)
    return ForkedProcess(server, pid, *ours)
