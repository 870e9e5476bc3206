"""The runner fails closed: a match with bot programs whose spec requires an isolation layer
this machine lacks starts no bot (``IsolationMissing``); built-in bots need no sandbox."""

from __future__ import annotations

import pytest

from engine import ConfigError
from workers.runner import MatchSpec, run_match
from workers.sandbox import bot_process as sandbox
from workers.sandbox.build import build_bundle
from workers.sandbox.isolation import LAYERS, Isolation, IsolationMissing

from .conftest import EXAMPLES, FAST

pytestmark = pytest.mark.usefixtures("worker_guard")
PARTIAL = Isolation(network=True, notes=("pid: test machine without it",))


def _spec(seats: list[str], required: list[str]) -> MatchSpec:
    data = {"mode": "duel", "seats": seats, "seed": 5, "replay": False,
            "require_isolation": required, "limits": FAST.to_json()}  # fmt: skip
    return MatchSpec.from_json(data)


def test_a_missing_required_layer_starts_no_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[object] = []
    monkeypatch.setattr(sandbox.BotSandbox, "__init__", lambda self, *a, **k: opened.append(a))
    spec = _spec([str(EXAMPLES / "random_bot.py"), "random"], ["network", "pid"])
    with pytest.raises(IsolationMissing) as refused:
        run_match(spec, isolation=PARTIAL)
    assert opened == []
    assert str(refused.value) == (
        "refusing to run bots: this worker has no pid isolation, which the deployment requires "
        "(SANDBOX_REQUIRED_ISOLATION); pid: test machine without it"
    )


def test_what_is_there_is_enough_and_built_in_bots_need_no_sandbox() -> None:
    played = run_match(_spec([str(EXAMPLES / "random_bot.py"), "random"], ["network"]),
                       isolation=PARTIAL)  # fmt: skip
    assert played.faults == [] and played.warnings[0] == (
        "bot isolation incomplete: no uid, no filesystem, no pid, no memory isolation"
    )
    builtin = run_match(_spec(["random", "greedy"], ["uid", "pid"]), isolation=Isolation())
    assert builtin.result["scores"] and builtin.warnings == []


def test_a_build_refuses_too() -> None:
    with pytest.raises(IsolationMissing, match="no uid, no filesystem, no pid isolation"):
        build_bundle(b"not even a zip", "bot.zip", isolation=PARTIAL,
                     require_isolation=["uid", "network", "filesystem", "pid"])  # fmt: skip


def test_a_host_without_cgroup_memory_control_is_missing_a_layer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where a bot's children could hold its memory limit many times over, a deployment that
    requires every layer (production's default) starts no bot."""
    opened: list[object] = []
    monkeypatch.setattr(sandbox.BotSandbox, "__init__", lambda self, *a, **k: opened.append(a))
    host = Isolation(uid=True, network=True, filesystem=True, pid=True,
                     notes=("memory: no cgroup v1 memory controller at /sys/fs/cgroup/memory",))
    spec = _spec([str(EXAMPLES / "random_bot.py"), "random"], list(LAYERS))
    with pytest.raises(IsolationMissing, match="this worker has no memory isolation") as refused:
        run_match(spec, isolation=host)
    assert opened == [] and "no cgroup v1 memory controller" in str(refused.value)
    assert "memory" in LAYERS and host.summary() == "bot isolation incomplete: no memory isolation"


def test_an_unknown_layer_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="require_isolation: unknown layer 'chroot'"):
        _spec(["random", "greedy"], ["chroot"])
