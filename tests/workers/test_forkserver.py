"""The Python fork server: a Python bot forked from a warm interpreter sees exactly what an
exec'd ``python3 -s -B bot.py`` sees, ends the same ways, and dies with its worker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from workers.sandbox.bot_process import BotSandbox, SandboxError
from workers.sandbox.forkserver import ForkedProcess

from .conftest import FAST

pytestmark = pytest.mark.usefixtures("worker_guard")

VIEW = b"""
import json, os, random, sys
sys.stdin.readline()
view = {"argv": sys.argv, "name": __name__, "path0": sys.path[0], "file": __file__,
        "env": dict(os.environ), "cwd": os.getcwd(), "uid": os.getuid(), "pid": os.getpid(),
        "flags": [sys.flags.no_user_site, sys.flags.dont_write_bytecode, sys.flags.isolated],
        "workers": sorted(m for m in sys.modules if m.split(".")[0] == "workers"),
        "fds": sorted(os.listdir("/proc/self/fd")), "encoding": sys.stdout.encoding,
        "write_through": sys.stdout.write_through, "main": sys.modules["__main__"].__name__,
        "random": random.random()}
print(json.dumps(view), flush=True)
"""


def _view(monkeypatch: pytest.MonkeyPatch, launcher: str) -> tuple[type, dict]:
    monkeypatch.setenv("ISLE_PYTHON_FORKSERVER", "1" if launcher == "forkserver" else "0")
    with BotSandbox(VIEW, "bot.py", limits=FAST) as box:
        process = box.start()
        line, _ = process.exchange(b"{}\n", 10.0)
        return type(process.proc), json.loads(line)


def test_a_forked_bot_sees_what_an_execd_bot_sees(monkeypatch: pytest.MonkeyPatch) -> None:
    kind, forked = _view(monkeypatch, "forkserver")
    assert kind is ForkedProcess
    kind, execd = _view(monkeypatch, "exec")
    assert kind is subprocess.Popen
    assert forked.pop("random") != execd.pop("random")  # each bot's random state is its own
    assert forked == execd
    assert forked["name"] == forked["main"] == "__main__" and forked["workers"] == []


def test_two_forked_bots_draw_different_random_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server imported random before forking: each child is reseeded, not a copy."""
    draws = {_view(monkeypatch, "forkserver")[1]["random"] for _ in range(3)}
    assert len(draws) == 3


@pytest.mark.parametrize(
    ("body", "code", "stderr"),
    [
        ("raise SystemExit(3)", 3, None),
        ("import sys; sys.exit('bye')", 1, "bye"),
        ("raise ValueError('no luck')", 1, "ValueError: no luck"),
        ("print('done', flush=True)", 0, None),
    ],
)
def test_a_forked_bot_ends_with_the_status_an_interpreter_gives(
    monkeypatch: pytest.MonkeyPatch, body: str, code: int, stderr: str | None
) -> None:
    monkeypatch.setenv("ISLE_PYTHON_FORKSERVER", "1")
    source = f"import sys\nsys.stdin.readline()\n{body}\n".encode()
    with BotSandbox(source, "bot.py", limits=FAST) as box:
        process = box.start()
        assert isinstance(process.proc, ForkedProcess)
        process.send(b"{}\n")
        assert process.wait_exit(10.0) == code
        process.drain_stderr()
        if stderr is not None:
            assert stderr in "\n".join(process.stderr.lines())
        assert process.cpu_seconds is not None


DRIVER = textwrap.dedent(
    """
    import sys, time
    sys.path.insert(0, sys.argv[1])
    from workers.sandbox.bot_process import BotSandbox
    box = BotSandbox(b"import time\\nwhile True: time.sleep(1)\\n", "bot.py")
    process = box.start()
    print(process.proc.pid, box.uid, flush=True)
    time.sleep(600)
    """
)


def test_forked_bots_die_with_their_worker(tmp_path: Path) -> None:
    """The server leaves when the worker's end of its socket closes, and its bots with it."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "ISLE_PYTHON_FORKSERVER": "1"}
    driver = subprocess.Popen(
        [sys.executable, "-c", DRIVER, str(root)], stdout=subprocess.PIPE, env=env, text=True
    )
    try:
        pid = int(driver.stdout.readline().split()[0])  # type: ignore[union-attr]
        assert Path(f"/proc/{pid}").exists()
    finally:
        driver.kill()
        driver.wait()
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _alive(pid), "a forked bot outlived its worker"


def _alive(pid: int) -> bool:
    """A process that exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] != "Z"


def test_the_fork_server_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ISLE_PYTHON_FORKSERVER", "0")
    with BotSandbox(b"pass\n", "bot.py", limits=FAST) as box:
        assert isinstance(box.start().proc, subprocess.Popen)


def test_a_bot_that_cannot_start_is_a_sandbox_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ISLE_PYTHON_FORKSERVER", "1")
    monkeypatch.setenv("ISLE_UNPACKED_CACHE", "0")  # the bot's own folder, to take away
    box = BotSandbox(b"pass\n", "bot.py", limits=FAST)
    try:
        box.workdir.rename(box.dir / "gone")  # the folder the bot must run in
        with pytest.raises(SandboxError, match="could not start the bot"):
            box.start()
    finally:
        box.close()


def test_a_dead_fork_server_is_replaced_at_the_next_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from workers.sandbox import forkserver

    monkeypatch.setenv("ISLE_PYTHON_FORKSERVER", "1")
    _view(monkeypatch, "forkserver")
    server = next(iter(forkserver._servers.values()))
    server.process.kill()
    server.process.wait()
    deadline = time.monotonic() + 5
    while server.alive and time.monotonic() < deadline:  # its reader sees the socket close
        time.sleep(0.01)
    kind, view = _view(monkeypatch, "forkserver")
    assert kind is ForkedProcess and view["name"] == "__main__"
    assert next(iter(forkserver._servers.values())) is not server


def test_a_failing_fork_server_falls_back_to_exec(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that fails is never the bot's fault: the bot is exec'd instead."""
    from workers.sandbox import forkserver

    def gone(*args: object) -> None:
        raise forkserver.ForkServerGone("the fork server did not answer")

    monkeypatch.setattr(forkserver, "spawn", gone)
    kind, view = _view(monkeypatch, "forkserver")
    assert kind is subprocess.Popen and view["name"] == "__main__"


def test_a_worker_process_starts_its_fork_server_before_its_first_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from workers.sandbox import forkserver
    from workers.sandbox.bundles import resolve_interpreter

    monkeypatch.setenv("ISLE_PYTHON_FORKSERVER", "1")
    monkeypatch.setattr(forkserver, "_servers", {})
    forkserver.prestart()
    server = forkserver._servers[resolve_interpreter("python3")]
    assert server.alive and server.owner == os.getpid()
    kind, _ = _view(monkeypatch, "forkserver")
    assert kind is ForkedProcess and forkserver._servers[server.interpreter] is server
    server.close()
    monkeypatch.setenv("ISLE_PYTHON_FORKSERVER", "0")
    monkeypatch.setattr(forkserver, "_servers", {})
    forkserver.prestart()
    assert forkserver._servers == {}
