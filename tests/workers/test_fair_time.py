"""Fair time on a noisy machine: a bot is charged for the CPU time it uses, not for the wall
clock, so pausing its processes in the middle of its decisions (SIGSTOP, then SIGCONT 0.8 s
later) costs it nothing, and neither does waiting for a CPU beside processes that burn the
one core it may use: the time it was runnable but not run stretches the wall-clock guard,
read from its cgroup's cpu.pressure or from /proc. The guard still stops a bot that sleeps,
and says so with the figures (CPU, wall, the wait for a CPU). A built-in bot in a match is
judged by the same CPU rule. Each decision's CPU and wall time are in the replay, and a
timeout keeps its evidence (CPU, wall, wait, the machine's load)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
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


PAUSED_DECISIONS = 12  # each one paused, and each over the limit on the wall clock


def test_a_bot_within_its_cpu_limit_is_never_faulted_for_pauses(
    tmp_path: Path, noisy: list[float]
) -> None:
    outcome = play(
        thinker(tmp_path, think=0.3), PAUSED_DECISIONS, LIMITS.override(wall_factor=10.0)
    )
    assert outcome.faults == []
    assert len(noisy) == PAUSED_DECISIONS and all(p >= PAUSE_FOR for p in noisy)
    steps = steps_of(decode(outcome.replay))
    assert len(steps) == PAUSED_DECISIONS
    for step in steps:
        # paused 0.8 s and computed 0.3 s: over the 1 s limit on the wall clock, not in CPU
        assert step["seconds"] >= PAUSE_FOR + 0.25
        assert 0.25 <= step["cpu"] <= step["seconds"]  # its computing, charged; not its pauses
    assert outcome.timing[0]["late"] == 0
    assert (
        outcome.timing[0]["wall"] > outcome.timing[0]["total"] + PAUSED_DECISIONS * PAUSE_FOR - 0.1
    )
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
    # a 2 s guard (2 x the 1 s limit + no bank, the floor lowered to 1 s) for a bot that sleeps
    limits = LIMITS.override(wall_factor=2.0, wall_floor_seconds=1.0)
    outcome = play(thinker(tmp_path, think=0.0, sleep=10.0), 3, limits)
    [fault] = outcome.faults
    assert (fault.kind, fault.step) == (FaultKind.TIMEOUT, 0)
    evidence = fault.evidence
    assert evidence is not None
    # under the CPU limit, so the fault is the ceiling's, whatever the machine's speed; it
    # waited for a CPU far less than it slept
    assert evidence["cpu"] < LIMITS.decision_seconds
    assert evidence["wall"] >= 2.0 + evidence["wait"]
    assert evidence["cpu"] + evidence["wait"] < evidence["wall"] / 2
    # the message names the ceiling and the figures it was judged on, and what they show
    assert "wall-clock ceiling of 2.000 s" in fault.message
    figures = re.search(r"plus the ([\d.]+) s it waited for a CPU; it used ([\d.]+) s of CPU"
                        r" time in ([\d.]+) s of wall-clock time: it slept or blocked$",
                        fault.message)  # fmt: skip
    assert figures is not None, fault.message
    wait, cpu, wall = (float(x) for x in figures.groups())
    assert wait == pytest.approx(evidence["wait"], abs=1e-3)
    assert cpu == pytest.approx(evidence["cpu"], abs=1e-3)
    assert wall == pytest.approx(evidence["wall"], abs=1e-3)


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


PINNED_THINKER = """
import json, os, sys, time
os.sched_setaffinity(0, {CORE})  # the one core the test's burners also use
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        started = time.process_time()
        while time.process_time() - started < THINK:
            pass
        print('{"index": 1}', flush=True)
"""


@contextlib.contextmanager
def burners(core: int, count: int) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``count`` processes that burn CPU on ``core`` alone, for as long as the block runs."""
    code = f"import os\nos.sched_setaffinity(0, {{{core}}})\nwhile True:\n    pass\n"
    procs = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(count)]
    try:
        yield procs
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("source", ["cgroup", "proc"])
def test_an_honest_bot_starved_of_its_cpu_is_never_faulted_and_its_wait_is_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str
) -> None:
    """The bot computes 0.2 s of CPU time per decision (2/3 of its 0.3 s limit, no bank) on
    one core shared with three processes that burn it: it gets about a quarter of the core,
    so each decision lasts several times the 0.3 s wall-clock guard these limits give. It
    was runnable all that time, so it is never faulted, and the wait is recorded per
    decision, from its cgroup's cpu.pressure or, without it, from /proc."""
    from workers.sandbox import cpu_wait
    from workers.sandbox.isolation import cgroup_base

    if source == "cgroup" and cgroup_base() is None:
        pytest.skip("no writable cgroup v2 hierarchy: the wait is read from /proc")
    proc_reads: list[float] = []

    def counted(pids: Any) -> float:
        proc_reads.append(1.0)
        return cpu_wait.threads_run_delay(pids)

    monkeypatch.setattr(sandbox, "threads_run_delay", counted)
    if source == "proc":
        monkeypatch.setattr(sandbox, "parse_cpu_pressure", _unreadable)
    core = min(os.sched_getaffinity(0))
    path = tmp_path / "pinned.py"
    path.write_text(PINNED_THINKER.replace("CORE", str(core)).replace("THINK", "0.2"))
    limits = Limits(decision_seconds=0.3, bank_seconds=0.0, startup_seconds=10.0,
                    wall_factor=1.0, wall_floor_seconds=0.3)  # fmt: skip
    guard = limits.wall_ceiling(0.0)
    with burners(core, 3):
        outcome = play(str(path), 8, limits)
    assert outcome.faults == [], [f.describe() for f in outcome.faults]
    assert (len(proc_reads) > 0) == (source == "proc")  # the source the machine offered
    records = outcome.actions
    assert len(records) == 8 and not any(r.get("default") for r in records)
    assert all(0.19 <= r["cpu"] <= 0.3 for r in records)  # its computing, within the limit
    assert all(r["wait"] > 0 for r in records)
    # it waited for the core a good share of the time it used it (three burners share the
    # core, and the scheduler's own grouping decides how they take turns), and past the guard:
    # only the wait stretching the guard kept these decisions from being stopped
    assert sum(r["wait"] for r in records) > 0.5 * sum(r["cpu"] for r in records)
    assert any(r["seconds"] > guard for r in records)
    assert all(r["seconds"] - r["wait"] <= guard for r in records)
    timing = outcome.timing[0]
    assert timing["late"] == 0 and timing["bank_left"] == 0.0
    assert timing["wait"] == pytest.approx(sum(r["wait"] for r in records), abs=1e-4)


def _unreadable(text: bytes) -> float:
    raise ValueError("cpu.pressure left out by the test")


OVER_CPU = re.compile(r"^used ([\d.]+) s of CPU time; it had ([\d.]+) s \(the decision limit"
                      r" plus what was left of the bank\)$")  # fmt: skip


def test_a_built_in_bot_over_its_cpu_limit_is_faulted_by_the_same_rule() -> None:
    """A built-in search bot that spends 0.25 s of CPU time per decision, in a match whose
    limits allow 0.05 s and a 0.1 s bank, is faulted ``timeout`` with a program's words
    once a decision runs past the limit and the bank; the default policy plays its seat from
    then on and it ranks last."""
    limits = Limits(decision_seconds=0.05, bank_seconds=0.1)
    spec = MatchSpec(mode="duel", seats=(SeatSpec.parse("search-0.25s"), SeatSpec.parse("random")),
                     seed=5, limits=limits)  # fmt: skip
    outcome = run_match(spec)
    [fault] = outcome.faults
    assert (fault.seat, fault.kind) == (0, FaultKind.TIMEOUT)
    words = OVER_CPU.match(fault.message)
    assert words is not None, fault.message
    used, allowed = (float(x) for x in words.groups())
    assert used > allowed and 0.05 <= allowed <= 0.15 + 1e-9
    assert fault.evidence is not None and fault.evidence["cpu"] == pytest.approx(used, abs=1e-3)
    mine = [a for a in outcome.actions if a["seat"] == 0]
    faulted = next(i for i, a in enumerate(mine) if a.get("default"))
    assert mine[faulted]["cpu"] > allowed  # the decision it was judged on, charged
    assert all(a.get("default") for a in mine[faulted:])
    assert not any(a.get("default") for a in mine[:faulted])
    assert outcome.result["ranks"] == [2, 1]
    verify_document(decode(outcome.replay))


def test_the_built_in_search_bots_budgets_fit_the_default_limits() -> None:
    """A built-in bot offered to every league must never fault under the default limits:
    each search bot's CPU budget per decision is within the default decision limit (it stops
    before a playout that would end past its budget; the bank covers the rest)."""
    from engine.bots.names import BUILTIN_BOTS, parse_budget

    budgets = [parse_budget(name) for name in BUILTIN_BOTS]
    assert any(budgets)
    assert all(b is None or b <= Limits().decision_seconds for b in budgets)
