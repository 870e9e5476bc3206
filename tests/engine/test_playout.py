"""``Game.playout(rng)``: random moves to the end, as a rollout plays them.

A mode may give ``playout`` a faster loop than the one a caller would write (issue 27's
simulation speed), but it must make the very same draws and moves: from many points of
seeded games of every mode, a playout and the written-out loop (``legal_actions`` of the
first pending seat, ``randbelow`` of its length, ``apply_unchecked``) end with the same
history, events, state hash and result, and leave the generator in the same state.
"""

from __future__ import annotations

import pytest

from engine import new_game
from engine.game import Game
from engine.rng import Rng

GAMES = [
    ("standard", 4, {}),
    ("standard", 3, {}),
    ("standard", 2, {}),
    ("family", 4, {}),
    ("solo", 1, {"difficulty": "expert"}),
    ("duel", 2, {}),
]


def _loop(game: Game, rng: Rng) -> None:
    while not game.is_over():
        seat = game.pending()[0]
        legal = game.legal_actions(seat)
        game.apply_unchecked(seat, legal[rng.randbelow(len(legal))])


@pytest.mark.parametrize(("mode", "seats", "options"), GAMES,
                         ids=[f"{m}-{s}" for m, s, _ in GAMES])
def test_a_playout_makes_the_same_moves_as_the_written_out_loop(mode, seats, options):
    for seed in range(4):
        root = new_game(mode, seats, seed, options)
        walk = Rng(seed, "test:walk")
        stops = 0
        while not root.is_over() and stops < 5:
            fast, slow = root.clone(), root.clone()
            fast.playout(Rng(seed * 100 + stops, "test:playout"))
            slow_rng = Rng(seed * 100 + stops, "test:playout")
            _loop(slow, slow_rng)
            fast_rng = Rng(seed * 100 + stops, "test:playout")
            fast_again = root.clone()
            fast_again.playout(fast_rng)
            assert fast.is_over()
            assert fast.history == slow.history
            assert fast.events == slow.events
            assert fast.state_hash() == slow.state_hash()
            assert fast.result() == slow.result()
            assert fast_rng.randbelow(1 << 30) == slow_rng.randbelow(1 << 30)
            for _ in range(37):  # on to a later point of the same game
                if root.is_over():
                    break
                seat = root.pending()[0]
                legal = root.legal_actions(seat)
                root.apply_unchecked(seat, legal[walk.randbelow(len(legal))])
            stops += 1
        assert stops > 1
