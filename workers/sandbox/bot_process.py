"""The sandbox for untrusted bot programs: a fresh folder, limits, isolation, bounded pipes.

``BotSandbox`` owns everything one bot needs on this machine: a private
folder with its unpacked bundle, a uid lease, the launch plan (see
``workers.sandbox.isolation``) and the running ``BotProcess``. ``BotProcess`` speaks
lines: it writes one message and waits for one reply line with a deadline,
through non-blocking pipes and a selector, while draining stderr into a
bounded tail buffer so a bot that floods stderr or stdout can block neither
itself nor us. When the bot dies, ``exit_fault`` says why (crash, memory,
CPU time, ...); once the kernel killed one of its processes for its memory limit, its next
failure or answer is a memory fault. ``close`` kills every process of the bot, whatever
happened.
No Django here.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from competition.faults import BotFault, FaultKind
from competition.limits import Limits, over_cpu_message, slept

from . import forkserver, unpacked_cache
from .bot_packages import PackageSite, PackagesMissing, package_site
from .bundles import (
    BundleError,
    BundleInfo,
    Source,
    address_space_mb,
    bot_command,
    language_spec,
    needs_build,
    read_bundle,
    set_bot_permissions,
    unpack_bundle,
)
from .cpu_wait import parse_cpu_pressure, thread_run_delay, threads_run_delay
from .engine_path import BOT_PYTHONPATH, ENGINE_DIR, is_python
from .forkserver import ForkedProcess
from .isolation import (
    JAIL_WORKDIR,
    Isolation,
    LaunchPlan,
    UidLease,
    cgroup_base,
    cgroup_cpu_seconds,
    cgroup_remove,
    detect_isolation,
    kill_uid,
    lease_uid,
    network_isolation_available,
    parse_cpu_stat,
    spawn,
    sweep_uids,
    uid_processes,
)
from .memory_cgroup import BotMemory, held_too_much, memory_control, sweep_v1

__all__ = [
    "BotProcess",
    "BotSandbox",
    "Isolation",
    "SandboxError",
    "TailBuffer",
    "detect_isolation",
    "network_isolation_available",
    "sandbox_root",
    "sweep_leftovers",
]

log = logging.getLogger(__name__)

F_SETPIPE_SZ = 1031
CPU_POLL_SECONDS = 0.05  # while a bot thinks, its CPU time is read this often
CPU_COUNT = os.cpu_count() or 1  # (not the affinity mask: a bot may widen its own)
_TICKS = os.sysconf("SC_CLK_TCK")
RESIDENT_CHECK_SECONDS = 0.05  # a bot over its resident-memory limit is caught within this
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
_WRAPPER_SIGKILL = "unshare: sigprocmask unblock failed"
_MEMORY_MARKERS = (
    "MemoryError",
    "Cannot allocate memory",
    "out of memory",
    "bad_alloc",
    "OutOfMemoryError",
)


class Builder(Protocol):
    """Compiles a source bundle into a runnable one: ``(bytes, file name)``."""

    def __call__(
        self, source: Source, filename: str | None = None, *, isolation: Isolation | None = None
    ) -> tuple[bytes, str]: ...


class SandboxError(Exception):
    """The sandbox could not start a bot (bad bundle, missing interpreter, isolation failure)."""


def sandbox_root() -> Path:
    """Where bot folders are made: ``$ISLE_SANDBOX_ROOT`` or ``<tmp>/isle-arena-sandbox``."""
    path = Path(
        os.environ.get("ISLE_SANDBOX_ROOT") or Path(tempfile.gettempdir(), "isle-arena-sandbox")
    )
    path.mkdir(parents=True, exist_ok=True)
    # others may traverse (bot uids need their own folder) but never list.
    os.chmod(path, 0o711 if os.geteuid() == 0 else 0o700)
    return path


_swept: set[Path] = set()


def _sweep_once(root: Path) -> None:
    """``sweep_leftovers`` once per process and sandbox root."""
    if root in _swept:
        return
    _swept.add(root)
    sweep_leftovers(root)


def sweep_leftovers(root: Path | None = None) -> dict[str, int]:
    """Clean up after worker processes that died without cleaning up: kill every process of
    each bot uid whose lease is free but not marked clean (its holder died), and remove the
    folders of bots whose worker is gone (a folder's name holds the pid that made it).

    Run when a worker process starts (``workers.queueing.celery_app``) and before the first sandbox
    of
    a process. Returns how many uids and folders it cleaned."""
    root = root or sandbox_root()
    uids = sweep_uids(root) if os.geteuid() == 0 else 0
    folders = 0
    for entry in root.iterdir():
        parts = entry.name.rsplit("-", 2)
        if len(parts) != 3 or not parts[1].isdigit() or not entry.is_dir():
            continue
        if not Path(f"/proc/{parts[1]}").exists():
            shutil.rmtree(entry, ignore_errors=True)
            folders += 1
    base = cgroup_base() if os.geteuid() == 0 else None
    if base is not None:
        for entry in base.iterdir():
            if _orphaned(entry.name):
                cgroup_remove(str(entry), timeout=0.5)
    if os.geteuid() == 0:
        sweep_v1(memory_control(base), _orphaned)
    return {"uids": uids, "folders": folders}


def _orphaned(name: str) -> bool:
    """Whether a bot cgroup's name (its folder's: ``label-pid-hex``) names a dead worker."""
    parts = name.rsplit("-", 2)
    return len(parts) == 3 and parts[1].isdigit() and not Path(f"/proc/{parts[1]}").exists()


class TailBuffer:
    """The last lines of a stream, bounded in lines and bytes, for fault records."""

    def __init__(self, max_lines: int, max_bytes: int) -> None:
        self.max_lines = max_lines
        self.max_bytes = max_bytes
        self.total = 0
        self._buf = bytearray()

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        self._buf += chunk
        if len(self._buf) > 2 * self.max_bytes:
            del self._buf[: len(self._buf) - self.max_bytes]

    def lines(self) -> list[str]:
        window = bytes(self._buf[-self.max_bytes :])
        lines = window.decode("utf-8", "replace").splitlines()
        if self.total > len(window) and lines:
            lines[0] = "..." + lines[0]  # what came before was dropped
        return lines[-self.max_lines :]


@dataclass
class _Ask:
    """A question sent to a bot (``BotProcess.begin``) whose answer is still to be taken."""

    view: memoryview
    sent: int  # bytes of ``view`` written so far
    started: float  # monotonic clock at the write
    timeout: float  # the wall-clock ceiling, before the time the bot waits for a CPU is added
    cpu0: float  # the bot's CPU time at the write
    cpu_limit: float | None
    wait0: float = 0.0  # the bot's wait for a CPU at the write (``tree_wait_seconds``)


class BotProcess:
    """A running bot program: send a line, receive a line within a deadline."""

    def __init__(
        self,
        plan: LaunchPlan,
        env: dict[str, str],
        uid: int | None,
        resident_limit_mb: int | None = None,
        memory: BotMemory | None = None,
    ) -> None:
        self.plan = plan
        self.memory = memory  # the bot's memory cgroup, when the host has the memory layer
        self.limits = plan.limits
        self.uid = uid
        # Checked after replies when the address-space limit is looser than the memory limit
        # (Node: V8 reserves address space it never uses, so RLIMIT_AS alone is too big); at
        # most every RESIDENT_CHECK_SECONDS, since one check reads a few /proc files.
        self.resident_limit_mb = resident_limit_mb
        self._resident_checked = float("-inf")
        self.stderr = TailBuffer(self.limits.stderr_lines, self.limits.stderr_bytes)
        # Also handed every stderr chunk as it is read (``play --verbose`` shows it live).
        self.stderr_sink: Callable[[bytes], None] | None = None
        self._out = bytearray()
        self._scan = 0  # bytes of _out already searched for a newline
        self._killed = False
        self.swept = False  # kill() killed every process of the uid
        self.cpu_seconds: float | None = None  # known once the process is reaped
        self.last_cpu = 0.0  # CPU time of the bot's process tree in the last exchange
        self.last_wait = 0.0  # ... and the time it waited for a CPU (``tree_wait_seconds``)
        self._ask: _Ask | None = None  # the question awaiting its answer (begin/finish)
        self._reply_seen_at: float | None = None  # when an answer read early arrived
        self._early_fault: BotFault | None = None  # found while another bot was awaited
        self.proc: subprocess.Popen[bytes] | ForkedProcess
        try:
            forked = None
            if forkserver.eligible(plan, env):  # a Python bot: forked from a warm interpreter
                try:
                    forked = forkserver.spawn(plan, env)
                except forkserver.ForkServerGone as exc:
                    log.warning("starting the bot by exec: %s", exc)
            if forked is not None:
                self.proc = forked
            else:
                self.proc = spawn(
                    plan,
                    env,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    bufsize=0,
                )
        except OSError as exc:
            raise SandboxError(str(exc)) from None
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self._in, self._stdout, self._stderr = (
            self.proc.stdin.fileno(),
            self.proc.stdout.fileno(),
            self.proc.stderr.fileno(),
        )
        for fd in (self._in, self._stdout, self._stderr):
            os.set_blocking(fd, False)
        with contextlib.suppress(OSError):
            fcntl.fcntl(self._in, F_SETPIPE_SZ, 1 << 20)
            fcntl.fcntl(self._stderr, F_SETPIPE_SZ, 1 << 20)
        # The bot's cpu.stat stays open: a pread of it is about 1 us, an open and read 17 us,
        # and it is read at least twice a decision.
        self._cpu_stat = -1
        if plan.cgroup is not None:
            with contextlib.suppress(OSError):
                self._cpu_stat = os.open(f"{plan.cgroup}/cpu.stat", os.O_RDONLY | os.O_CLOEXEC)
        self._cpu_pressure = -1  # the same for its cpu.pressure (workers.sandbox.cpu_wait)
        if plan.cgroup is not None:
            with contextlib.suppress(OSError):
                self._cpu_pressure = os.open(
                    f"{plan.cgroup}/cpu.pressure", os.O_RDONLY | os.O_CLOEXEC)
        self._sel = selectors.DefaultSelector()
        self._sel.register(self._stdout, selectors.EVENT_READ)
        self._sel.register(self._stderr, selectors.EVENT_READ)
        self._stderr_open = True

    @property
    def pid(self) -> int:
        return self.proc.pid

    # --- reading and writing --------------------------------------------------------------
    def _read_stderr(self) -> None:
        try:
            chunk = os.read(self._stderr, 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if chunk:
            self.stderr.feed(chunk)
            if self.stderr_sink is not None:
                self.stderr_sink(chunk)
        elif self._stderr_open:
            self._stderr_open = False
            self._sel.unregister(self._stderr)

    def _read_stdout(self) -> bool:
        """Read what is there; False at end of file."""
        try:
            chunk = os.read(self._stdout, 1 << 20)
        except BlockingIOError:
            return True
        except OSError:
            return False
        if not chunk:
            return False
        self._out += chunk
        return True

    @property
    def stderr_fd(self) -> int | None:
        """The bot's stderr pipe while it is open (the runner polls every bot's at once)."""
        return self._stderr if self._stderr_open and not self._killed else None

    def drain_stderr(self) -> None:
        """Read whatever stderr holds now (before reporting a fault, or between decisions)."""
        if self._stderr_open:
            for _ in range(64):
                before = self.stderr.total
                self._read_stderr()
                if self.stderr.total == before:
                    break

    def exchange(
        self, payload: bytes, timeout: float, *, cpu_limit: float | None = None
    ) -> tuple[bytes, float]:
        """Send ``payload`` (one or more lines) and wait for one reply line.

        Returns the line (without its newline) and the seconds taken, measured
        on the monotonic clock around the write and the read. Raises BotFault.

        With ``cpu_limit`` the bot is charged for the CPU time its whole process tree uses
        (``tree_cpu_seconds``, read before, while it thinks, and after): more than
        ``cpu_limit`` is a timeout, and ``timeout`` is only the wall-clock ceiling, a
        backstop for bots that sleep or block. Time the bot spends stopped or waiting for a
        core on a busy machine is not charged. ``last_cpu`` holds the CPU time used.
        """
        self.begin(payload, timeout, cpu_limit=cpu_limit)
        return self.finish()

    @property
    def asking(self) -> bool:
        """A question was sent (``begin``) whose answer was not taken yet (``finish``)."""
        return self._ask is not None

    def begin(self, payload: bytes, timeout: float, *, cpu_limit: float | None = None) -> None:
        """The first half of ``exchange``: send ``payload`` and start the clocks. The bot
        thinks from now on; ``finish`` takes its answer, maybe after other bots' answers
        (the seats of a simultaneous step are asked together). Raises BotFault."""
        started = time.monotonic()
        if self._out or (self._read_stdout() and self._out):
            self._fail_stale()
        cpu0 = self.tree_cpu_seconds() if cpu_limit is not None else 0.0
        wait0 = self._waits_so_far() if cpu_limit is not None else 0.0
        self.last_cpu = self.last_wait = 0.0
        self._reply_seen_at = None
        self._early_fault = None
        view = memoryview(payload)
        try:
            sent = os.write(self._in, view)
        except BlockingIOError:
            sent = 0
        except (BrokenPipeError, OSError):
            raise self.exit_fault(time.monotonic() - started) from None
        if sent < len(view):
            self._sel.register(self._in, selectors.EVENT_WRITE)
        self._ask = _Ask(view, sent, started, timeout, cpu0, cpu_limit, wait0)

    def finish(self, alongside: Sequence[BotProcess] = ()) -> tuple[bytes, float]:
        """The second half of ``exchange``: wait for the answer to ``begin``'s question.

        ``alongside``: other bots asked at the same time whose answers are taken later.
        While this one is awaited their stdout is read too, so that the moment each answer
        arrives is known (their wall clock stops then, not when their turn comes), and when
        the wait is slow their CPU time and wall-clock ceiling are checked, so a bot that
        loops while another thinks is stopped then (its fault is raised at its turn)."""
        ask = self._ask
        if ask is None:
            raise RuntimeError("finish() without begin()")
        self._ask = None
        try:
            reply = self._finish(ask, alongside)
        except BotFault as fault:
            raise self.memory_fault(fault.seconds) or fault from None
        memory = self.memory_fault(reply[1])  # answered, but a process of it was killed
        if memory is not None:
            raise memory
        return reply

    def _finish(self, ask: _Ask, alongside: Sequence[BotProcess]) -> tuple[bytes, float]:
        if self._early_fault is not None:
            fault, self._early_fault = self._early_fault, None
            raise fault
        watched = [
            p for p in alongside
            if p is not self and p._ask is not None and p._reply_seen_at is None and not p._killed
        ]
        for other in watched:
            self._sel.register(other._stdout, selectors.EVENT_READ, other)
        try:
            return self._await_reply(ask, watched)
        finally:
            for other in watched:
                with contextlib.suppress(KeyError, ValueError):
                    self._sel.unregister(other._stdout)

    def _await_reply(self, ask: _Ask, watched: list[BotProcess]) -> tuple[bytes, float]:
        while True:
            reply = self._take_reply(ask)
            if reply is not None:
                return reply
            if len(self._out) > self.limits.reply_bytes:
                self._too_long(time.monotonic() - ask.started)
            events = self._sel.select(self._time_to_wait(ask))
            if not events:
                watched = [p for p in watched if not p._checked_while_waiting(self._sel)]
            for key, _ in events:
                watched = self._on_event(ask, key, watched)

    def _take_reply(self, ask: _Ask) -> tuple[bytes, float] | None:
        """The answer and its time once the whole question is written and a full line is in;
        the bytes searched so far are remembered, so a long answer is not searched again."""
        if ask.sent < len(ask.view):
            return None
        nl = self._out.find(b"\n", self._scan)
        if nl < 0:
            self._scan = len(self._out)
            return None
        line = bytes(self._out[:nl])
        del self._out[: nl + 1]
        self._scan = 0
        return line, self._judge_reply(ask, line)

    def _judge_reply(self, ask: _Ask, line: bytes) -> float:
        """The seconds an answer took, once it is known to be within every limit. The wall
        clock stops when the answer arrived, which for a bot asked alongside another may be
        before its turn to be read (``_read_early``)."""
        seen = self._reply_seen_at
        elapsed = (time.monotonic() if seen is None else seen) - ask.started
        self._reply_seen_at = None
        cpu_limit = ask.cpu_limit
        if cpu_limit is not None:
            self.last_cpu = max(0.0, self.tree_cpu_seconds() - ask.cpu0)
            self._read_wait(ask, elapsed)
        if len(line) > self.limits.reply_bytes:
            self._too_long(elapsed)
        if cpu_limit is not None and self.last_cpu > cpu_limit:
            raise self._over_cpu(cpu_limit, elapsed)
        if elapsed - self.last_wait > ask.timeout:  # seen after the ceiling (and the wait): late
            raise self._over_wall(ask.timeout, elapsed, cpu_limit is not None)
        if (
            self.resident_limit_mb is not None
            and time.monotonic() - self._resident_checked >= RESIDENT_CHECK_SECONDS
        ):
            self._check_resident(elapsed)
        return elapsed

    def _time_to_wait(self, ask: _Ask) -> float:
        """How long the next wait for the bot's pipes may last; raises the timeout when the
        bot is past its wall-clock ceiling or its CPU time. A bot charged for CPU time is
        looked at every ``CPU_POLL_SECONDS``."""
        started, cpu_limit = ask.started, ask.cpu_limit
        remaining = started + ask.timeout - time.monotonic()
        over_cpu = False
        # A bot's processes use at most CPU_COUNT seconds of CPU per second: before that
        # can pass the limit, its CPU time is not read (the read costs a cgroup flush).
        if cpu_limit is not None and (time.monotonic() - started) * CPU_COUNT >= cpu_limit:
            self.last_cpu = max(0.0, self.tree_cpu_seconds() - ask.cpu0)
            over_cpu = self.last_cpu > cpu_limit
        if remaining <= 0 and not over_cpu and cpu_limit is not None:
            # past the ceiling: the time the bot waited for a CPU is added to it first
            remaining += self._read_wait(ask, time.monotonic() - started)
        if remaining <= 0 or over_cpu:
            self._stop_writing(ask)
            elapsed = time.monotonic() - started
            if over_cpu:
                self._read_wait(ask, elapsed)  # for the evidence
                raise self._over_cpu(cpu_limit, elapsed)  # type: ignore[arg-type]
            raise self._over_wall(ask.timeout, elapsed, cpu_limit is not None)
        if cpu_limit is not None:
            remaining = min(remaining, CPU_POLL_SECONDS)
        return remaining

    def _on_event(
        self, ask: _Ask, key: selectors.SelectorKey, watched: list[BotProcess]
    ) -> list[BotProcess]:
        """Serve one ready pipe; returns the bots asked alongside that are still watched."""
        if key.data is not None:  # a bot asked alongside: its answer, read early
            if not key.data._read_early():
                self._sel.unregister(key.fd)
                return [p for p in watched if p is not key.data]
        elif key.fd == self._stdout:
            if not self._read_stdout():
                self._stop_writing(ask)
                raise self.exit_fault(time.monotonic() - ask.started)
        elif key.fd == self._stderr:
            self._read_stderr()
        else:
            self._write_more(ask)
        return watched

    def _write_more(self, ask: _Ask) -> None:
        """Write the next piece of a question too long for the pipe at once."""
        try:
            ask.sent += os.write(self._in, ask.view[ask.sent : ask.sent + (1 << 20)])
        except BlockingIOError:
            return
        except OSError:
            self._sel.unregister(self._in)
            raise self.exit_fault(time.monotonic() - ask.started) from None
        if ask.sent >= len(ask.view):
            self._sel.unregister(self._in)

    def _stop_writing(self, ask: _Ask) -> None:
        if ask.sent < len(ask.view):
            self._sel.unregister(self._in)

    def _read_early(self) -> bool:
        """Read the answer of a bot asked alongside another (see ``finish``) and note when
        it arrived. False when there is nothing more to watch for: the pipe is closed, the
        answer is complete, or the bot wrote more than an answer may hold (its own
        ``finish`` reports those)."""
        if not self._read_stdout():
            return False
        if self._reply_seen_at is None and self._out.find(b"\n", self._scan) >= 0:
            self._reply_seen_at = time.monotonic()
            return False
        return len(self._out) <= self.limits.reply_bytes

    def _checked_while_waiting(self, selector: selectors.BaseSelector) -> bool:
        """While another bot is slow to answer: whether this one, asked alongside, is over
        its CPU time or its wall-clock ceiling. If it is, it is stopped now (taken out of
        ``selector`` first) and its fault waits for its turn, with the message the same
        fault would have then."""
        ask = self._ask
        if ask is None or self._killed:
            return True
        elapsed = time.monotonic() - ask.started
        if ask.cpu_limit is not None:
            self.last_cpu = max(0.0, self.tree_cpu_seconds() - ask.cpu0)
            if self.last_cpu > ask.cpu_limit:
                self._read_wait(ask, elapsed)  # for the evidence
                self._early_fault = self._over_cpu(ask.cpu_limit, elapsed)
        if self._early_fault is None and self._reply_seen_at is None and elapsed > ask.timeout:
            charged = ask.cpu_limit is not None
            if not charged or elapsed - self._read_wait(ask, elapsed) > ask.timeout:
                self._early_fault = self._over_wall(ask.timeout, elapsed, charged)
        if self._early_fault is None:
            return False
        with contextlib.suppress(KeyError, ValueError):
            selector.unregister(self._stdout)
        self.kill()
        return True

    def _evidence(self, elapsed: float) -> dict[str, float | list[float]]:
        """What a timeout is judged on, kept with the fault: CPU, wall clock, machine load."""
        try:
            load = [round(x, 2) for x in os.getloadavg()]
        except OSError:
            load = []
        return {
            "cpu": round(self.last_cpu, 6),
            "wall": round(elapsed, 6),
            "wait": round(self.last_wait, 6),
            "load": load,
        }

    def _over_cpu(self, cpu_limit: float, elapsed: float) -> BotFault:
        message = over_cpu_message(self.last_cpu, cpu_limit)
        return BotFault(FaultKind.TIMEOUT, message, elapsed, self._evidence(elapsed))

    def _over_wall(self, timeout: float, elapsed: float, charged_cpu: bool) -> BotFault:
        if not charged_cpu:
            message = f"no reply within {timeout:.3f} s"
        else:
            cpu, wait = self.last_cpu, self.last_wait
            idle = ": it slept or blocked" if slept(cpu, wait, elapsed) else ""
            message = (
                f"no reply within the wall-clock ceiling of {timeout:.3f} s plus the"
                f" {wait:.3f} s it waited for a CPU; it used {cpu:.3f} s of CPU time in"
                f" {elapsed:.3f} s of wall-clock time{idle}"
            )
        return BotFault(FaultKind.TIMEOUT, message, elapsed, self._evidence(elapsed))

    def _read_wait(self, ask: _Ask, elapsed: float) -> float:
        """``last_wait``: the time the bot waited for a CPU since the question was sent,
        at most the wall-clock time since then (the /proc source sums threads)."""
        self.last_wait = min(max(0.0, self._waits_so_far() - ask.wait0), elapsed)
        return self.last_wait

    def _waits_so_far(self) -> float:
        """The bot's wait for a CPU so far (``tree_wait_seconds``) and the runner's own: the
        calling thread, which asks and reads the bot in a loop, may itself be kept from a CPU
        by a busy host, and then sees a reply late that the bot sent in time. Neither wait is
        the bot's doing, so neither is charged to its wall-clock ceiling."""
        return self.tree_wait_seconds() + thread_run_delay()

    def tree_wait_seconds(self) -> float:
        """The time the bot's processes have been runnable but not running, so far: the
        ``some`` total of its cgroup's cpu.pressure where it has one, else summed from /proc
        (``workers.sandbox.cpu_wait`` says how each counts). Only differences of it mean
        anything."""
        if self._cpu_pressure >= 0:
            try:
                return parse_cpu_pressure(os.pread(self._cpu_pressure, 4096, 0))
            except (OSError, ValueError):
                pass
        return threads_run_delay(self._tree())

    def tree_cpu_seconds(self) -> float:
        """CPU time (user + system) used so far by the bot's processes: from its cgroup where
        the machine has cgroup v2 (every process it ever started, to the microsecond), else
        from /proc (``proc_tree_cpu_seconds``)."""
        if self._cpu_stat >= 0:
            try:
                return parse_cpu_stat(os.pread(self._cpu_stat, 4096, 0))
            except (OSError, ValueError):
                pass
        if self.plan.cgroup is not None:
            try:
                return cgroup_cpu_seconds(self.plan.cgroup)
            except (OSError, ValueError):
                pass
        return self.proc_tree_cpu_seconds()

    def _tree(self) -> list[int]:
        """The pids of the bot's process tree: the launcher and its descendants, found through
        the children of each of their threads (/proc/<pid>/task/<tid>/children)."""
        found, todo, seen = [], [self.proc.pid], set()
        while todo:
            pid = todo.pop()
            if pid in seen:
                continue
            seen.add(pid)
            try:
                for task in os.listdir(f"/proc/{pid}/task"):
                    with open(f"/proc/{pid}/task/{task}/children") as f:
                        todo += [int(child) for child in f.read().split()]
            except (OSError, ValueError):
                continue
            found.append(pid)
        return found

    def proc_tree_cpu_seconds(self) -> float:
        """CPU time (user + system) used so far by the bot's process tree, each process with
        the time of the children it reaped (/proc/<pid>/stat). In a pid namespace an orphan is
        adopted by the namespace's init, so nothing escapes the tree. Per clock tick (10 ms)."""
        ticks = 0
        for pid in self._tree():
            try:
                with open(f"/proc/{pid}/stat") as f:
                    stat = f.read()
                fields = stat[stat.rfind(")") + 2 :].split()
                ticks += sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
            except (OSError, ValueError, IndexError):
                continue
        return ticks / _TICKS

    def resident_mb(self) -> float:
        """Resident memory of the bot's process tree (the launcher and its descendants)."""
        total, page = 0, os.sysconf("SC_PAGE_SIZE")
        for pid in self._tree():
            try:
                with open(f"/proc/{pid}/statm") as f:
                    total += int(f.read().split()[1]) * page
            except (OSError, ValueError, IndexError):
                continue
        return total / (1024 * 1024)

    def memory_fault(self, elapsed: float) -> BotFault | None:
        """The memory fault, when the kernel killed a process of the bot for its memory limit
        (which the bot may see as a child gone, a broken pipe, its own death or nothing)."""
        if self.memory is None or self.memory.oom_kills() == 0:
            return None
        message = held_too_much(self.memory.limit_mb)
        return BotFault(FaultKind.MEMORY, message, elapsed, self.memory.evidence())

    def _check_resident(self, elapsed: float) -> None:
        assert self.resident_limit_mb is not None
        used = self.resident_mb()
        self._resident_checked = time.monotonic()
        if used > self.resident_limit_mb:
            limit = self.resident_limit_mb
            message = f"used {used:.0f} MB of resident memory; the limit is {limit} MB"
            raise BotFault(FaultKind.MEMORY, message, elapsed)

    def _too_long(self, elapsed: float) -> None:
        raise BotFault(
            FaultKind.BAD_OUTPUT, f"a reply longer than {self.limits.reply_bytes} bytes", elapsed
        )

    def _fail_stale(self) -> None:
        preview = bytes(self._out[:80]).decode("utf-8", "replace")
        raise BotFault(FaultKind.BAD_OUTPUT, f"wrote to stdout when not asked: {preview!r}")

    def send(self, payload: bytes) -> bool:
        """Best-effort write of a final message (``end``); False if the bot cannot take it."""
        try:
            return os.write(self._in, payload) == len(payload)
        except OSError:
            return False

    # --- exit and cleanup --------------------------------------------------------------------
    def wait_exit(self, timeout: float) -> int | None:
        """The exit status after at most ``timeout`` seconds, or None if still running.

        Reaps with ``wait4`` to learn the CPU time the bot used (its own and that of the
        descendants it reaped): the one sure sign of a CPU-time kill, whatever signal ended it.
        """
        deadline = time.monotonic() + timeout
        while self.proc.returncode is None:
            if isinstance(self.proc, ForkedProcess):  # its server reaps it and tells us
                if self.proc.reap() is not None:
                    self.cpu_seconds = self.proc.cpu_seconds
                    break
            else:
                try:
                    pid, status, usage = os.wait4(self.proc.pid, os.WNOHANG)
                except ChildProcessError:
                    return self.proc.poll()
                if pid:
                    self.proc.returncode = os.waitstatus_to_exitcode(status)
                    self.cpu_seconds = usage.ru_utime + usage.ru_stime
                    break
            if time.monotonic() >= deadline:
                return None
            self.drain_stderr()
            if isinstance(self.proc, ForkedProcess):  # woken as soon as its server reports it
                self.proc.server.wait_exit(self.proc.pid, 0.002)
            else:
                time.sleep(0.002)
        return self.proc.returncode

    def exit_fault(self, elapsed: float = 0.0) -> BotFault:
        """Why the bot stopped talking: read its exit status and classify it."""
        rc = self.wait_exit(0.5)
        self.drain_stderr()
        memory = self.memory_fault(elapsed)
        if memory is not None:
            return memory
        lines = self.stderr.lines()
        if rc == 1 and lines and _WRAPPER_SIGKILL in lines[-1]:
            rc = -signal.SIGKILL  # util-linux unshare cannot re-raise SIGKILL; it says so
        tail = "\n".join(lines)
        if rc is None:
            return BotFault(FaultKind.EXITED, "closed its stdout before the match ended", elapsed)
        if self.cpu_seconds is not None and self.cpu_seconds >= self.limits.cpu_seconds - 0.05:
            message = f"used its {self.limits.cpu_seconds} s of CPU time"
            return BotFault(FaultKind.CPU_TIME, message, elapsed)
        if rc < 0:
            sig = -rc
            name = signal.Signals(sig).name if sig in signal.valid_signals() else str(sig)
            if sig == signal.SIGXCPU:
                kind = FaultKind.CPU_TIME
                message = f"used its {self.limits.cpu_seconds} s of CPU time ({name})"
            elif sig == signal.SIGXFSZ:
                kind = FaultKind.FILE_SIZE
                message = f"wrote a file past {self.limits.file_size_mb} MB ({name})"
            elif any(m in tail for m in _MEMORY_MARKERS):
                kind, message = FaultKind.MEMORY, f"ran out of memory ({name})"
            else:
                kind, message = FaultKind.CRASH, f"killed by {name}"
            return BotFault(kind, message, elapsed)
        if any(m in tail for m in _MEMORY_MARKERS):
            message = f"ran out of its {self.limits.memory_mb} MB of memory"
            return BotFault(FaultKind.MEMORY, message, elapsed)
        if rc == 0:
            return BotFault(FaultKind.EXITED, "exited (status 0) before the match ended", elapsed)
        return BotFault(FaultKind.CRASH, f"exited with status {rc}", elapsed)

    def kill(self, *, sweep: bool = True) -> None:
        """Kill every process of the bot and release the pipes. Idempotent.

        ``sweep=False`` leaves out the kill of every process of the bot's uid (a fork of the
        worker): for the caller that removes the bot's cgroup next, which kills the same
        processes and proves them gone (``BotSandbox.close``)."""
        if self._killed:
            return
        self._killed = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.wait_exit(5.0)
        self.drain_stderr()
        if self.uid is not None and sweep:
            self.swept = kill_uid(self.uid)
        self._sel.close()
        if self._cpu_stat >= 0:
            os.close(self._cpu_stat)
            self._cpu_stat = -1
        if self._cpu_pressure >= 0:
            os.close(self._cpu_pressure)
            self._cpu_pressure = -1
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]

    def processes(self) -> list[int]:
        """Live processes of this bot: by uid when it has one, else by session."""
        if self.uid is not None:
            return uid_processes(self.uid)
        return session_processes(self.proc.pid)


def session_processes(sid: int) -> list[int]:
    """Live (non-zombie) processes of a session (field 6 of /proc/<pid>/stat)."""
    out = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[3]) == sid:
            out.append(int(entry.name))
    return out


class BotSandbox:
    """One bot's folder, uid and process on this machine. Use as a context manager."""

    def __init__(
        self,
        bundle: Source,
        filename: str | None = None,
        *,
        limits: Limits | None = None,
        isolation: Isolation | None = None,
        label: str = "bot",
        builder: Builder | None = None,
    ) -> None:
        """``builder`` compiles a bundle of sources (C++) first: the match runner passes
        ``workers.sandbox.build.cached_build`` (a cache keyed by the sources' sha256). Without
        one a source bundle is refused, as the build itself runs here with none. Passed in, not
        imported, because the build runs its compiler in a sandbox of this module's own."""
        self.limits = limits or Limits()
        self.isolation = isolation if isolation is not None else detect_isolation()
        self.label = label
        self.process: BotProcess | None = None
        self._lease: UidLease | None = None
        self._cgroup_path: str | None = None
        self._memory: BotMemory | None = None
        root = sandbox_root()
        _sweep_once(root)
        self.dir = root / f"{label}-{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self.dir.mkdir(mode=0o700)
        try:
            self.workdir = self.dir / "bot"
            self.source: BundleInfo | None = None  # the sources, when the bot was built from them
            # In a jail the bot's folder is bound read-only: bots of one bundle share a copy
            # unpacked once on this host (workers.sandbox.unpacked_cache); else each gets its own.
            self.shared_workdir = self.isolation.filesystem and unpacked_cache.enabled()
            self.info: BundleInfo = self._unpack(bundle, filename)
            if needs_build(self.info) and builder is not None:
                self.source = self.info
                built, name = builder(bundle, filename, isolation=self.isolation)
                if not self.shared_workdir:
                    shutil.rmtree(self.workdir)
                self.info = self._unpack(built, name)
            try:  # the Python packages its language offers (python3-numpy), if any
                self.packages: PackageSite | None = package_site(
                    self.info.language, root / "packages")
            except PackagesMissing as exc:
                raise SandboxError(str(exc)) from None
            if self.isolation.uid:
                self._lease = lease_uid(root)
            self._prepare_dirs()
        except BaseException:
            self.close()
            raise

    @property
    def uid(self) -> int | None:
        return self._lease.uid if self._lease else None

    def _unpack(self, bundle: Source, filename: str | None) -> BundleInfo:
        """Unpack the bundle: into the host's shared copy (``shared_workdir``, then
        ``workdir`` points there) or into the bot's own folder."""
        if not self.shared_workdir:
            return unpack_bundle(bundle, filename, self.workdir)
        data, name = read_bundle(bundle, filename)
        try:
            self.workdir, info = unpacked_cache.unpacked(data, name, sandbox_root() / "unpacked")
        except ValueError as exc:  # a bad size limit: the worker's setting, said at the start
            raise SandboxError(str(exc)) from None
        return info

    def _prepare_dirs(self) -> None:
        tmp = self.dir / "tmp"
        tmp.mkdir(mode=0o700)
        if self.isolation.filesystem:
            (self.dir / "jail").mkdir(mode=0o700)
        if self.shared_workdir:
            return  # prepared once, when it was unpacked (workers.sandbox.unpacked_cache)
        set_bot_permissions(self.workdir, self.info)
        if self.uid is not None and not self.isolation.filesystem:
            # no jail: the bot works in the host folder, which only its own uid may enter.
            os.chmod(self.dir, 0o711)
            for path in (self.workdir, tmp, *self.workdir.rglob("*")):
                os.chown(path, self.uid, self.uid)
            os.chmod(self.workdir, 0o700)

    def output_dir(self) -> Path:
        """A folder the bot's uid may write (a build's output), ``/out`` inside the jail."""
        out = self.dir / "out"
        out.mkdir(mode=0o700, exist_ok=True)
        if self.uid is not None:
            os.chown(out, self.uid, self.uid)
        return out

    def plan(self) -> LaunchPlan:
        iso = self.isolation
        workdir = JAIL_WORKDIR if iso.filesystem else str(self.workdir)
        try:
            command = bot_command(self.info, workdir, self.limits.memory_mb)
        except BundleError as exc:
            raise SandboxError(exc.reason) from None
        readonly: tuple[str, ...] = ()
        if "interpreter" in language_spec(self.info.language):
            interpreter = Path(command[0]).resolve()
            if iso.filesystem and not str(interpreter).startswith(("/usr/", "/bin/", "/lib")):
                readonly = (str(interpreter.parent.parent),)  # the interpreter's prefix
        if self.packages is not None:
            readonly += self.packages.readonly_dirs(iso.filesystem)
        if is_python(self.info.language) and iso.filesystem:
            readonly += (ENGINE_DIR,)  # the engine, read-only (engine/botpath)
        return LaunchPlan(
            command=tuple(command),
            workdir=str(self.workdir),
            limits=self.limits,
            isolation=iso,
            uid=self.uid,
            jail_root=str(self.dir / "jail") if iso.filesystem else None,
            readonly_dirs=readonly,
            cgroup=self._cgroup(),
            joins=self._memory_cgroup().joins if iso.memory else (),
            address_space_mb=address_space_mb(self.info.language, self.limits.memory_mb),
        )

    def _cgroup(self) -> str | None:
        """The bot's own cgroup (made once, named like its folder), None without cgroup v2."""
        if self._cgroup_path is None:
            base = cgroup_base()
            if base is None:
                return None
            path = base / self.dir.name
            try:
                path.mkdir(exist_ok=True)
            except OSError:
                return None
            self._cgroup_path = str(path)
        return self._cgroup_path

    def _memory_cgroup(self) -> BotMemory:
        """The bot's memory limit, for the bot and everything it forks together (made once)."""
        if self._memory is None:
            control = memory_control(cgroup_base())
            v2_folder = self._cgroup()
            if isinstance(control, str):
                raise SandboxError(f"the sandbox could not limit the bot's memory: {control}")
            try:
                self._memory = BotMemory(control, self.dir.name, self.limits.memory_mb,
                                         self.limits.processes, v2_folder)  # fmt: skip
            except OSError as exc:
                raise SandboxError(f"the sandbox could not limit the bot's memory: {exc}") from None
        return self._memory

    def environment(self) -> dict[str, str]:
        """A minimal environment: nothing of ours leaks to the bot. A language's own variables
        (``"env"`` in data/languages.json) and its packages' ``PYTHONPATH`` come last."""
        home = JAIL_WORKDIR if self.isolation.filesystem else str(self.workdir)
        tmp = "/tmp" if self.isolation.filesystem else str(self.dir / "tmp")
        env = {
            "PATH": SYSTEM_PATH,
            "LANG": "C.UTF-8",
            "HOME": home,
            "TMPDIR": tmp,
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONHASHSEED": "0",
            "PYTHONUNBUFFERED": "1",
            **({"PYTHONPATH": BOT_PYTHONPATH} if is_python(self.info.language) else {}),
        }
        env.update(language_spec(self.info.language).get("env", {}))
        if self.packages is not None:  # the engine's entry first, then the packages'
            packages = self.packages.python_path(self.isolation.filesystem)
            env["PYTHONPATH"] = ":".join(p for p in (env.get("PYTHONPATH"), packages) if p)
        return env

    def start(self) -> BotProcess:
        if self.process is not None:
            raise SandboxError("the bot is already started")
        plan = self.plan()
        loose = (plan.address_space_mb or 0) > self.limits.memory_mb
        resident = self.limits.memory_mb if loose else None
        self.process = BotProcess(plan, self.environment(), self.uid, resident, self._memory)
        return self.process

    def close(self) -> None:
        """Kill the bot's processes, remove its folder, release its uid. Idempotent."""
        # Every process the bot ever started is in its cgroup (a process joins it before the
        # bot runs, children inherit it, and a bot's uid cannot move itself out), so once the
        # cgroup is killed and removed nothing of the bot is left: the uid need not be swept.
        swept = False
        if self.process is not None:
            self.process.kill(sweep=self._cgroup_path is None)
            swept = self.process.swept
        if self._cgroup_path is not None:
            swept = cgroup_remove(self._cgroup_path) or swept
            self._cgroup_path = None
        if self._memory is not None:  # v1 folders: after the v2 kill, nothing is left in them
            self._memory.remove()
            self._memory = None
        if not swept and self._lease is not None:
            swept = kill_uid(self._lease.uid)
        if self._lease is not None:
            self._lease.release(clean=swept)  # swept: the next holder need not sweep again
            self._lease = None
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> BotSandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
