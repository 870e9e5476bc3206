"""Property tests: hundreds of seeded solo games over the five difficulties with the
invariants after every action, and determinism (also in a fresh process)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.modes.solo.sister import difficulties

from .helpers import check_invariants, play_random, solo

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("difficulty", difficulties())
def test_invariants_hold_after_every_action(difficulty: str) -> None:
    for seed in range(60):  # 300 games over the five difficulties
        game = play_random(solo(seed, difficulty), seed, after=check_invariants)
        result = game.result()
        assert len(game.sister.colours_revealed) == 5
        assert result["margin"] == result["scores"][0] - result["sister"]["total"]


def test_same_seed_and_actions_give_the_same_hash_also_in_a_fresh_process() -> None:
    game = play_random(solo(41, "expert"), 41)
    actions = [game.encode_action(a) for _, a in game.history]
    again = solo(41, "expert")
    for action in actions:
        again.apply(0, action)
    assert again.state_hash() == game.state_hash()
    assert again.events == game.events
    script = (
        "import json, sys\n"
        "from engine import new_game\n"
        "g = new_game('solo', 1, 41, {'difficulty': 'expert'})\n"
        "for a in json.load(sys.stdin): g.apply(0, a)\n"
        "print(g.state_hash())\n"
    )
    out = subprocess.run([sys.executable, "-c", script], input=json.dumps(actions),
                         capture_output=True, text=True, cwd=REPO, check=True)
    assert out.stdout.strip() == game.state_hash()


def test_the_state_hash_sees_the_sister() -> None:
    a, b = solo(3, "easy"), solo(3, "expert")
    assert a.state.bag == b.state.bag  # same table...
    assert a.state_hash() != b.state_hash()  # ...but not the same sister


@pytest.mark.parametrize("difficulty", difficulties())
def test_the_greedy_bot_plays_solo_legally(difficulty: str) -> None:
    from engine.bots import make_bot

    for seed in range(3):
        game = solo(seed, difficulty)
        bot = make_bot("greedy", "solo", 0, seed)
        while not game.is_over():
            game.apply(0, game.encode_action(bot.act(game, 0)))  # the checked path
            check_invariants(game)
        assert game.result()["scores"][0] > -60
