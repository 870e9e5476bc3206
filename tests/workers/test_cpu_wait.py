"""The readers of a bot's wait for a CPU (workers/sandbox/cpu_wait.py): the cgroup's
cpu.pressure text and /proc's schedstat."""

from __future__ import annotations

import os
import threading

import pytest

from workers.sandbox.cpu_wait import parse_cpu_pressure, thread_run_delay, threads_run_delay

PRESSURE = (b"some avg10=7.46 avg60=3.48 avg300=2.57 total=12740018\n"
            b"full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")  # fmt: skip


def test_the_some_total_of_cpu_pressure_is_read_in_seconds() -> None:
    assert parse_cpu_pressure(PRESSURE) == pytest.approx(12.740018)
    assert parse_cpu_pressure(PRESSURE.split(b"\n")[0]) == pytest.approx(12.740018)


@pytest.mark.parametrize("text", [b"", b"full avg10=0.00 total=3\n", b"some avg10=1.0\n"])
def test_anything_else_is_refused(text: bytes) -> None:
    with pytest.raises(ValueError):
        parse_cpu_pressure(text)


def test_run_queue_waits_are_read_from_proc_and_only_grow() -> None:
    if not os.path.exists("/proc/thread-self/schedstat"):
        pytest.skip("no schedstat in /proc here")
    mine = thread_run_delay()
    process = threads_run_delay([os.getpid()])
    assert 0.0 <= mine <= process  # this thread's wait is part of its process's
    worker = threading.Thread(target=lambda: sum(range(200_000)))
    worker.start()
    worker.join()
    assert thread_run_delay() >= mine
    assert threads_run_delay([os.getpid(), 2**22 + 1]) >= 0.0  # a pid that is gone is skipped
