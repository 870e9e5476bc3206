"""One memory limit per bot, whatever it forks: a bot whose children together hold more than
its limit is faulted ``memory`` (never a crash, never nothing), ranks last, and its cgroup
never held more than the limit; the limit is a cgroup's (v1 on a hybrid host, v2 where the
unified hierarchy has the memory controller), set up and torn down with the bot."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from competition.faults import FaultKind
from competition.limits import Limits
from workers.runner import MatchOutcome, MatchSpec, SeatSpec, run_match
from workers.sandbox import memory_cgroup
from workers.sandbox.bot_process import BotSandbox, sweep_leftovers
from workers.sandbox.isolation import Isolation, LaunchPlan, cgroup_base
from workers.sandbox.memory_cgroup import (
    BotMemory,
    MemoryControl,
    find_memory_control,
    parse_oom_kills,
)

from .conftest import FAST, hostile, make_zip

MIB = 1024 * 1024
MARGIN = 4 * MIB  # what the kernel may charge past a limit while it reclaims (a few pages)
ROUNDS = 8


@pytest.fixture(params=["forkserver", "exec"])
def python_launcher(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The bot both ways: forked by the Python fork server and exec'd: each path must put
    its first process into the memory cgroup before the bot runs."""
    monkeypatch.setenv("ISLE_PYTHON_FORKSERVER", "1" if request.param == "forkserver" else "0")
    return request.param


@pytest.fixture
def memory_layer(isolation: Isolation) -> Isolation:
    if not isolation.memory:
        pytest.skip(f"SKIPPED LOUDLY: no cgroup memory limit here ({'; '.join(isolation.notes)})")
    return isolation


def hoarder(tmp_path: Path, children: int, mb: int) -> str:
    source = Path(hostile("fork_hoard")).read_text()
    source = source.replace("CHILDREN = 6", f"CHILDREN = {children}").replace(
        "MB = 100", f"MB = {mb}")  # fmt: skip
    return str(make_zip(tmp_path / "hoarder.zip", {"main.py": source}))


def play(bundle: str, limits: Limits) -> MatchOutcome:
    spec = MatchSpec(
        mode="tiny", seats=(SeatSpec.parse(bundle), SeatSpec.parse("random")), seed=3,
        options={"rounds": ROUNDS}, limits=limits, replay=False,
    )  # fmt: skip
    return run_match(spec)


def assert_memory_fault(outcome: MatchOutcome, limit_mb: int) -> None:
    """Seat 0 is faulted for memory at its first decision, with the limit in its message and
    the cgroup's peak in its evidence, and ranks last."""
    assert [(f.seat, f.kind) for f in outcome.faults] == [(0, FaultKind.MEMORY)], outcome.faults
    fault = outcome.faults[0]
    assert fault.message == f"the bot and its children held more than {limit_mb} MiB"
    assert f"memory: {fault.message}" == "memory: " + memory_cgroup.held_too_much(limit_mb)
    assert fault.decision == 1
    evidence = fault.evidence
    assert evidence is not None and evidence["oom_kills"] >= 1
    assert evidence["limit_bytes"] == limit_mb * MIB
    # the kernel held the bot and all its children together under the limit
    assert evidence["peak_bytes"] is not None
    assert evidence["peak_bytes"] <= limit_mb * MIB + MARGIN
    assert outcome.seats[0]["fault"] == "memory"
    assert [s["rank"] for s in outcome.seats] == [2, 1]
    assert outcome.result["faulted"] == [0]
    assert len(outcome.actions) == ROUNDS * 2  # the match finished, the seat on its default


# CPU time enough for the children's page faults: the memory limit is what must stop the bot.
ROOMY = FAST.override(decision_seconds=20.0, bank_seconds=0.0)


@pytest.mark.slow
@pytest.mark.usefixtures("worker_guard", "tiny_mode", "python_launcher")
def test_children_holding_more_than_the_limit_together_are_a_memory_fault(
    tmp_path: Path, memory_layer: Isolation
) -> None:
    # Six children of 100 MB: each far under the 256 MiB per-process limit, 600 MB together.
    outcome = play(hoarder(tmp_path, 6, 100), ROOMY.override(memory_mb=256))
    assert_memory_fault(outcome, 256)


@pytest.mark.slow
@pytest.mark.usefixtures("worker_guard", "tiny_mode")
def test_six_children_of_400_mb_under_the_default_512_mib(
    tmp_path: Path, memory_layer: Isolation
) -> None:
    """The attack as found: 2.4 GB in six children, each under its own address-space limit.
    (One launcher, the default fork server: the 100 MB case runs both.)"""
    outcome = play(hoarder(tmp_path, 6, 400), ROOMY.override(memory_mb=Limits().memory_mb))
    assert_memory_fault(outcome, 512)


@pytest.mark.slow
@pytest.mark.usefixtures("worker_guard", "tiny_mode", "python_launcher")
def test_children_within_the_limit_together_play_on(
    tmp_path: Path, memory_layer: Isolation
) -> None:
    outcome = play(hoarder(tmp_path, 3, 40), ROOMY.override(memory_mb=256))
    assert outcome.faults == []


@pytest.mark.usefixtures("worker_guard", "python_launcher")
def test_the_bots_cgroups_hold_its_limits_and_go_with_it(
    tmp_path: Path, memory_layer: Isolation, python_launcher: str
) -> None:
    bundle = make_zip(tmp_path / "idle.zip", {"main.py": "import sys\nsys.stdin.read()\n"})
    limits = Limits(memory_mb=200, processes=12)
    with BotSandbox(str(bundle), limits=limits, isolation=memory_layer) as box:
        process = box.start()
        memory = process.memory
        assert memory is not None and memory.limit_bytes == 200 * MIB
        if memory.control.version == 1:
            folders = memory.joins
            assert len(folders) == 2 if memory.control.pids_base else len(folders) == 1
            assert Path(folders[0], "memory.limit_in_bytes").read_text().strip() == str(200 * MIB)
            memsw = Path(folders[0], "memory.memsw.limit_in_bytes")
            if memsw.exists():
                assert memsw.read_text().strip() == str(200 * MIB)
            if memory.control.pids_base:
                assert Path(folders[1], "pids.max").read_text().strip() == "13"
        else:
            folders = (memory.folder,)
            assert Path(memory.folder, "memory.max").read_text().strip() == str(200 * MIB)
        for folder in folders:  # the bot itself is in each
            assert str(process.pid) in Path(folder, "cgroup.procs").read_text().split()
        assert memory.oom_kills() == 0 and process.memory_fault(0.0) is None
    assert not any(Path(folder).exists() for folder in folders)


# --- the choice of hierarchy, on a fake cgroup file system -----------------------------------


def fake_v1(root: Path, own: str = "/worker") -> Path:
    """A hybrid host's v1 memory and pids hierarchies, the worker in ``own`` in each."""
    for controller, files in (("memory", ["memory.limit_in_bytes"]), ("pids", ["pids.max"])):
        folder = root / controller / own.strip("/")
        folder.mkdir(parents=True)
        for name in files:
            (root / controller / name).write_text("max\n")
    (root / "self-cgroup").write_text(f"8:pids:{own}\n4:memory:{own}\n1:cpu:/\n0::/\n")
    return root / "self-cgroup"


def test_a_hybrid_host_uses_v1_under_the_workers_own_cgroup(tmp_path: Path) -> None:
    proc = fake_v1(tmp_path)
    control = find_memory_control(None, str(tmp_path), str(proc))
    assert control == MemoryControl(
        version=1,
        memory_base=tmp_path / "memory/worker/isle-arena",
        pids_base=tmp_path / "pids/worker/isle-arena",
    )


def test_v2_with_the_memory_controller_is_preferred_and_enabled(tmp_path: Path) -> None:
    proc = fake_v1(tmp_path / "v1")
    root = tmp_path / "unified"
    (root / "isle-arena").mkdir(parents=True)
    (root / "cgroup.controllers").write_text("cpu io memory pids\n")
    for folder in (root, root / "isle-arena"):
        (folder / "cgroup.subtree_control").write_text("cpu\n")
    control = find_memory_control(root / "isle-arena", str(tmp_path / "v1"), str(proc))
    assert control == MemoryControl(version=2, memory_base=root / "isle-arena")
    # (a real cgroup.subtree_control adds what is written; this file only keeps the write)
    assert (root / "isle-arena/cgroup.subtree_control").read_text() == "+memory +pids"


def test_v2_without_the_memory_controller_falls_back_to_v1_or_says_why(tmp_path: Path) -> None:
    root = tmp_path / "unified"
    (root / "isle-arena").mkdir(parents=True)
    (root / "cgroup.controllers").write_text("cpu io\n")
    proc = fake_v1(tmp_path / "v1")
    control = find_memory_control(root / "isle-arena", str(tmp_path / "v1"), str(proc))
    assert isinstance(control, MemoryControl) and control.version == 1
    (tmp_path / "no-v1").mkdir()
    (tmp_path / "self").write_text("0::/\n")
    why = find_memory_control(root / "isle-arena", str(tmp_path / "no-v1"), str(tmp_path / "self"))
    assert why == (
        f"cgroup v2 at {root} has no memory or pids controller; "
        f"no cgroup v1 memory controller at {tmp_path / 'no-v1' / 'memory'}"
    )


def test_v2_limits_are_written_into_the_bots_own_folder(tmp_path: Path) -> None:
    folder = tmp_path / "bot-1-ab"
    folder.mkdir()
    for name in ("memory.swap.max", "memory.oom.group", "memory.events", "memory.peak"):
        (folder / name).write_text("")
    (folder / "memory.events").write_text("low 0\nhigh 0\nmax 7\noom 1\noom_kill 2\n")
    (folder / "memory.peak").write_text(f"{300 * MIB}\n")
    control = MemoryControl(version=2, memory_base=tmp_path)
    memory = BotMemory(control, folder.name, 300, 32, str(folder))
    try:
        assert (folder / "memory.max").read_text() == str(300 * MIB)
        assert (folder / "memory.swap.max").read_text() == "0"
        assert (folder / "memory.oom.group").read_text() == "1"
        assert (folder / "pids.max").read_text() == "33"
        assert memory.joins == ()  # the bot joins its v2 folder anyway (CPU time)
        assert memory.evidence() == {"peak_bytes": 300 * MIB, "limit_bytes": 300 * MIB,
                                     "oom_kills": 2}  # fmt: skip
    finally:
        memory.remove()
    assert folder.exists()  # removed with the CPU cgroup, not here


def test_oom_kills_are_read_from_either_version() -> None:
    assert parse_oom_kills(b"oom_kill_disable 0\nunder_oom 0\noom_kill 3\n") == 3  # v1
    assert parse_oom_kills(b"low 0\nhigh 0\nmax 2\noom 2\noom_kill 1\noom_group_kill 0\n") == 1
    with pytest.raises(ValueError):
        parse_oom_kills(b"oom_kill_disable 0\n")


def test_a_plan_carries_its_cgroups_to_the_fork_server() -> None:
    plan = LaunchPlan(command=("true",), workdir="/tmp", limits=Limits(),
                      isolation=Isolation(memory=True), joins=("/a", "/b"))  # fmt: skip
    again = LaunchPlan.from_json(plan.to_json())
    assert again == plan and again.joins == ("/a", "/b")


def test_the_memory_cgroups_of_dead_workers_are_swept(memory_layer: Isolation) -> None:
    control = memory_cgroup.memory_control(cgroup_base())
    assert isinstance(control, MemoryControl)
    if control.version != 1:
        pytest.skip("v2: the bot's one folder is the CPU cgroup's, swept with it")
    dead = control.memory_base / "seat0-999999999-abcdef012345"  # no such pid
    alive = control.memory_base / f"seat1-{os.getpid()}-abcdef012345"
    for folder in (dead, alive):
        folder.mkdir()
    try:
        sweep_leftovers()
        assert not dead.exists() and alive.exists()
    finally:
        for folder in (dead, alive):
            memory_cgroup.remove_v1(str(folder))
