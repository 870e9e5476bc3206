"""The training example's way to a bot: a short training run (examples/training/train_duel.py)
exports a ``python3-numpy`` bundle that loads its weights with NumPy and plays a Duel through
the real sandbox with no fault, choosing at every decision the action the policy chooses in
the Gymnasium environment."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from competition.limits import Limits
from workers.runner import MatchSpec, SeatSpec, run_match
from workers.sandbox.bundles import validate_bundle

ROOT = Path(__file__).resolve().parents[2]
TRAIN = ROOT / "examples" / "training" / "train_duel.py"

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("worker_guard")]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    path = tmp_path_factory.mktemp("policy") / "duel_policy.zip"
    run = subprocess.run(
        [sys.executable, str(TRAIN), "--iterations", "1", "--population", "3", "--games", "1",
         "--eval-games", "2", "--export", str(path), "--json"],
        capture_output=True, text=True, timeout=600, check=True)
    return path, json.loads(run.stdout)


def test_the_short_run_exports_a_python3_numpy_bundle_with_its_weights(bundle) -> None:  # noqa: ANN001
    path, report = bundle
    info = validate_bundle(path)
    assert info.language == "python3-numpy" and info.entrypoint == "main.py"
    with zipfile.ZipFile(path) as archive:
        assert sorted(archive.namelist()) == ["bot.json", "duel_policy.py", "main.py",
                                              "policy.npz"]
        with archive.open("policy.npz") as raw, np.load(raw) as saved:
            weights = saved["weights"]
    assert list(report["weights"].values()) == pytest.approx(weights.tolist(), abs=1e-3)


def test_the_exported_policy_plays_through_the_sandbox_without_fault(bundle) -> None:  # noqa: ANN001
    path, _ = bundle
    limits = Limits(decision_seconds=1.0, bank_seconds=10.0, startup_seconds=20.0,
                    memory_mb=512, processes=24, end_grace_seconds=0.2)
    spec = MatchSpec(mode="duel", seats=(SeatSpec.parse(str(path)), SeatSpec.parse("random")),
                     seed=8, limits=limits, replay=False)  # fmt: skip
    outcome = run_match(spec)
    assert outcome.faults == [], [f.describe() for f in outcome.faults]
    mine = [a for a in outcome.actions if a["seat"] == 0]
    assert len(mine) > 10
    assert all(a.get("note", "").startswith("policy score ") for a in mine)

    # the bot plays what the policy plays in the environment, decision by decision
    sys.path.insert(0, str(TRAIN.parent))
    try:
        from duel_policy import IDS, choose
    finally:
        sys.path.remove(str(TRAIN.parent))
    from engine.env.encoding import encoder
    from engine.modes import new_game

    with zipfile.ZipFile(path) as archive, archive.open("policy.npz") as raw, \
            np.load(raw) as saved:
        weights = saved["weights"]
    game = new_game("duel", 2, 8, {})
    checked = 0
    for entry in outcome.actions:
        seat = entry["seat"]
        action = game.decode_action(entry["action"])
        if seat == 0:
            legal = game.legal_actions(0)
            vec = np.asarray(encoder("duel").encode(game.observation(0)), np.float32)
            assert IDS.decode(choose(weights, vec, IDS.legal_mask(legal))) == action
            checked += 1
        game.apply(seat, action)
    assert checked == len(mine) and game.is_over()
