"""``StandardGame.clone`` (a lean copy, engine/modes/standard/clone.py) behaves as a deep copy:
from states all through games of standard, family and solo, a clone and a ``copy.deepcopy``
played on with the same random actions reach the same states, and the original is untouched."""

from __future__ import annotations

import copy

import pytest

from engine import new_game
from engine.rng import Rng


@pytest.mark.parametrize(("mode", "seats"), [("standard", 4), ("standard", 2), ("family", 3),
                                             ("solo", 1)])
def test_a_clone_plays_on_like_a_deep_copy(mode: str, seats: int) -> None:
    for seed in range(3):
        game = new_game(mode, seats, seed)
        rng = Rng(seed, "clone")
        step = 0
        while not game.is_over():
            if step % 37 == 0:
                before = game.state_hash()
                lean, deep = game.clone(), copy.deepcopy(game)
                assert lean.state_hash() == before
                moves = Rng(step, "on")
                for _ in range(60):
                    if deep.is_over():
                        break
                    seat = deep.pending()[0]
                    assert lean.pending()[0] == seat
                    legal = deep.legal_actions(seat)
                    assert list(lean.legal_actions(seat)) == list(legal)
                    action = legal[moves.randbelow(len(legal))]
                    deep.apply(seat, action)
                    lean.apply(seat, action)
                    assert lean.state_hash() == deep.state_hash()
                assert game.state_hash() == before  # the original is untouched
            seat = game.pending()[0]
            legal = game.legal_actions(seat)
            game.apply_unchecked(seat, legal[rng.randbelow(len(legal))])
            step += 1
