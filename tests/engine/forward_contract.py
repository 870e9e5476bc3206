"""The forward model's contract, which each mode's determinization is held to
(tests/engine/<mode>/test_determinize.py): from one seat's observation it builds a game that
shows the seat exactly that observation and offers the same legal actions, while what the
seat cannot see is sampled afresh for each rng seed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from engine import Game, new_game
from engine.bots.random_bot import RandomBot
from engine.forward import determinize
from engine.rng import Rng

SAMPLES = 4  # determinizations of each observation
ENOUGH_HIDDEN = 6  # bag and deck together: more tiles and cards than this must be reordered


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _decisions(mode: str, seats: int, seed: int, every: int) -> Iterator[tuple[Game, int]]:
    """Every ``every``-th (game, seat asked) of a game between random bots."""
    options = {"difficulty": "easy"} if mode == "solo" else {}
    game = new_game(mode, seats, seed, options)
    bots = [RandomBot(s, seed) for s in range(seats)]
    n = 0
    while not game.is_over():
        for seat in game.asked_together():
            if n % every == 0:
                yield game, seat
            n += 1
        seat = game.pending()[0]
        game.apply_unchecked(seat, bots[seat].act(game, seat))


def check_contract(mode: str, seats: int, hidden: Callable[[Game, int], dict[str, Any]], *,
                   games: int = 2, every: int = 7) -> int:
    """Hold ``mode``'s determinization to the contract over ``games`` seeded games, at
    every ``every``-th decision. ``hidden(world, seat)`` names the parts the seat cannot
    see: together they must differ between samples wherever the bag and the deck hold
    ``ENOUGH_HIDDEN`` items, and each must differ between samples somewhere. Returns the
    number of observations checked."""
    checked = 0
    varied: set[str] = set()
    for seed in range(games):
        for game, seat in _decisions(mode, seats, seed, every):
            observation = _json(game.observation(seat))
            start = {"type": "start", "mode": mode, "seat": seat, "seats": seats,
                     "options": dict(game.options)}
            decide = {"type": "decide", "observation": observation}
            parts = []
            for i in range(SAMPLES):
                world = determinize(start, decide, Rng(i, "contract"))
                assert world.mode == mode and world.seats == seats
                assert _json(world.observation(seat)) == observation, (seed, checked, i)
                assert list(world.legal_actions(seat)) == list(game.legal_actions(seat))
                parts.append(hidden(world, seat))
            for name in parts[0]:
                if len({repr(p[name]) for p in parts}) > 1:
                    varied.add(name)
            if observation["bag_count"] + observation["deck_count"] >= ENOUGH_HIDDEN:
                assert len({repr(p) for p in parts}) > 1, ("not resampled", seed, checked)
            checked += 1
    assert varied == set(parts[0]), f"never resampled: {set(parts[0]) - varied}"
    return checked
