"""The embedded default runs matches off the request path.

A real `runserver` with no broker configured, on a fresh DATA_DIR: its embedded Celery workers
(the SQLite broker; a matches worker, and a periodic worker with beat) validate two uploaded
starter bots, then play a ladder league of four bots. The start request answers while its
matches are still open; matches go queued -> running -> finished; the ladder keeps scheduling
until paused; pausing stops it; and the workers go away with the server (a worker killed in a
ladder: test_embedded_restart.py). Figures (start latency, matches per minute) are printed by
bench/embedded.py, not asserted here.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from scripts.embedded_ladder import REPO, EmbeddedArena, embedded_env

pytestmark = pytest.mark.slow

OPEN = ("queued", "running")


def _children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in found.split()]


def _page(arena: EmbeddedArena, path: str) -> str:
    with urllib.request.urlopen(arena.base_url + path, timeout=60) as response:
        return response.read().decode()


def _topups(arena: EmbeddedArena) -> int:
    """How many runs of the ladder top-up the periodic embedded worker has finished (its whole
    log: the periodic jobs run there, beside beat)."""
    log = arena.data_dir / "embedded-periodic.log"
    text = log.read_text(errors="replace") if log.exists() else ""
    return len(re.findall(r"arena\.ladders_schedule\[[^\]]+\] succeeded", text))


def _role(pid: int) -> str | None:
    """The role of an embedded worker process (its --role argument), None for another."""
    args = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    if "workers.queueing.embedded" not in args:
        return None
    return args[args.index("--role") + 1] if "--role" in args else "matches"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split()[2] == "Z")


@pytest.mark.timeout(1500)  # real processes on a machine that may be busy
def test_ladder_league_plays_in_the_background_and_stops_when_paused(
    tmp_path: Path, free_port: int
) -> None:
    # Beat every second, so a paused ladder would be seen topping itself up within the wait
    # below (three top-ups).
    with EmbeddedArena(tmp_path / "data", free_port, LADDER_SCHEDULE_SECONDS="1") as arena:
        league_id = arena.ladder_league()
        status, league = arena.request("POST", f"/api/v1/leagues/{league_id}/start/")
        assert status == 200 and league["status"] == "running", league
        # The request came back with its matches queued, not played inside it.
        first = arena.matches(league_id)
        assert len(first) >= 2
        assert any(m["status"] in OPEN for m in first), [m["status"] for m in first]
        assert re.search(r">\s*(queued|running)\s*<", _page(arena, f"/leagues/{league_id}/"))

        seen: dict[int, list[str]] = {}

        def finished_enough() -> bool:
            for match in arena.matches(league_id):
                states = seen.setdefault(match["id"], [])
                if not states or states[-1] != match["status"]:
                    states.append(match["status"])
            return sum(s[-1] == "finished" for s in seen.values()) >= 5

        arena.wait_for(finished_enough, 300, "5 finished ladder matches", poll=0.1)
        assert not [i for i, s in seen.items() if "failed" in s], seen
        # More matches than the first batch: the ladder kept scheduling.
        assert len(seen) > len(first)
        # Every match moved forward only, and some were seen running between the two.
        order = {"queued": 0, "running": 1, "finished": 2}
        for states in seen.values():
            assert [order[s] for s in states] == sorted(order[s] for s in states), states
        assert any("running" in s for s in seen.values()), seen
        assert re.search(r">\s*finished\s*<", _page(arena, f"/leagues/{league_id}/"))

        status, league = arena.request("POST", f"/api/v1/leagues/{league_id}/pause/")
        assert status == 200 and league["status"] == "paused"
        at_pause = {m["id"]: m["status"] for m in arena.matches(league_id)}
        # Matches already running end; nothing queued starts and nothing new is scheduled.
        arena.wait_for(
            lambda: all(m["status"] not in ("running",) for m in arena.matches(league_id)),
            300, "running matches to end after the pause",
        )  # fmt: skip
        # three runs of the ladder top-up, as the worker's log shows them, see the pause
        topups = _topups(arena)
        arena.wait_for(lambda: _topups(arena) >= topups + 3, 300, "three ladder top-ups")
        after = {m["id"]: m["status"] for m in arena.matches(league_id)}
        assert set(after) == set(at_pause), "a paused ladder scheduled new matches"
        for match_id, state in at_pause.items():
            if state == "queued":
                assert after[match_id] == "queued", (match_id, after[match_id])
        assert not [i for i, s in after.items() if s == "failed"]

        # The workers run beside the server and end with it.
        worker_pids = _children(arena.server.pid)
        assert sorted(_role(pid) for pid in worker_pids) == ["matches", "periodic"]
    arena.wait_for(
        lambda: not any(_alive(pid) for pid in worker_pids),
        60,
        "the workers to stop with runserver",
    )


def test_worker_stops_when_its_server_is_killed(tmp_path: Path, free_port: int) -> None:
    env = embedded_env(tmp_path / "data")
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput"], cwd=REPO, env=env, check=True,
                   capture_output=True)  # fmt: skip
    server = subprocess.Popen(
        [*manage, "runserver", "--noreload", f"127.0.0.1:{free_port}"],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while len(workers := _children(server.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert sorted(_role(pid) for pid in workers) == ["matches", "periodic"]
        for name in ("embedded-worker.log", "embedded-periodic.log"):
            log = tmp_path / "data" / name
            while "ready" not in (log.read_text() if log.exists() else ""):
                assert time.monotonic() < deadline, f"no ready worker in {name}"
                time.sleep(0.2)
    finally:
        server.send_signal(signal.SIGKILL)  # no atexit: the workers must notice on their own
        server.wait(timeout=10)
    deadline = time.monotonic() + 60
    while any(_alive(pid) for pid in workers):
        assert time.monotonic() < deadline, "an embedded worker outlived its killed server"
        time.sleep(0.2)


def test_autoreloader_starts_one_worker_only(tmp_path: Path, free_port: int) -> None:
    """With the autoreloader the serving child restarts on changes; the worker belongs to the
    parent that stays, so there is exactly one however often the child restarts."""
    env = embedded_env(tmp_path / "data")
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput"], cwd=REPO, env=env, check=True,
                   capture_output=True)  # fmt: skip
    server = subprocess.Popen(
        [*manage, "runserver", f"127.0.0.1:{free_port}"],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while len(_children(server.pid)) < 3:  # the two workers and the serving child
            assert time.monotonic() < deadline, _children(server.pid)
            time.sleep(0.2)
        # the serving child answers: it is past its start, where a second worker would begin
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{free_port}/healthz", timeout=5):
                    break
            except urllib.error.HTTPError:  # an answer all the same
                break
            except OSError:
                assert time.monotonic() < deadline, "the server never answered"
                time.sleep(0.2)
        roles = {pid: _role(pid) for pid in _children(server.pid)}
        assert len(roles) == 3 and set(roles.values()) == {"matches", "periodic", None}, roles
        serving = next(pid for pid, role in roles.items() if role is None)
        assert not any(b"workers.queueing.embedded" in Path(f"/proc/{pid}/cmdline").read_bytes()
                       for pid in _children(serving))  # fmt: skip
    finally:
        _stop_server(server)


def _stop_server(server: subprocess.Popen[bytes]) -> None:
    """Ctrl-C for the runserver's process group, then SIGTERM (the autoreloader's parent exits
    on it through ``sys.exit``, so the supervisor's atexit stop still runs), then SIGKILL (its
    workers watch their parent and end on their own). Alone the stop after SIGINT takes at most
    about 5 s (the workers' cold shutdown); in full-suite runs it has sometimes taken over a
    minute, and why is an open question. This test is about how many workers start, so a slow
    stop escalates after 15 s instead of failing it."""
    for sig, wait in ((signal.SIGINT, 15), (signal.SIGTERM, 15), (signal.SIGKILL, 30)):
        try:
            os.killpg(server.pid, sig)
        except ProcessLookupError:
            break
        try:
            server.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue
    server.wait(timeout=10)
