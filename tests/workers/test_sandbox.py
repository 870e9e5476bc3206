"""The sandbox on its own: line exchange with deadlines, bounded stderr, the bot's view of the
machine (environment, folder, uid, network), and cleanup."""

from __future__ import annotations

import json
import os
import select

import pytest

from competition.faults import BotFault, FaultKind
from workers.sandbox.bot_process import BotSandbox, TailBuffer, network_isolation_available
from workers.sandbox.engine_path import ENGINE_DIR
from workers.sandbox.isolation import (
    LAYERS,
    UID_BASE,
    UID_SLOTS,
    Isolation,
    detect_isolation,
)

from .conftest import FAST

pytestmark = pytest.mark.usefixtures("worker_guard")

ECHO = b"""
import sys
for line in sys.stdin:
    sys.stdout.write(line)
    sys.stdout.flush()
"""

INSPECT = b"""
import json, os, sys
def can_write(path):
    try:
        with open(path, "w") as f:
            f.write("x")
        return True
    except OSError:
        return False
for line in sys.stdin:
    view = {"env": dict(os.environ), "cwd": os.getcwd(), "uid": os.getuid(),
            "root": sorted(os.listdir("/")), "files": sorted(os.listdir(".")),
            "write_home": can_write("mine.txt"),
            "write_tmp": can_write(os.path.join(os.environ["TMPDIR"], "t.txt")),
            "engine": sorted(os.listdir(os.path.dirname(os.path.dirname(
                __import__("engine").__file__))))}
    print(json.dumps(view), flush=True)
"""


def test_tail_buffer_keeps_the_last_lines_within_bounds() -> None:
    tail = TailBuffer(max_lines=5, max_bytes=100)
    for i in range(1000):
        tail.feed(f"line {i}\n".encode())
    assert tail.lines() == [f"line {i}" for i in range(995, 1000)]
    assert tail.total == sum(len(f"line {i}\n") for i in range(1000))
    tail.feed(b"z" * 500)
    lines = tail.lines()
    assert lines == ["..." + "z" * 100] and len(lines[0]) <= 103


def test_exchange_round_trip_and_timing() -> None:
    with BotSandbox(ECHO, "echo.py", limits=FAST) as box:
        process = box.start()
        line, seconds = process.exchange(b'{"hello": 1}\n', 5.0)
        assert line == b'{"hello": 1}' and seconds > 0
        big = b'{"x": "' + b"y" * (3 << 20) + b'"}\n'  # larger than any pipe buffer
        with pytest.raises(BotFault) as caught:
            process.exchange(big, 5.0)
        assert caught.value.kind is FaultKind.BAD_OUTPUT  # echoed back: longer than 1 MiB
        assert process.processes()  # a fault does not kill: the agent decides that
    assert not box.dir.exists()


def test_large_messages_are_written_without_blocking() -> None:
    """A 3 MB message (more than the pipe holds) reaches a bot that answers briefly."""
    source = b"""
import sys
for line in sys.stdin:
    print(len(line), flush=True)
"""
    with BotSandbox(source, "count.py", limits=FAST) as box:
        process = box.start()
        line, _ = process.exchange(b"a" * (3 << 20) + b"\n", 5.0)
        assert int(line) == (3 << 20) + 1


def test_timeout_carries_the_time_used() -> None:
    source = b"import sys, time\nsys.stdin.readline()\ntime.sleep(30)\n"
    with BotSandbox(source, "sleepy.py", limits=FAST) as box:
        process = box.start()
        with pytest.raises(BotFault) as caught:
            process.exchange(b"{}\n", 0.2)
        # Stopped by the 0.2 s limit, not by the end of the bot's own 30 s sleep: the bot
        # still sleeps when its timeout is raised (a fault does not kill it).
        assert caught.value.kind is FaultKind.TIMEOUT and caught.value.seconds >= 0.2
        assert process.processes() and process.wait_exit(0) is None


def test_output_before_being_asked_is_bad_output() -> None:
    source = b"import time\nprint('early', flush=True)\ntime.sleep(30)\n"
    with BotSandbox(source, "early.py", limits=FAST) as box:
        process = box.start()
        # the early line is there to be read (a generous deadline; no sleep)
        assert select.select([process._stdout], [], [], 60)[0]
        with pytest.raises(BotFault) as caught:
            process.exchange(b"{}\n", 1.0)
        assert caught.value.kind is FaultKind.BAD_OUTPUT and "not asked" in caught.value.message


def test_the_bot_sees_a_minimal_environment_and_its_own_folder() -> None:
    iso = detect_isolation()
    with BotSandbox(INSPECT, "inspect.py", limits=FAST) as box:
        process = box.start()
        line, _ = process.exchange(b"{}\n", 5.0)
        assert process.processes()  # running now
    view = json.loads(line)
    assert set(view["env"]) <= {
        "PATH",
        "LANG",
        "HOME",
        "TMPDIR",
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONHASHSEED",
        "PYTHONUNBUFFERED",
        "PYTHONPATH",  # Python bots: the engine's botpath folder (engine/botpath)
        "LC_CTYPE",
    }
    assert view["env"]["PYTHONHASHSEED"] == "0" and view["env"]["HOME"] == view["cwd"]
    assert view["env"]["PYTHONPATH"].endswith("/engine/botpath")
    assert not any(key in view["env"] for key in os.environ if key.startswith(("DJANGO", "SECRET")))
    assert "inspect.py" in view["files"]
    assert view["write_tmp"] is True
    if iso.filesystem:
        assert view["cwd"] == "/bot"
        assert view["write_home"] is False  # the bundle is read-only
        # the engine is mounted read-only at its own path (workers/sandbox/engine_path.py); nothing
        # else
        # of the host's folders is there
        engine_top = ENGINE_DIR.strip("/").split("/")[0]
        assert "root" not in view["root"] or engine_top == "root"
        assert set(view["root"]) <= {
            engine_top,
            "bin",
            "bot",
            "dev",
            "lib",
            "lib32",
            "lib64",
            "libx32",
            "proc",
            "sbin",
            "tmp",
            "usr",
        }
        assert view["engine"] == [os.path.basename(ENGINE_DIR)]
    if iso.uid:
        assert UID_BASE <= view["uid"] < UID_BASE + UID_SLOTS


def test_without_isolation_the_bot_still_gets_limits_and_a_clean_folder() -> None:
    with BotSandbox(INSPECT, "inspect.py", limits=FAST, isolation=Isolation()) as box:
        line, _ = box.start().exchange(b"{}\n", 5.0)
    view = json.loads(line)
    assert view["cwd"] == str(box.workdir) and view["files"] == ["inspect.py"]
    assert view["uid"] == os.getuid()


def test_isolation_is_detected_once_and_reported() -> None:
    iso = detect_isolation()
    assert detect_isolation() is iso
    assert network_isolation_available() is iso.network
    assert iso.to_json()["network"] is iso.network
    partial = Isolation(uid=True, network=False, filesystem=True, pid=True, memory=True)
    assert partial.warnings()[0] == "bot isolation incomplete: no network isolation"
    assert Isolation(True, True, True, True, True).warnings() == []
    for layer in LAYERS:  # a missing layer says why
        assert getattr(iso, layer) or any(note.startswith(f"{layer}:") for note in iso.notes)


def test_folders_of_dead_workers_are_swept(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pathlib import Path

    from workers.sandbox import bot_process as sandbox

    root = Path(str(tmp_path)) / "sbx"
    monkeypatch.setenv("ISLE_SANDBOX_ROOT", str(root))
    root.mkdir()
    dead = root / "seat0-999999999-abcdef012345"  # no such pid
    alive = root / f"seat1-{os.getpid()}-abcdef012345"
    for folder in (dead, alive):
        (folder / "bot").mkdir(parents=True)
    monkeypatch.setattr(sandbox, "_swept", set())
    with BotSandbox(ECHO, "echo.py", limits=FAST, isolation=Isolation()):
        pass
    assert not dead.exists() and alive.exists()
