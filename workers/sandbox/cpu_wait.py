"""How long a bot waited for a CPU: the time its processes were runnable but not running.

A busy host makes a bot's decision last longer on the wall clock without the bot doing
anything: its processes are ready to run and wait in the run queue. That wait is measured
so that it is never charged to the bot (``workers.agents``, ``competition.limits``). Two
sources, the first the machine has:

* **the bot's cgroup**, ``cpu.pressure``: the ``some`` line's ``total`` is the wall-clock
  time, in microseconds, during which at least one process of the cgroup was runnable but not
  running. It covers every process the bot ever started, threads and processes that have
  exited included, and never exceeds the wall clock, so it is exact for what it stretches (a
  decision's wall-clock ceiling). Reading it brings the total up to date.
* **/proc**, the second field of ``/proc/<pid>/task/<tid>/schedstat`` (run_delay, in
  nanoseconds), summed over the threads of the bot's live processes: a process that exited
  during a decision takes its wait with it, and the waits of threads that wait side by side
  add up (so the sum is capped by the caller at the decision's wall clock).

No Django here.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

_SOME = b"some "
_TOTAL = b"total="


def parse_cpu_pressure(text: bytes) -> float:
    """Seconds of the ``some total`` in the text of a cgroup v2 ``cpu.pressure``."""
    if not text.startswith(_SOME):
        raise ValueError(f"not a cpu.pressure text: {text[:40]!r}")
    line = text[: text.index(b"\n")] if b"\n" in text else text
    at = line.rindex(_TOTAL) + len(_TOTAL)
    return int(line[at:]) / 1_000_000


def threads_run_delay(pids: Iterable[int]) -> float:
    """Seconds the threads of ``pids`` have spent runnable but not running, summed
    (/proc/<pid>/task/<tid>/schedstat); processes and threads gone meanwhile are skipped."""
    total = 0
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat", "rb") as f:
                    total += int(f.read().split()[1])
            except (OSError, ValueError, IndexError):
                continue
    return total / 1_000_000_000


def thread_run_delay() -> float:
    """Seconds the calling thread has spent runnable but not running (a built-in bot's wait,
    which runs in the worker's own thread); 0.0 where /proc does not say."""
    try:
        with open("/proc/thread-self/schedstat", "rb") as f:
            return int(f.read().split()[1]) / 1_000_000_000
    except (OSError, ValueError, IndexError):
        return 0.0
