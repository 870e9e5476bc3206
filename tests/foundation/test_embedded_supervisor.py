"""The supervisor of the embedded workers (workers/queueing/embedded.py: EmbeddedWorker) with
stand-in
workers: a worker that dies is started again with the reason in its log and on the console,
and after MAX_DEATHS deaths it is given up, loudly and in the state the site reads
(`supervisor_state`). The real workers, killed in a running ladder, are in
test_embedded_worker.py."""

from __future__ import annotations

import io
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from workers.queueing import embedded
from workers.queueing.embedded import MAX_DEATHS, EmbeddedWorker, supervisor_state

SLEEPER = [sys.executable, "-c", "import time; time.sleep(600)"]
CRASHER = [
    sys.executable,
    "-c",
    "import sys; print('CRITICAL Unrecoverable error: boom'); sys.exit(3)",
]


def _wait(check, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while not (value := check()):
        assert time.monotonic() < deadline, what
        time.sleep(0.05)
    return value


def test_a_killed_worker_is_started_again_with_the_reason(tmp_path: Path) -> None:
    console = io.StringIO()
    supervisor = EmbeddedWorker(data_dir=tmp_path, command=lambda role: SLEEPER, console=console)
    with supervisor:
        first = supervisor.pids()
        assert supervisor_state(tmp_path)["state"] == "running"
        os.kill(first["matches"], signal.SIGKILL)
        killed_at = time.monotonic()
        restarted = _wait(
            lambda: (pid := supervisor.pids()["matches"]) not in (None, first["matches"]) and pid,
            60, "the killed worker to be started again",
        )  # fmt: skip
        print(f"restarted after {time.monotonic() - killed_at:.2f}s")
        state = _wait(
            lambda: (s := supervisor_state(tmp_path))["roles"]["matches"]["pid"] == restarted
            and s, 10, "the state file to show the new worker",
        )  # fmt: skip
        assert state["state"] == "running"
        matches = state["roles"]["matches"]
        assert matches["restarts"] == 1
        assert matches["deaths"][-1]["reason"] == "killed by SIGKILL"
        assert state["roles"]["periodic"]["pid"] == first["periodic"]  # left alone
        assert f"pid {first['matches']}) died: killed by SIGKILL" in console.getvalue()
        log = (tmp_path / "embedded-worker.log").read_text()
        assert "supervisor: embedded matches worker" in log and "killed by SIGKILL" in log
    assert supervisor_state(tmp_path)["state"] == "stopped"


def test_a_worker_that_keeps_dying_is_given_up_loudly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Restarts a tenth as far apart as the product's (what is tested is how many deaths it
    # takes, not the pauses between them).
    monkeypatch.setattr(embedded, "RESTART_PAUSES", tuple(p / 10 for p in embedded.RESTART_PAUSES))
    console = io.StringIO()
    supervisor = EmbeddedWorker(
        data_dir=tmp_path,
        command=lambda role: CRASHER if role == "matches" else SLEEPER,
        console=console,
    )
    with supervisor:
        state = _wait(
            lambda: (s := supervisor_state(tmp_path))["state"] == "failed" and s,
            120, "the supervisor to give up",
        )  # fmt: skip
        matches = state["roles"]["matches"]
        assert matches["restarts"] == MAX_DEATHS - 1 and len(matches["deaths"]) == MAX_DEATHS
        assert matches["gave_up_at"]
        assert matches["deaths"][-1]["reason"] == (
            "exited with code 3; last error: CRITICAL Unrecoverable error: boom"
        )
        assert "not restarted any more" in state["message"]
        assert "NOT restarted any more" in console.getvalue()
        seen = supervisor.rounds  # given up for good: two more rounds start nothing
        _wait(lambda: supervisor.rounds >= seen + 2, 60, "two more supervision rounds")
        assert supervisor_state(tmp_path)["roles"]["matches"]["restarts"] == MAX_DEATHS - 1
        assert state["roles"]["periodic"]["state"] == "running"
    assert supervisor_state(tmp_path)["state"] == "failed"


def test_no_supervisor_reads_absent(tmp_path: Path) -> None:
    assert supervisor_state(tmp_path)["state"] == "absent"
