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

from engine import MODES
from workers.isolation import UID_BASE, UID_SLOTS, detect_isolation
from workers.limits import Limits

HERE = Path(__file__).resolve().parent
HOSTILE = HERE / "hostile"
EXAMPLES = HERE.parents[1] / "examples" / "bots"
TINY = "tests.workers.tiny_game:TinyGame"

# Short limits keep the suite fast: 0.3 s per decision, a 1 s bank.
FAST = Limits(
    decision_seconds=0.3, bank_seconds=1.0, startup_seconds=5.0, memory_mb=256, processes=24,
    end_grace_seconds=0.2,
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


def bot_processes() -> list[str]:
    """Live processes that belong to bots: a bot uid, or a bot file on the command line."""
    out = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            status = Path(f"/proc/{entry.name}/status").read_text()
            cmdline = Path(f"/proc/{entry.name}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if fields.get("State", "").strip().startswith("Z"):
            continue
        uid = int(fields["Uid"].split()[0])
        text = cmdline.decode(errors="replace")
        if UID_BASE <= uid < UID_BASE + UID_SLOTS or str(HOSTILE) in text or "/bot/" in text:
            out.append(f"{entry.name} uid={uid} {text[:120]}")
    return out


@pytest.fixture
def worker_guard() -> Iterator[None]:
    """The test process keeps its limits, folder and network, can still start processes, and
    no bot process is left once the test's matches are over."""
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
    deadline = time.monotonic() + 3.0
    while (left := bot_processes()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert left == [], f"bot processes still running: {left}"


@pytest.fixture(scope="session")
def isolation() -> object:
    return detect_isolation()
