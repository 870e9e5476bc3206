"""Hostile bots against the real sandbox: every misbehaviour ends in a classified fault (or
in nothing at all), the match always finishes, the worker is unharmed, no bot survives."""

from __future__ import annotations

import json
import secrets
import socket
import threading
from pathlib import Path

import pytest

from competition.faults import FaultKind
from competition.limits import Limits
from workers.runner import MatchOutcome, MatchSpec, SeatSpec, run_match
from workers.sandbox.bot_process import sandbox_root
from workers.sandbox.engine_path import ENGINE_DIR
from workers.sandbox.isolation import Isolation

from .conftest import EXAMPLES, FAST, hostile, make_zip

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("worker_guard", "tiny_mode")]

ROUNDS = 8
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True, params=["forkserver", "exec"])
def python_launcher(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every hostile Python bot both ways: forked by the Python fork server (the default) and
    exec'd as a fresh interpreter (ISLE_PYTHON_FORKSERVER=0, and every other language)."""
    monkeypatch.setenv("ISLE_PYTHON_FORKSERVER", "1" if request.param == "forkserver" else "0")
    return request.param


def play(bundle: str, limits: Limits = FAST, isolation: Isolation | None = None,
         second: str = "random") -> MatchOutcome:  # fmt: skip
    spec = MatchSpec(
        mode="tiny", seats=(SeatSpec.parse(bundle), SeatSpec.parse(second)), seed=3,
        options={"rounds": ROUNDS}, limits=limits, replay=False,
    )  # fmt: skip
    return run_match(spec, isolation=isolation)


def assert_fault(outcome: MatchOutcome, kind: FaultKind) -> None:
    """The match finished, seat 0 has exactly this fault, and played the default policy from
    the fault on; seat 1 is untouched."""
    assert len(outcome.actions) == ROUNDS * 2
    assert outcome.result["scores"] is not None
    assert [(f.seat, f.kind) for f in outcome.faults] == [(0, kind)], outcome.faults
    fault = outcome.faults[0]
    after = [a for a in outcome.actions if a["seat"] == 0 and a["step"] >= fault.step]
    assert after and all(a.get("default") for a in after)
    assert all(a["action"] == {"kind": "pass"} for a in after)  # the first legal action
    assert not any(a.get("default") for a in outcome.actions if a["seat"] == 1)
    assert outcome.seats[0]["fault"] == kind.value
    assert outcome.seats[1]["fault"] == ""
    json.dumps(outcome.to_json())


def test_infinite_loop_times_out_after_limit_and_bank() -> None:
    outcome = play(hostile("infinite_loop"))
    assert_fault(outcome, FaultKind.TIMEOUT)
    fault = outcome.faults[0]
    assert fault.step == 0 and fault.evidence is not None
    # Stopped on its CPU time, the 0.3 s decision limit + the 1 s bank, however busy the
    # machine: the time it waited for a CPU stretches the wall-clock guard, so a loop that
    # never ends is never mistaken for a bot that slept.
    cpu, wall = fault.evidence["cpu"], fault.evidence["wall"]
    assert fault.seconds == pytest.approx(wall, abs=1e-5)
    assert cpu > FAST.decision_seconds + FAST.bank_seconds
    assert "CPU time" in fault.message and "slept" not in fault.message
    assert outcome.timing[0]["bank_left"] == 0


def test_late_bot_drains_the_bank_then_times_out() -> None:
    # a wall-clock ceiling far away: 0.5 s of CPU can take seconds on a busy machine
    outcome = play(hostile("slow"), FAST.override(wall_factor=40.0))
    assert_fault(outcome, FaultKind.TIMEOUT)
    # 0.5 s of CPU per decision draws 0.2 s from the 1 s bank: about four fit, then one runs
    # out. The CPU time is read per clock tick (10 ms).
    answered = [a for a in outcome.actions if a["seat"] == 0 and not a.get("default")]
    assert len(answered) >= 3 and all(a["cpu"] >= 0.49 for a in answered)
    drawn = sum(a["cpu"] - FAST.decision_seconds for a in answered)
    assert drawn <= FAST.bank_seconds
    fault = outcome.faults[0]
    assert fault.step == 2 * len(answered)  # the next decision of seat 0
    assert fault.evidence is not None and "CPU time" in fault.message
    assert fault.evidence["cpu"] > FAST.decision_seconds + (FAST.bank_seconds - drawn) - 1e-3
    assert outcome.timing[0]["late"] == len(answered) + 1  # and the one that ran out
    assert outcome.timing[0]["bank_left"] == 0


def test_memory_hog_is_stopped_by_its_memory_limit() -> None:
    outcome = play(hostile("memory_hog"))
    assert_fault(outcome, FaultKind.MEMORY)
    assert any("MemoryError" in line for line in outcome.faults[0].stderr)


def test_cpu_hog_is_stopped_by_its_cpu_limit() -> None:
    # a long decision limit: one CPU-second can take several wall seconds on a busy machine
    limits = FAST.override(cpu_seconds=1, decision_seconds=30.0, bank_seconds=0.0)
    outcome = play(hostile("cpu_hog"), limits)
    assert_fault(outcome, FaultKind.CPU_TIME)
    assert outcome.faults[0].seconds >= 1.0


def test_fork_bomb_is_contained(isolation: Isolation) -> None:
    if not isolation.uid:
        pytest.skip(
            f"SKIPPED LOUDLY: cannot run bots under their own uid here, so "
            f"RLIMIT_NPROC cannot contain a fork bomb ({'; '.join(isolation.notes)})"
        )
    outcome = play(hostile("fork_bomb"), FAST.override(processes=16))
    assert_fault(outcome, FaultKind.TIMEOUT)


def test_child_that_leaves_the_session_is_killed(isolation: Isolation) -> None:
    if not (isolation.pid or isolation.uid):
        pytest.skip(
            "SKIPPED LOUDLY: without a pid namespace or a bot uid, a process that "
            "calls setsid() escapes the process-group kill"
        )
    outcome = play(hostile("escape_session"))
    assert outcome.faults == []
    assert len(outcome.actions) == ROUNDS * 2


def test_garbage_on_stdout_is_bad_output() -> None:
    outcome = play(hostile("garbage"))
    assert_fault(outcome, FaultKind.BAD_OUTPUT)
    assert "not JSON" in outcome.faults[0].message


def test_megabytes_on_stdout_and_stderr_are_bounded() -> None:
    outcome = play(hostile("flood_stdout"))
    assert_fault(outcome, FaultKind.BAD_OUTPUT)
    fault = outcome.faults[0]
    assert "longer than" in fault.message
    assert len(fault.stderr) <= FAST.stderr_lines
    assert sum(len(line) + 1 for line in fault.stderr) <= FAST.stderr_bytes + 8
    assert fault.stderr[-1].startswith("log line 19999")
    # Caught on size, not by the clock: the fault is BAD_OUTPUT, not TIMEOUT (checked above).


def test_megabytes_on_stderr_do_not_block_a_legal_bot() -> None:
    outcome = play(hostile("flood_stderr"))
    assert outcome.faults == []
    mine = [a for a in outcome.actions if a["seat"] == 0]
    assert len(mine) == ROUNDS and all(a["action"] == {"kind": "take", "n": 1} for a in mine)


def test_crash_at_start() -> None:
    outcome = play(hostile("crash_at_start"))
    assert_fault(outcome, FaultKind.CRASH)
    fault = outcome.faults[0]
    assert fault.step == 0 and "status 1" in fault.message
    assert any("cannot even begin" in line for line in fault.stderr)


def test_crash_mid_game_keeps_its_traceback() -> None:
    outcome = play(hostile("crash_mid_game"))
    assert_fault(outcome, FaultKind.CRASH)
    fault = outcome.faults[0]
    assert fault.step == 6  # its fourth decision
    assert any("boom in the middle of the game" in line for line in fault.stderr)
    assert "boom in the middle" in outcome.seats[0]["log"]


def test_clean_exit_mid_game() -> None:
    outcome = play(hostile("exits_early"))
    assert_fault(outcome, FaultKind.EXITED)
    assert outcome.faults[0].step == 2


@pytest.mark.parametrize("name", ["illegal_index", "illegal_action"])
def test_illegal_answers(name: str) -> None:
    outcome = play(hostile(name))
    assert_fault(outcome, FaultKind.ILLEGAL_ACTION)
    assert outcome.faults[0].step == 0


class _Listener:
    """A TCP server on 127.0.0.1 that counts the connections it accepts."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.1)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


def _network_bundle(tmp_path: Path, port: int) -> str:
    source = Path(hostile("network")).read_text()
    files = {"main.py": source, "targets.json": json.dumps({"port": port})}
    return str(make_zip(tmp_path / "network.zip", files))


def test_network_is_unreachable(tmp_path: Path, isolation: Isolation) -> None:
    if not isolation.network:
        pytest.skip(
            f"SKIPPED LOUDLY: this machine cannot give bots a network namespace "
            f"({'; '.join(isolation.notes)}); matches record network_isolation=false"
        )
    listener = _Listener()
    try:
        outcome = play(_network_bundle(tmp_path, listener.port))
    finally:
        listener.close()
    assert outcome.faults == []
    assert outcome.network_isolation is True
    notes = {a.get("note") for a in outcome.actions if a["seat"] == 0}
    assert len(notes) == 1 and notes.pop().startswith("blocked")
    assert listener.accepted == 0


def test_without_network_isolation_the_record_says_so(tmp_path: Path) -> None:
    """The control case: the same bot without the namespace does connect, and the match
    record carries the warning. This is what the test above would see if isolation broke."""
    listener = _Listener()
    try:
        outcome = play(_network_bundle(tmp_path, listener.port), isolation=Isolation())
    finally:
        listener.close()
    assert outcome.network_isolation is False
    assert any("no network" in w for w in outcome.warnings)
    assert {a.get("note") for a in outcome.actions if a["seat"] == 0} == {"connected"}
    assert listener.accepted == 1


def _snoop_bundles(tmp_path: Path) -> tuple[str, str, str]:
    token = "SECRET-" + secrets.token_hex(8)
    targets = {"files": [str(REPO / "tournament" / "settings.py"), "/etc/shadow"],
               "sandbox_root": str(sandbox_root())}  # fmt: skip
    snoop = make_zip(tmp_path / "snoop.zip", {
        "main.py": Path(hostile("read_outside")).read_text(),
        "targets.json": json.dumps(targets),
    })  # fmt: skip
    victim = make_zip(tmp_path / "victim.zip", {
        "main.py": (EXAMPLES / "random_bot.py").read_text(), "secret.txt": token,
    })  # fmt: skip
    return str(snoop), str(victim), token


def test_bot_cannot_read_other_bots_or_the_project(tmp_path: Path, isolation: Isolation) -> None:
    if not (isolation.filesystem or isolation.uid):
        pytest.skip(
            "SKIPPED LOUDLY: without root there is no jail and no bot uid, so a bot "
            "can read what our own user can read"
        )
    snoop, victim, token = _snoop_bundles(tmp_path)
    outcome = play(snoop, second=victim)
    assert outcome.faults == []
    notes = [a.get("note") for a in outcome.actions if a["seat"] == 0]
    assert set(notes) == {"denied"}, notes
    assert token not in json.dumps(outcome.to_json())


def test_without_isolation_the_snoop_does_read(tmp_path: Path) -> None:
    """The control case for the test above: with no isolation the same bot reads settings.py."""
    snoop, victim, _ = _snoop_bundles(tmp_path)
    outcome = play(snoop, second=victim, isolation=Isolation())
    assert outcome.faults == []
    notes = {a.get("note") for a in outcome.actions if a["seat"] == 0}
    assert len(notes) == 1 and "settings.py" in (notes.pop() or ""), notes


# Where a jailed bot's mounts are: its own root, the system folders, /dev, /tmp, /bot, /proc.
# The jail's mounts: the system folders, its own tmpfs's, and the engine's folder at the path it
# has in the deployment (Python bots import it: workers/sandbox/engine_path.py), read-only.
JAIL_MOUNTS = {"/", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32", "/dev",
               "/tmp", "/bot", "/proc", ENGINE_DIR}  # fmt: skip


def _host_views(outcome: MatchOutcome) -> dict[str, dict[str, str]]:
    """What host_paths.py read, as the bot and as its child: {"bot"|"child": {file: text}}."""
    assert outcome.faults == []
    notes = [a["note"] for a in outcome.actions if a["seat"] == 0 and a.get("note")]
    assert len(notes) == 1, notes
    return json.loads(notes[0])


def _mounts(mountinfo: str) -> list[tuple[str, str]]:
    """(root within its file system, mount point) of each line of a mountinfo."""
    return [(line.split()[3], line.split()[4]) for line in mountinfo.splitlines() if line]


def test_bot_sees_nothing_of_the_host_in_proc(isolation: Isolation) -> None:
    if not isolation.filesystem:
        pytest.skip(
            "SKIPPED LOUDLY: without root there is no jail, so a bot reads the host's "
            f"mounts and cgroups ({'; '.join(isolation.notes)})"
        )
    outcome = play(hostile("host_paths"), FAST.override(debug_chars=20_000))
    views = _host_views(outcome)
    for who in ("bot", "child"):
        cgroup, mountinfo = views[who]["cgroup"], views[who]["mountinfo"]
        # a cgroup namespace rooted at the bot's own cgroup: every hierarchy reads "/"
        lines = cgroup.splitlines()
        assert lines and all(line.endswith(":/") for line in lines), cgroup
        assert "0::/" in lines
        # a mount namespace with the jail's mounts only, none of them bound from a host
        # folder other than the one it stands for (no sandbox root, no bot folder, no devtmpfs)
        mounts = _mounts(mountinfo)
        assert {point for _, point in mounts} <= JAIL_MOUNTS, mountinfo
        assert {"/", "/bot", "/tmp", "/proc", "/dev"} <= {point for _, point in mounts}
        assert all(root in ("/", point) for root, point in mounts), mountinfo
        assert str(sandbox_root()) not in mountinfo and "devtmpfs" not in mountinfo
    assert views["child"] == views["bot"]


def test_without_isolation_the_bot_sees_the_host_mounts() -> None:
    """The control case for the test above: with no isolation the same bot lists the host's
    own mounts (/proc and / at the least, and folders no jail has)."""
    outcome = play(hostile("host_paths"), FAST.override(debug_chars=200_000),
                   isolation=Isolation())  # fmt: skip
    mounts = _mounts(_host_views(outcome)["bot"]["mountinfo"])
    assert {point for _, point in mounts} - JAIL_MOUNTS, mounts

def test_logging_while_others_think_never_blocks_the_bot() -> None:
    """Seat 0 logs all the time from a thread while seat 1 thinks 0.5 s of CPU per decision:
    its log keeps flowing between every two of its decisions while seat 1 thinks (its stderr
    is emptied, so the logging never stalls on a full pipe) and it answers every decision
    itself."""
    limits = FAST.override(wall_factor=40.0)  # seat 1 times out on its CPU time, not the wall
    events: list[tuple[str, int, int]] = []  # ("stderr", seat, bytes) | ("step", seat, 0)
    seats = (SeatSpec.parse(hostile("chatty_idle")), SeatSpec.parse(hostile("slow")))
    spec = MatchSpec(mode="tiny", seats=seats, seed=3, options={"rounds": ROUNDS}, limits=limits,
                     replay=False)  # fmt: skip
    outcome = run_match(
        spec,
        on_step=lambda game, seat, action, seconds: events.append(("step", seat, 0)),
        stderr_sink=lambda seat, chunk: events.append(("stderr", seat, len(chunk))),
    )
    # seat 1 (slow) spends 0.5 s per decision, times out on its fifth; seat 0 logs throughout
    assert [(f.seat, f.kind) for f in outcome.faults] == [(1, FaultKind.TIMEOUT)]
    mine = [a for a in outcome.actions if a["seat"] == 0]
    assert len(mine) == ROUNDS and not any(a.get("default") for a in mine)
    # the bytes of seat 0's log read between two of its decisions while seat 1 still thought
    # (from seat 1's fault on, the default policy plays it at once: nothing to wait through)
    fault_step = outcome.faults[0].step
    logged, between, step = 0, [], 0
    for kind, seat, size in events:
        if kind == "stderr" and seat == 0:
            logged += size
        elif kind == "step":
            if seat == 0 and step < fault_step:
                between.append(logged)
            if seat == 0:
                logged = 0
            step += 1
    assert len(between) >= 3 and all(between[1:]), between
