"""Fixtures of the workers tests: the ``tiny`` mode, short limits, hostile bots, and a guard
that checks the test process is unharmed and no bot process outlives its match."""

from __future__ import annotations

import os
import resource
import subprocess
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from competition.limits import Limits
from engine import MODES
from workers.sandbox.isolation import detect_isolation

HERE = Path(__file__).resolve().parent
HOSTILE = HERE / "hostile"
EXAMPLES = HERE.parents[1] / "examples" / "bots"
TINY = "tests.workers.tiny_game:TinyGame"

# Short limits keep the suite fast: 0.3 s per decision, a 1 s bank, and a wall-clock guard of
# 5 x 0.3 s + the bank left (the 10 s floor of real matches lowered to 1 s).
FAST = Limits(
    decision_seconds=0.3, bank_seconds=1.0, startup_seconds=5.0, memory_mb=256, processes=24,
    end_grace_seconds=0.2, wall_floor_seconds=1.0,
)  # fmt: skip


@pytest.fixture
def tiny_mode(monkeypatch: pytest.MonkeyPatch) -> str:
    """Register the test-only ``tiny`` mode for one test."""
    monkeypatch.setitem(MODES, "tiny", TINY)
    return "tiny"


def hostile(name: str) -> str:
    return str(HOSTILE / f"{name}.py")


def make_zip(path: Path, files: dict[str, str | bytes], entrypoint: str = "main.py") -> Path:
    """A zip bundle with a bot.json manifest and the given files."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("bot.json", f'{{"entrypoint": "{entrypoint}", "language": "python3"}}')
        for name, data in files.items():
            archive.writestr(name, data)
    return path


def _live(pid: int) -> tuple[int, int, int] | None:
    """(real uid, session id, parent pid) of a live, non-zombie process, or None."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2 :].split()
    if fields[0] in ("Z", "X"):
        return None
    uid_line = next(line for line in status.splitlines() if line.startswith("Uid:"))
    return int(uid_line.split()[1]), int(fields[3]), int(fields[1])


def leftovers(uids: set[int], sessions: set[int]) -> list[str]:
    """Live processes that belong to the given bot uids or bot sessions (a /proc scan that
    trusts nothing the sandbox says about itself)."""
    out = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        info = _live(int(entry.name))
        if info is not None and (info[0] in uids or info[1] in sessions):
            cmdline = Path(f"/proc/{entry.name}/cmdline").read_bytes().replace(b"\0", b" ")
            out.append(f"{entry.name} uid={info[0]} sid={info[1]} {cmdline[:100].decode()}")
    return out


@pytest.fixture
def worker_guard(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The test process keeps its limits, folder and network, can still start processes, and
    no process of a bot started during the test is left once the test's matches are over."""
    from workers.sandbox import bot_process as sandbox

    started: list[tuple[int | None, int]] = []  # (uid, pid) of every bot process started
    original = sandbox.BotProcess.__init__

    def recording_init(self: sandbox.BotProcess, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        started.append((self.uid, self.proc.pid))

    monkeypatch.setattr(sandbox.BotProcess, "__init__", recording_init)
    limits = {
        r: resource.getrlimit(r)
        for r in (
            resource.RLIMIT_AS,
            resource.RLIMIT_CPU,
            resource.RLIMIT_NPROC,
            resource.RLIMIT_NOFILE,
        )
    }
    cwd, netns = os.getcwd(), os.readlink("/proc/self/ns/net")
    yield
    assert {r: resource.getrlimit(r) for r in limits} == limits
    assert os.getcwd() == cwd
    assert os.readlink("/proc/self/ns/net") == netns
    assert subprocess.run(["true"], check=False).returncode == 0
    uids = {uid for uid, _ in started if uid is not None}
    sessions = {pid for _, pid in started}
    # Killed processes are gone within milliseconds; the deadline is only for a machine so
    # busy that a reap waits its turn (no test passes or fails on how soon).
    deadline = time.monotonic() + 60.0
    while (left := leftovers(uids, sessions)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert left == [], f"bot processes still running: {left}"


@pytest.fixture(scope="session")
def isolation() -> object:
    return detect_isolation()
