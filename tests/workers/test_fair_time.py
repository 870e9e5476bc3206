"""Fair time on a noisy machine: a bot is charged for the CPU time it uses, not for the wall
clock, so pausing its processes in the middle of its decisions (SIGSTOP, then SIGCONT 0.8 s
later, as a busy machine does) costs it nothing; the wall-clock ceiling still stops a bot
that sleeps. Each decision's CPU and wall time are in the replay, and a timeout keeps its
evidence (CPU, wall, the machine's load)."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from competition.faults import FaultKind
from competition.limits import Limits
from replayfile.format import decode, steps_of
from replayfile.verify import verify_document
from workers.runner import MatchSpec, SeatSpec, run_match
from workers.sandbox import bot_process as sandbox

from .conftest import HOSTILE

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("worker_guard", "tiny_mode")]

PAUSE_AFTER = 0.1  # seconds into a decision
PAUSE_FOR = 0.8
# A 1 s limit and no bank. The wall-clock ceiling is far in test (a) because on a busy
# 2-core machine 0.3 s of CPU can take seconds of wall clock, and that is the point.
LIMITS = Limits(decision_seconds=1.0, bank_seconds=0.0, startup_seconds=10.0)


def thinker(tmp_path: Path, think: float = 0.3, sleep: float = 0.0) -> str:
    source = (HOSTILE / "thinker.py").read_text()
    source = source.replace("THINK = 0.3", f"THINK = {think}").replace(
        "SLEEP = 0.0", f"SLEEP = {sleep}"
    )
    path = tmp_path / "thinker.py"
    path.write_text(source)
    return str(path)


def _signal_all(pids: list[int], sig: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)


@pytest.fixture
def noisy(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """Every decision (a ``decide`` message) is paused PAUSE_FOR seconds after PAUSE_AFTER:
    all the bot's processes are stopped, then continued. Yields the pauses made."""
    original = sandbox.BotProcess.finish
    pauses: list[float] = []

    def finish(self: sandbox.BotProcess, *args: Any, **kw: Any) -> Any:
        asked = self._ask
        if asked is None or not asked.view[:16].tobytes().startswith(b'{"type":"decide"'):
            return original(self, *args, **kw)  # the start, not a decision
        done = threading.Event()

        def pause() -> None:
            if done.wait(PAUSE_AFTER):
                return
            pids = self.processes()
            _signal_all(pids, signal.SIGSTOP)
            stopped = time.monotonic()
            done.wait(PAUSE_FOR)
            time.sleep(max(0.0, PAUSE_FOR - (time.monotonic() - stopped)))
            _signal_all(pids, signal.SIGCONT)
            pauses.append(time.monotonic() - stopped)

        thread = threading.Thread(target=pause)
        thread.start()
        try:
            return original(self, *args, **kw)
        finally:
            done.set()
            thread.join()

    monkeypatch.setattr(sandbox.BotProcess, "finish", finish)
    yield pauses


def play(bundle: str, decisions: int, limits: Limits) -> Any:
    spec = MatchSpec(
        mode="tiny", seats=(SeatSpec(bundle_path=bundle),), seed=5,
        options={"rounds": decisions}, limits=limits,
    )  # fmt: skip
    return run_match(spec)


def test_a_bot_within_its_cpu_limit_is_never_faulted_for_pauses(
    tmp_path: Path, noisy: list[float]
) -> None:
    outcome = play(thinker(tmp_path, think=0.3), 30, LIMITS.override(wall_factor=10.0))
    assert outcome.faults == []
    assert len(noisy) == 30 and all(p >= PAUSE_FOR for p in noisy)
    steps = steps_of(decode(outcome.replay))
    assert len(steps) == 30
    for step in steps:
        # paused 0.8 s and computed 0.3 s: over the 1 s limit on the wall clock, not in CPU
        assert step["seconds"] >= PAUSE_FOR + 0.25
        assert 0.25 <= step["cpu"] <= step["seconds"]  # its computing, charged; not its pauses
    assert outcome.timing[0]["late"] == 0
    assert outcome.timing[0]["wall"] > outcome.timing[0]["total"] + 30 * PAUSE_FOR - 0.1
    verify_document(decode(outcome.replay))


def test_a_bot_over_its_cpu_limit_is_faulted_at_its_first_decision(
    tmp_path: Path, noisy: list[float]
) -> None:
    outcome = play(thinker(tmp_path, think=1.5), 5, LIMITS.override(wall_factor=10.0))
    [fault] = outcome.faults
    assert (fault.kind, fault.step) == (FaultKind.TIMEOUT, 0)
    assert "CPU time" in fault.message
    assert fault.evidence is not None
    assert 1.0 < fault.evidence["cpu"] < 1.5
    assert fault.evidence["wall"] >= fault.evidence["cpu"]
    assert len(fault.evidence["load"]) == 3
    faults = decode(outcome.replay)["faults"]
    assert faults[0]["evidence"] == fault.evidence
    verify_document(decode(outcome.replay))


def test_a_sleeping_bot_is_faulted_by_the_wall_clock_ceiling(
    tmp_path: Path, noisy: list[float]
) -> None:
    outcome = play(thinker(tmp_path, think=0.0, sleep=10.0), 3, LIMITS)
    [fault] = outcome.faults
    assert (fault.kind, fault.step) == (FaultKind.TIMEOUT, 0)
    # 2 x the 1 s limit + no bank: and the message says what the bot did
    assert "wall-clock ceiling of 2.000 s" in fault.message and "slept or blocked" in fault.message
    assert fault.evidence is not None
    # under the CPU limit, so the fault is the ceiling's, whatever the machine's speed
    assert fault.evidence["wall"] >= 2.0 and fault.evidence["cpu"] < LIMITS.decision_seconds


def test_a_bot_that_uses_up_the_seats_wall_budget_is_faulted_and_the_match_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from competition import limits as limits_module

    # the tiny mode's bound: 4 decisions, so a seat's wall budget is 4 x 0.5 s (no bank)
    monkeypatch.setattr(limits_module, "_decisions", lambda: {"tiny": 4})
    limits = Limits(decision_seconds=0.5, bank_seconds=0.0, startup_seconds=10.0)
    assert limits_module.seat_wall_budget("tiny", limits) == 2.0
    # sleeps 0.6 s a decision: under the 1 s wall-clock ceiling and no CPU to speak of,
    # but the fourth decision runs out of the match's budget
    outcome = play(thinker(tmp_path, think=0.0, sleep=0.6), 6, limits)
    [fault] = outcome.faults
    assert fault.kind == FaultKind.TIMEOUT and "wall-clock time in this match" in fault.message
    # true of what it did: it slept, and no "s left" beside "used its budget"
    assert "slept or blocked" in fault.message and "left" not in fault.message
    assert 1 <= fault.step <= 3  # by its fourth decision (one seat: step = decision)
    assert len(outcome.actions) == 6 and outcome.result["scores"] is not None
    assert all(a.get("default") for a in outcome.actions[fault.step :])


def test_cpu_time_comes_from_the_bots_cgroup_where_the_machine_has_cgroup_v2(
    tmp_path: Path,
) -> None:
    from workers.sandbox.isolation import cgroup_base

    if cgroup_base() is None:
        pytest.skip("no writable cgroup v2 hierarchy: CPU time is read from /proc")
    with sandbox.BotSandbox(thinker(tmp_path, think=0.3)) as box:
        process = box.start()
        cgroup = process.plan.cgroup
        assert cgroup is not None and Path(cgroup, "cpu.stat").exists()
        process.exchange(b'{"type": "start"}\n', 10.0)
        process.exchange(b'{"type": "decide"}\n', 30.0, cpu_limit=5.0)
        assert 0.29 <= process.last_cpu < 1.0
        pids = {int(p) for p in Path(cgroup, "cgroup.procs").read_text().split()}
        assert process.pid in pids  # the launcher and everything it starts
    assert not Path(cgroup).exists()  # removed with the sandbox


def test_the_cgroup_hierarchy_favours_dynamic_moves_when_the_worker_may_set_it() -> None:
    """Each bot start moves a process into a cgroup; without ``favordynmods`` every move waits
    for an RCU grace period (10-20 ms a bot). As root the sandbox sets it, unless
    ``ISLE_CGROUP_FAVORDYNMODS=0``."""
    from workers.sandbox.isolation import _mount_options, cgroup_base, favor_dynamic_moves

    base = cgroup_base()
    if base is None or os.geteuid() != 0:
        pytest.skip("no writable cgroup v2 hierarchy as root")
    root = str(base.parent)
    if favor_dynamic_moves(root):
        options = _mount_options(root)
        assert options is not None and options[0] == "cgroup2" and "favordynmods" in options[1]
    else:  # an older kernel refuses the option: the hierarchy is left as it was
        options = _mount_options(root)
        assert options is not None and "favordynmods" not in options[1]


def test_the_opt_out_leaves_the_cgroup_mount_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from workers.sandbox import isolation

    calls: list[tuple] = []
    monkeypatch.setattr(isolation, "_mount", lambda *a: calls.append(a))
    monkeypatch.setenv("ISLE_CGROUP_FAVORDYNMODS", "0")
    assert isolation.favor_dynamic_moves("/sys/fs/cgroup") is False
    assert calls == []


DETACHING = b"""
import os, signal, sys, time
if os.fork() == 0:  # a grandchild in a session of its own, deaf to every signal it can ignore
    os.setsid()
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_IGN)
    time.sleep(600)
    os._exit(0)
sys.stdin.readline()
print('{"ready": true}', flush=True)
time.sleep(600)
"""


def test_closing_a_sandbox_leaves_no_process_and_releases_its_uid_clean(tmp_path: Path) -> None:
    """Close kills the bot through its cgroup (no fork of the worker to sweep the uid) when
    the machine has one, else by its uid: either way nothing of the bot survives, and the
    uid's lock file says clean so its next holder need not sweep it."""
    from workers.sandbox.isolation import uid_processes

    with sandbox.BotSandbox(DETACHING, "detach.py") as box:
        process = box.start()
        process.exchange(b'{"type": "start"}\n', 10.0)
        uid, root = box.uid, sandbox.sandbox_root()
    if uid is None:
        pytest.skip("bots run as our own uid here")
    assert uid_processes(uid) == []
    assert (root / "uids" / str(uid)).read_bytes().strip() == b"clean"
