"""Bots die with their worker: the process running a match is SIGKILLed mid-match, and no
process of its bot (one that ignores SIGTERM and SIGHUP and leaves descendants in a session
of their own) survives it by more than a few seconds."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from .conftest import HOSTILE, leftovers

ROOT = Path(__file__).resolve().parents[2]


def marked(marker: str) -> list[int]:
    """Live processes whose argv holds ``marker``."""
    out = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry.name}/cmdline").read_bytes()
            state = Path(f"/proc/{entry.name}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker.encode() in cmdline and state not in ("Z", "X"):
            out.append(int(entry.name))
    return out


@pytest.mark.slow
def test_bot_processes_die_with_the_process_running_the_match(tmp_path: Path) -> None:
    marker = f"orphan-{uuid.uuid4().hex}"
    bot = tmp_path / "stubborn.py"
    bot.write_text((HOSTILE / "stubborn.py").read_text().replace("stubborn-bot", marker))
    driver = subprocess.Popen(
        [sys.executable, "-m", "tests.workers.orphan_driver", str(bot)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    uids: set[int] = set()
    sessions: set[int] = set()
    try:
        assert driver.stdout is not None
        for line in driver.stdout:
            if line.startswith("bot "):
                uid, pid = map(int, line.split()[1:])
                if uid >= 0:
                    uids.add(uid)
                sessions.add(pid)
            elif line.strip() == "step":
                break
        assert sessions, "the driver started no bot"
        deadline = time.monotonic() + 20
        while len(marked(marker)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(marked(marker)) >= 2, "the bot's descendants did not start"
        driver.send_signal(signal.SIGKILL)
        driver.wait(10)
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()
    deadline = time.monotonic() + 5.0
    while (left := leftovers(uids, sessions) + marked(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert left == [], f"bot processes outlived their worker: {left}"


@pytest.mark.skipif(os.geteuid() != 0, reason="bot uids need root")
def test_a_starting_worker_sweeps_what_a_dead_predecessor_left() -> None:
    from workers.sandbox.bot_process import sandbox_root, sweep_leftovers
    from workers.sandbox.isolation import lease_uid, uid_processes

    root = sandbox_root()
    lease = lease_uid(root)
    uid = lease.uid

    def drop() -> None:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)

    left = subprocess.Popen(["sleep", "600"], preexec_fn=drop, start_new_session=True)
    gone = subprocess.Popen(["true"])
    gone.wait()
    folder = root / f"seat0-{gone.pid}-{uuid.uuid4().hex[:12]}"
    folder.mkdir()
    try:
        lease.release()  # as a killed worker's lease ends: unlocked, not marked clean
        assert uid_processes(uid) == [left.pid]
        swept = sweep_leftovers(root)
        assert swept["uids"] >= 1 and swept["folders"] >= 1
        assert left.wait(5) == -signal.SIGKILL
        assert not folder.exists()
        assert (root / "uids" / str(uid)).read_bytes().strip() == b"clean"
    finally:
        if left.poll() is None:
            left.kill()
            left.wait()
