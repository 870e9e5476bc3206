"""One memory limit per bot, whatever it forks: the bot's memory and process-count cgroups.

``RLIMIT_AS`` bounds each process of a bot, so a bot that forks could hold its limit many
times over. The kernel's memory controller bounds them together: every process the bot ever
starts is in one cgroup whose charge (resident pages, the page cache and tmpfs files they
wrote, kernel memory on their behalf) may not pass the limit, with no swap to spill into.
A bot that needs more has a process killed by the kernel's OOM killer, and the cgroup counts
that kill: the sandbox reads the count and reports the bot's failure as a memory fault.

Two ways, tried in this order:

* cgroup v2 where its hierarchy offers the ``memory`` and ``pids`` controllers: the limits
  are written into the bot's own v2 folder (the one that counts its CPU time,
  ``isolation.cgroup_base``): ``memory.max``, ``memory.swap.max`` 0, ``memory.oom.group`` 1
  (an OOM kill takes the whole bot at once) and ``pids.max``;
* the v1 ``memory`` and ``pids`` hierarchies of a hybrid host: a folder of its own for the
  bot in each, under ``isle-arena`` in the worker's own cgroup there (so the bots stay within
  whatever limit the worker itself runs under): ``memory.limit_in_bytes``,
  ``memory.memsw.limit_in_bytes`` equal to it (no swap) and ``pids.max``; the bot's first
  process joins them in ``LaunchPlan.preexec``.

Imports nothing of the sandbox (``isolation`` uses this module to detect the layer). No Django.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

V1_ROOT = "/sys/fs/cgroup"  # where a hybrid host mounts its v1 hierarchies, one per controller
GROUP = "isle-arena"  # the folder bot cgroups are made in
MIB = 1024 * 1024
# pids.max is the bot's process limit plus one: its launcher (``unshare`` for the pid
# namespace, or the fork server's relay) is in the cgroup too.
LAUNCHERS = 1


@dataclass(frozen=True)
class MemoryControl:
    """Where this host makes bot memory cgroups: ``version`` 2 (the limits go into the bot's
    v2 folder) or 1 (folders of their own under ``memory_base`` and ``pids_base``)."""

    version: int
    memory_base: Path
    pids_base: Path | None = None  # v1 only; None where the v1 pids controller is missing


def _read(path: Path | str) -> str:
    with open(path) as f:
        return f.read()


def _write(path: Path | str, value: str) -> None:
    with open(path, "w") as f:
        f.write(value)


def _writable(base: Path) -> bool:
    """Whether cgroups can be made in ``base`` (made if missing): a probe folder, removed."""
    probe = base / f"probe-{os.getpid()}"
    try:
        base.mkdir(exist_ok=True)
        probe.mkdir()
        probe.rmdir()
    except OSError:
        return False
    return True


def _enable_v2(v2_base: Path) -> str | None:
    """Turn on ``memory`` and ``pids`` for the bot folders in ``v2_base``; None when done,
    else why not."""
    root = v2_base.parent
    try:
        offered = _read(root / "cgroup.controllers").split()
    except OSError as exc:
        return f"cgroup v2 at {root} is unreadable ({exc.strerror})"
    lacking = [c for c in ("memory", "pids") if c not in offered]
    if lacking:
        return f"cgroup v2 at {root} has no {' or '.join(lacking)} controller"
    for folder in (root, v2_base):
        try:
            if {"memory", "pids"} - set(_read(folder / "cgroup.subtree_control").split()):
                _write(folder / "cgroup.subtree_control", "+memory +pids")
        except OSError as exc:
            return f"cannot enable the memory controller in {folder} ({exc.strerror})"
    return None


def _own_v1_cgroups(proc_cgroup: str) -> dict[str, str]:
    """The worker's own cgroup in each v1 hierarchy (``/proc/self/cgroup``), by controller."""
    out: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in _read(proc_cgroup).splitlines():
            parts = line.split(":", 2)
            if len(parts) == 3 and parts[1]:
                for controller in parts[1].split(","):
                    out[controller] = parts[2]
    return out


def find_memory_control(
    v2_base: Path | None, v1_root: str = V1_ROOT, proc_cgroup: str = "/proc/self/cgroup"
) -> MemoryControl | str:
    """How this host limits a bot's memory, or one line on why it cannot (then the
    ``memory`` isolation layer is missing). ``v2_base``: the v2 folder bot cgroups are made
    in (``isolation.cgroup_base``), None without one."""
    reasons = []
    if v2_base is not None:
        why = _enable_v2(v2_base)
        if why is None:
            return MemoryControl(version=2, memory_base=v2_base)
        reasons.append(why)
    own = _own_v1_cgroups(proc_cgroup)
    memory_root = Path(v1_root, "memory")
    if "memory" not in own or not (memory_root / "memory.limit_in_bytes").exists():
        reasons.append(f"no cgroup v1 memory controller at {memory_root}")
        return "; ".join(reasons)
    memory_base = Path(str(memory_root) + own["memory"].rstrip("/"), GROUP)
    if not _writable(memory_base):
        reasons.append(f"cannot make cgroups in {memory_base} (not root?)")
        return "; ".join(reasons)
    pids_base = None
    if "pids" in own:
        candidate = Path(str(Path(v1_root, "pids")) + own["pids"].rstrip("/"), GROUP)
        pids_base = candidate if _writable(candidate) else None
    return MemoryControl(version=1, memory_base=memory_base, pids_base=pids_base)


@cache
def memory_control(v2_base: Path | None) -> MemoryControl | str:
    """``find_memory_control``, once per process."""
    return find_memory_control(v2_base)


def held_too_much(limit_mb: int) -> str:
    """The memory fault's message (its kind, ``memory``, is said before it)."""
    return f"the bot and its children held more than {limit_mb} MiB"


class BotMemory:
    """One bot's memory (and process-count) cgroups: made with its limits before the bot
    starts, read when it fails or answers, removed with it."""

    def __init__(
        self, control: MemoryControl, name: str, limit_mb: int, processes: int,
        v2_folder: str | None = None,
    ) -> None:  # fmt: skip
        """``v2_folder``: the bot's v2 cgroup (required for a v2 ``control``)."""
        self.control = control
        self.limit_mb = limit_mb
        self.limit_bytes = limit_mb * MIB
        self.made: list[str] = []  # v1 folders, removed by ``remove``
        self._events = -1
        try:
            if control.version == 2:
                if v2_folder is None:
                    raise OSError("a v2 memory limit needs the bot's v2 cgroup")
                self.folder = v2_folder
                self._limit_v2(processes)
                events = f"{v2_folder}/memory.events"
                self._peak = f"{v2_folder}/memory.peak"
            else:
                self.folder = self._make(control.memory_base / name)
                self._limit_v1(processes, name)
                events = f"{self.folder}/memory.oom_control"
                self._peak = f"{self.folder}/memory.max_usage_in_bytes"
            # kept open: read after every answer (a pread is about a microsecond)
            self._events = os.open(events, os.O_RDONLY | os.O_CLOEXEC)
        except BaseException:
            self.remove()
            raise

    @property
    def joins(self) -> tuple[str, ...]:
        """The folders the bot's first process joins besides its v2 one (v1 hierarchies)."""
        return tuple(self.made)

    def _make(self, path: Path) -> str:
        path.mkdir(exist_ok=True)
        self.made.append(str(path))
        return str(path)

    def _limit_v2(self, processes: int) -> None:
        folder = self.folder
        _write(f"{folder}/memory.max", str(self.limit_bytes))
        if os.path.exists(f"{folder}/memory.swap.max"):  # absent: the kernel has no swap
            _write(f"{folder}/memory.swap.max", "0")
        with contextlib.suppress(FileNotFoundError):  # before Linux 4.19: one process at a time
            _write(f"{folder}/memory.oom.group", "1")
        _write(f"{folder}/pids.max", str(processes + LAUNCHERS))

    def _limit_v1(self, processes: int, name: str) -> None:
        folder = self.folder
        _write(f"{folder}/memory.limit_in_bytes", str(self.limit_bytes))  # first: memsw >= it
        if os.path.exists(f"{folder}/memory.memsw.limit_in_bytes"):
            _write(f"{folder}/memory.memsw.limit_in_bytes", str(self.limit_bytes))
        else:  # swap is not accounted (swapaccount=0): ask the kernel not to swap the bot
            with contextlib.suppress(OSError):
                _write(f"{folder}/memory.swappiness", "0")
        if self.control.pids_base is not None:
            pids = self._make(self.control.pids_base / name)
            _write(f"{pids}/pids.max", str(processes + LAUNCHERS))

    def oom_kills(self) -> int:
        """How many of the bot's processes the kernel killed for its memory limit."""
        if self._events < 0:
            return 0
        try:
            return parse_oom_kills(os.pread(self._events, 4096, 0))
        except (OSError, ValueError):
            return 0

    def peak_bytes(self) -> int | None:
        """The most the bot's cgroup held at once (None where the kernel does not say)."""
        try:
            return int(_read(self._peak).split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def evidence(self) -> dict[str, int | None]:
        """What a memory fault is judged on, kept with the fault (its owner's eyes only)."""
        return {
            "peak_bytes": self.peak_bytes(),
            "limit_bytes": self.limit_bytes,
            "oom_kills": self.oom_kills(),
        }

    def remove(self, timeout: float = 2.0) -> bool:
        """Kill what is left in the bot's v1 folders and remove them; True once they are
        gone. (A v2 folder is the CPU cgroup's, removed by ``isolation.cgroup_remove``.)"""
        if self._events >= 0:
            os.close(self._events)
            self._events = -1
        removed = True
        for folder in reversed(self.made):
            removed = remove_v1(folder, timeout) and removed
        self.made = []
        return removed


def parse_oom_kills(text: bytes) -> int:
    """The ``oom_kill`` count of a v2 ``memory.events`` or a v1 ``memory.oom_control``."""
    for line in text.splitlines():
        if line.startswith(b"oom_kill "):
            return int(line.split()[1])
    raise ValueError("no oom_kill line")


def remove_v1(folder: str, timeout: float = 2.0) -> bool:
    """Kill every process in a v1 cgroup (v1 has no ``cgroup.kill``: each listed pid, again
    until none is left) and remove the folder; True once it is removed."""

    def kill_listed() -> None:
        try:
            pids = [int(p) for p in _read(f"{folder}/cgroup.procs").split()]
        except (OSError, ValueError):
            pids = []
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)

    return rmdir_when_empty(folder, timeout, before_each_try=kill_listed)


def rmdir_when_empty(
    folder: str, timeout: float, before_each_try: Callable[[], None] = lambda: None
) -> bool:
    """Remove a cgroup folder, which the kernel refuses while a process is still in it: try
    again (after ``before_each_try``) with a growing pause until ``timeout``. True once it is
    gone (removed now or already)."""
    deadline = time.monotonic() + timeout
    pause = 0.0005  # killed processes take a few hundred microseconds to exit
    while True:
        before_each_try()
        try:
            os.rmdir(folder)
            return True
        except FileNotFoundError:
            return True
        except OSError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(pause)
            pause = min(pause * 2, 0.01)


def sweep_v1(control: MemoryControl | str, is_leftover: Callable[[str], bool]) -> int:
    """Remove the v1 folders of bots whose worker is gone (``is_leftover(name)``)."""
    if isinstance(control, str) or control.version != 1:
        return 0
    removed = 0
    for base in (control.memory_base, control.pids_base):
        if base is None or not base.is_dir():
            continue
        for entry in base.iterdir():
            if entry.is_dir() and is_leftover(entry.name) and remove_v1(str(entry), 0.5):
                removed += 1
    return removed
