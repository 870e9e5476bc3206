"""Determinism: the same config, seed and actions give the same game, in this process, in a
fresh interpreter, and as recorded in golden_scores.json (final scores and state hashes of
fixed seeds with random bots), so that an accidental rule change shows.

Regenerate the golden file only on purpose, after a deliberate rule change (and bump
engine/version.py): ``REGEN_GOLDEN=1 pytest tests/engine/standard/test_determinism.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine import new_game
from engine.bots import make_bot
from engine.play import play_game

GOLDEN = Path(__file__).with_name("golden_scores.json")
REPO = Path(__file__).resolve().parents[3]
CASES = [(seats, seed) for seats in (2, 3, 4) for seed in (1, 2, 3)]


def random_game(seats: int, seed: int) -> tuple[list[int], str, list]:
    game = new_game("standard", seats, seed)
    bots = [make_bot("random", "standard", s, seed) for s in range(seats)]
    play_game(game, bots)
    result = game.result()
    return result["scores"], result["state_hash"], list(game.history)


def test_same_seed_and_actions_give_the_same_state_hash_at_every_step() -> None:
    _, final_hash, history = random_game(3, 42)
    a, b = new_game("standard", 3, 42), new_game("standard", 3, 42)
    for i, (seat, action) in enumerate(history):
        a.apply_unchecked(seat, action)
        b.apply(seat, action)
        if i % 25 == 0:
            assert a.state_hash() == b.state_hash()
    assert a.state_hash() == b.state_hash() == final_hash


def test_a_different_seed_gives_a_different_game() -> None:
    assert random_game(2, 1)[1] != random_game(2, 2)[1]


def test_a_fresh_interpreter_gives_the_same_hash() -> None:
    scores, state_hash, _ = random_game(4, 7)
    code = (
        "from engine import new_game\n"
        "from engine.bots import make_bot\n"
        "from engine.play import play_game\n"
        "g = new_game('standard', 4, 7)\n"
        "play_game(g, [make_bot('random', 'standard', s, 7) for s in range(4)])\n"
        "print(g.result()['state_hash'])\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True,
                         text=True, check=True, timeout=120)
    assert out.stdout.strip() == state_hash


def test_golden_scores_and_hashes() -> None:
    got = {f"{seats}p-seed{seed}": dict(zip(("scores", "state_hash"), random_game(seats, seed)[:2],
                                             strict=True))
           for seats, seed in CASES}
    if os.environ.get("REGEN_GOLDEN"):
        GOLDEN.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    golden = json.loads(GOLDEN.read_text())
    assert got == golden, "the rules changed: regenerate golden_scores.json only on purpose"
