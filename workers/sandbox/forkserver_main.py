"""The Python fork server: a warm interpreter that starts Python bots by forking itself.

A fresh ``python3`` costs a bot about 10 ms of CPU before its first line runs, and its exit
as much again; four of them would be most of a short match's fixed cost. This program
runs once per worker process, under the same interpreter and flags a Python bot gets
(``python3 -s -B``), with the bots' minimal environment. For each bot it forks a child that
takes exactly the steps a sandboxed ``exec`` takes (``LaunchPlan.preexec``: cgroup, limits,
namespaces, jail, uid, parent-death signal; a pid namespace and its init as ``unshare
--pid --fork --kill-child --mount-proc`` makes them) and then runs the bot's file as
``__main__`` in that child, as ``python3 -s -B bot.py`` would, instead of exec'ing a new
interpreter.

What the bot inherits is this program's memory: the standard library modules imported below
and the sandbox's own code, nothing of the worker (no settings, no credentials, no other
bot). The random module is reseeded in each child (``os.register_at_fork``).

Started as ``python3 -s -B forkserver_main.py PROJECT_ROOT CONTROL_FD``. Protocol on the
control socket (SOCK_SEQPACKET, one JSON message per packet):
  worker -> server  {"id": n, "plan": LaunchPlan.to_json(), "env": {...}} + 3 fds (SCM_RIGHTS:
                    the bot's stdin, stdout and stderr)
  server -> worker  {"id": n, "pid": pid} or {"id": n, "error": "why it could not start"}
                    {"exit": pid, "status": wait status, "cpu": seconds of CPU (rusage)}
The server exits when the worker's end of the socket closes (the worker died or let go),
and its bot children die with it (their parent-death signal).
"""

from __future__ import annotations

import array
import atexit
import contextlib
import gc
import json
import os
import random  # noqa: F401  (warm: bots import it; reseeded after each fork)
import runpy
import selectors
import signal
import socket
import sys
import threading
import traceback

MAX_PACKET = 1 << 20
CLONE_NEWNS, CLONE_NEWPID = 0x00020000, 0x20000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 16384, 1 << 18

# Modules a bot is likely to import, loaded once here instead of once per bot.
WARM = ("collections", "dataclasses", "functools", "heapq", "itertools", "math", "typing",
        "bisect", "copy", "enum", "statistics", "time", "re")  # fmt: skip


def _import_sandbox(project: str):  # noqa: ANN202 - the module, imported from the project
    sys.path.insert(0, project)
    try:
        # This file runs as a script outside the project: its packages import only once the
        # project's folder is on sys.path, just above.
        from workers.sandbox import isolation  # noqa: PLC0415
    finally:
        sys.path.remove(project)
    return isolation


def _receive(sock: socket.socket) -> tuple[dict, list[int]] | None:
    fds = array.array("i")
    msg, ancdata, _flags, _addr = sock.recvmsg(MAX_PACKET, socket.CMSG_LEN(3 * fds.itemsize))
    for level, kind, data in ancdata:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - (len(data) % fds.itemsize)])
    if not msg:
        for fd in fds:
            os.close(fd)
        return None
    return json.loads(msg), list(fds)


def _send(sock: socket.socket, message: dict) -> None:
    with contextlib.suppress(OSError):
        sock.send(json.dumps(message).encode())


def _relay_exit(child: int) -> None:
    """In the pid namespace's outer process: wait for the namespace's init (the bot) and end
    the way it ended, so the worker reads the bot's own exit status."""
    for fd in (0, 1, 2):
        with contextlib.suppress(OSError):
            os.close(fd)
    while True:
        try:
            _, status = os.waitpid(child, 0)
            break
        except InterruptedError:
            continue
        except ChildProcessError:
            os._exit(1)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
        os.kill(os.getpid(), sig)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def _enter_pid_namespace(isolation, plan, error_fd: int) -> None:  # noqa: ANN001
    """What ``unshare --pid --fork --kill-child --mount-proc`` and the uid drop do: after
    this the caller is the init of a new pid namespace, with /proc of its own, as the bot's
    uid, tied to the outer process by SIGKILL. The outer process stays behind to relay."""
    libc = isolation._libc
    isolation._check(libc.unshare(CLONE_NEWPID | (0 if plan.isolation.filesystem else CLONE_NEWNS)),
                     "unshare")  # fmt: skip
    child = os.fork()
    if child:
        os.close(error_fd)
        _relay_exit(child)
    # (as in unshare --kill-child; the parent is outside the namespace, so getppid() says 0)
    isolation._check(libc.prctl(isolation.PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "pdeathsig")
    if not plan.isolation.filesystem:
        isolation._mount(None, "/", None, MS_REC | MS_PRIVATE)
    isolation._mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    if plan.isolation.uid:
        os.setgroups([])
        os.setgid(plan.uid)
        os.setuid(plan.uid)
    # a change of uid clears the parent-death signal: set it again, last
    isolation._check(libc.prctl(isolation.PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "pdeathsig")


def _run_bot(entrypoint: str, env: dict[str, str]) -> None:
    """Run the bot's file as ``__main__`` the way ``python3 -s -B file`` would, then exit."""
    os.environ.clear()
    os.environ.update(env)
    sys.argv = [entrypoint]
    sys.path[0] = os.path.dirname(entrypoint)
    # as the interpreter does at its start: PYTHONPATH's folders right after the script's
    # (a language's packages, workers/sandbox/bot_packages.py)
    extra = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    sys.path[1:1] = [p for p in extra if p not in sys.path]
    code = 0
    try:
        runpy.run_path(entrypoint, run_name="__main__")
    except SystemExit as exc:
        if exc.code is None:
            code = 0
        elif isinstance(exc.code, int):
            code = exc.code & 0xFF
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    except BaseException:  # what the interpreter prints for an uncaught exception
        traceback.print_exc()
        code = 1
    with contextlib.suppress(BaseException):
        threading._shutdown()  # type: ignore[attr-defined]  # wait for non-daemon threads
    with contextlib.suppress(BaseException):
        atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BaseException):
            stream.flush()
    os._exit(code)


def _start(isolation, request: dict, fds: list[int]) -> tuple[int, int]:  # noqa: ANN001
    """Fork one bot; returns its pid and the read end of its error pipe, which ends empty
    once the bot runs, or with the reason the sandbox could not start it."""
    plan = isolation.LaunchPlan.from_json(request["plan"])
    entrypoint = plan.command[-1]
    read_fd, write_fd = os.pipe()
    run = plan.preexec(write_fd)
    pid = os.fork()
    if pid == 0:  # the bot
        reported = False
        try:
            os.close(read_fd)
            os.setsid()
            for target, fd in enumerate(fds):
                os.dup2(fd, target)
            os.closerange(3, write_fd)  # the control socket, the received fds, the wake pipe
            os.closerange(write_fd + 1, 1 << 16)
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            reported = True  # the sandbox's own steps write their errors themselves
            run()  # cgroup, limits, namespaces, jail, uid unless pid, parent-death signal
            reported = False
            if plan.isolation.pid:
                _enter_pid_namespace(isolation, plan, write_fd)
            for name in [m for m in sys.modules if m == "workers" or m.startswith("workers.")]:
                del sys.modules[name]  # a bot may have a package of that name
            os.close(write_fd)
        except BaseException as exc:
            if not reported:
                with contextlib.suppress(OSError):
                    os.write(write_fd, f"{type(exc).__name__}: {exc}".encode()[:2000])
            os._exit(127)
        _run_bot(entrypoint, request["env"])
    os.close(write_fd)
    for fd in fds:
        os.close(fd)
    return pid, read_fd


class _Starting:
    """A bot whose sandbox steps are under way: its pid, and the pipe its errors come on
    (closed without a word once the bot runs)."""

    def __init__(self, ident: object, pid: int) -> None:
        self.ident, self.pid, self.chunks = ident, pid, []


def _reap(sock: socket.socket) -> None:
    while True:
        try:
            pid, status, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if not pid:
            return
        _send(sock, {"exit": pid, "status": status, "cpu": usage.ru_utime + usage.ru_stime})


def main() -> None:
    project, control_fd = sys.argv[1], int(sys.argv[2])
    isolation = _import_sandbox(project)
    for name in WARM:
        __import__(name)
    gc.collect()
    gc.freeze()  # the children's copies of these objects stay shared pages
    sock = socket.socket(fileno=control_fd)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    selector = selectors.DefaultSelector()
    selector.register(sock, selectors.EVENT_READ)
    selector.register(wake_read, selectors.EVENT_READ)
    starting: dict[int, _Starting] = {}  # by error pipe: several bots set up at once
    while True:
        for key, _ in selector.select():
            if key.fd == wake_read:
                with contextlib.suppress(BlockingIOError):
                    os.read(wake_read, 4096)
            elif key.fd in starting:
                start = starting[key.fd]
                chunk = os.read(key.fd, 4096)
                if chunk:
                    start.chunks.append(chunk)
                    continue
                selector.unregister(key.fd)
                os.close(key.fd)
                del starting[key.fd]
                if start.chunks:
                    reason = b"".join(start.chunks).decode(errors="replace")
                    error = f"the sandbox could not start the bot: {reason}"
                    _send(sock, {"id": start.ident, "error": error})
                else:
                    _send(sock, {"id": start.ident, "pid": start.pid})
            else:
                received = _receive(sock)
                if received is None:  # the worker is gone: so are we, and our bots after us
                    os._exit(0)
                request, fds = received
                try:
                    pid, errors = _start(isolation, request, fds)
                except Exception as exc:  # noqa: BLE001 - reported to the worker, never fatal
                    _send(sock, {"id": request.get("id"), "error": str(exc)})
                else:
                    starting[errors] = _Starting(request.get("id"), pid)
                    selector.register(errors, selectors.EVENT_READ)
        _reap(sock)


if __name__ == "__main__":
    main()
