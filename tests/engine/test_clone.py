"""``Game.clone()``: an independent copy that plays on exactly as the original would.

The lean clones of standard, family, solo and Duel (issue 27: search bots clone at every
simulation) must give what ``copy.deepcopy`` gives. At many points of seeded random games a
clone and a deep copy play on with the same random moves, and their events, state hashes,
pending seats, legal actions and observations must agree step by step; playing a clone on
must leave the original untouched; and no mutable object is shared by a clone and its
original (the tiles, actions and tile catalogue entries are immutable and may be).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine import new_game
from engine.actions import Action
from engine.boat import BoatLayout, Tile
from engine.game import Game
from engine.modes.standard.rules import Rules
from engine.modes.standard.state import TileInfo
from engine.rng import Rng

GAMES = [
    ("standard", 4, {}),
    ("standard", 2, {}),
    ("family", 3, {}),
    ("solo", 1, {"difficulty": "expert"}),
    ("duel", 2, {}),
]


def _random_move(game: Game, rng: Rng) -> None:
    seat = game.pending()[0]
    legal = game.legal_actions(seat)
    game.apply_unchecked(seat, legal[rng.randbelow(len(legal))])


def _snapshot(game: Game) -> tuple[Any, ...]:
    pending = game.pending()
    return (game.state_hash(), list(game.events), list(game.history), pending,
            [list(game.legal_actions(s)) for s in pending],
            [game.observation(s) for s in range(game.seats)])


@pytest.mark.parametrize(("mode", "seats", "options"), GAMES)
def test_a_clone_plays_on_as_a_deep_copy_does(mode: str, seats: int,
                                              options: dict[str, Any]) -> None:
    for seed in range(2):
        game = new_game(mode, seats, seed, options)
        rng = Rng(seed, "test:clone:game")
        step = 0
        while not game.is_over():
            if step % 13 == 3:
                cloned, deep = game.clone(), copy.deepcopy(game)
                assert type(cloned) is type(game)
                before = game.state_hash()
                a, b = Rng(step, "test:clone:on"), Rng(step, "test:clone:on")
                for _ in range(25):
                    assert _snapshot(cloned) == _snapshot(deep)
                    if deep.is_over():
                        assert cloned.result() == deep.result()
                        break
                    _random_move(cloned, a)
                    _random_move(deep, b)
                assert game.state_hash() == before
            _random_move(game, rng)
            step += 1


@pytest.mark.parametrize(("mode", "seats", "options"), GAMES)
def test_an_original_played_on_leaves_its_clone_untouched(mode: str, seats: int,
                                                         options: dict[str, Any]) -> None:
    game = new_game(mode, seats, 11, options)
    rng = Rng(11, "test:clone:untouched")
    for _ in range(60):
        _random_move(game, rng)
    cloned = game.clone()
    kept = _snapshot(cloned)
    while not game.is_over():
        _random_move(game, rng)
    assert _snapshot(cloned) == kept


# Values a clone may share with its original: immutable, or never changed once made.
_SHARED_TYPES = (int, str, float, bool, type(None), bytes, Action, Tile, TileInfo,
                 BoatLayout, Rules, frozenset)


def _mutables(root: Any, skip: set[int]) -> dict[int, str]:
    """id -> path of every mutable object reachable from ``root`` (modules, classes,
    functions and immutable values left out)."""
    found: dict[int, str] = {}
    stack: list[tuple[Any, str]] = [(root, "game")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, _SHARED_TYPES) or id(value) in skip or id(value) in found:
            continue
        if isinstance(value, type) or callable(value) and not hasattr(value, "__dict__"):
            continue
        if isinstance(value, tuple):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(value))
            continue
        found[id(value)] = path
        if isinstance(value, dict):
            stack.extend((v, f"{path}[{k!r}]") for k, v in value.items())
        elif isinstance(value, (list, set)):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(value))
        elif hasattr(value, "__dict__"):
            stack.extend((v, f"{path}.{k}") for k, v in vars(value).items())
        if hasattr(type(value), "__slots__"):
            for name in type(value).__slots__:
                if hasattr(value, name):
                    stack.append((getattr(value, name), f"{path}.{name}"))
    return found


@pytest.mark.parametrize(("mode", "seats", "options"), GAMES)
def test_a_clone_shares_no_mutable_object_with_its_original(mode: str, seats: int,
                                                           options: dict[str, Any]) -> None:
    game = new_game(mode, seats, 5, options)
    rng = Rng(5, "test:clone:shared")
    for _ in range(80):
        if game.is_over():
            break
        _random_move(game, rng)
        game.observation(0)  # fill the kept texts, which a clone may share
    cloned = game.clone()
    # event records are never changed once logged: a clone lists the same ones
    events = {id(e) for e in game.events} | {id(game.codec)}
    for event in game.events:
        events |= set(_mutables(event, set()))
    original = _mutables(game, events)
    shared = {path for oid, path in _mutables(cloned, events).items() if oid in original}
    # caches of kept JSON texts hold immutable texts and are never changed in place
    shared = {p for p in shared if not any(k in p for k in ("_text", "_texts"))}
    assert not shared, sorted(shared)[:10]
