"""The JSON caches (issue 16) change no byte of what a seat, a spectator or a hash sees.

Placed tiles keep their cells and JSON text, boats their tiles' text, players, fields and the
supply their last text, and ``protocol_observation`` hands those texts over as ``JSONText``.
Every check compares them with a reference built without any cache: every tile's JSON made
from its mask with ``cells_of``, as before the caches. Seeded random games of every mode are
compared at every step for every seat (observation, protocol observation, spectator view,
state hash), then scenarios reach what random games seldom do: treasures taken off a boat,
cats moved between the fields, a boat's tile list edited by hand.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from engine import Game, new_game
from engine.boat import Boat, Tile, base_layouts, cells_of, mask_of
from engine.bots.random_bot import RandomBot
from engine.jsontext import JSONText, compact, plain, text_of
from tests.engine.standard.helpers import (
    act,
    cat,
    game,
    give,
    put_tile,
    rescue_turn,
    tiles_of,
)

CASES = [("standard", 2), ("standard", 3), ("standard", 4), ("family", 2), ("family", 4),
         ("solo", 1), ("duel", 2)]


def _tile_json_from_scratch(tile: Tile) -> dict[str, Any]:
    return {"kind": tile.kind, "colour": tile.colour, "shape": tile.shape,
            "cells": cells_of(tile.mask), "id": tile.tile_id}


@contextmanager
def _without_caches() -> Iterator[None]:
    """Every view built meanwhile makes each tile's JSON from its mask (the dict path uses no
    other kept text: catalogue tiles, fields and the supply are built afresh)."""
    kept = Tile.to_json
    Tile.to_json = _tile_json_from_scratch  # type: ignore[method-assign]
    try:
        yield
    finally:
        Tile.to_json = kept  # type: ignore[method-assign]


def _from_parts(value: Any) -> str:
    """The JSON of a value rebuilt from the parts of its ``JSONText`` (down to texts without
    parts), so that a text and its parts are checked to say the same."""
    if type(value) is not JSONText:
        return compact(value)
    if value.parts is None:
        return value.text
    if type(value.parts) is list:
        return "[" + ",".join(_from_parts(p) for p in value.parts) + "]"
    return "{" + ",".join(f"{compact(k)}:{_from_parts(v)}" for k, v in value.parts.items()) + "}"


def _protocol_text(view: dict[str, Any]) -> str:
    """The JSON of a protocol observation, its ``JSONText`` values sent as they are; their
    parts must say the same."""
    for key, value in view.items():
        if type(value) is JSONText:
            assert _from_parts(value) == value.text, f"the parts of {key} differ from its text"
    parts = [f"{compact(k)}:{text_of(v)}" for k, v in view.items()]
    return "{" + ",".join(parts) + "}"


def assert_views_match(g: Game, where: str = "") -> int:
    """Every seat's views of ``g`` with the caches equal the ones built without; returns how
    many views were compared."""
    with _without_caches():
        observations = [compact(g.observation(s)) for s in range(g.seats)]
        spectator = compact(g.spectator_view())
        state_hash = g.state_hash()
    for seat, expected in enumerate(observations):
        assert compact(g.observation(seat)) == expected, f"observation of seat {seat} {where}"
        assert _protocol_text(g.protocol_observation(seat)) == expected, (
            f"protocol observation of seat {seat} {where}")
    assert compact(g.spectator_view()) == spectator, f"spectator view {where}"
    assert g.state_hash() == state_hash, f"state hash {where}"
    return 2 * g.seats + 2


def _play_and_compare(mode: str, seats: int, seed: int) -> int:
    g = new_game(mode, seats, seed)
    bots = [RandomBot(s, seed) for s in range(seats)]
    checked, step = 0, 0
    while not g.is_over():
        checked += assert_views_match(g, f"at step {step} of {mode} {seats} seed {seed}")
        seat = g.pending()[0]
        g.apply_unchecked(seat, bots[seat].act(g, seat))
        step += 1
    checked += assert_views_match(g, f"at the end of {mode} {seats} seed {seed}")
    return checked


@pytest.mark.parametrize(("mode", "seats"), CASES)
def test_every_view_of_random_games_is_the_same_as_without_caches(mode: str, seats: int) -> None:
    assert sum(_play_and_compare(mode, seats, seed) for seed in (1, 2, 3)) > 300


def test_the_check_would_catch_a_boat_text_that_is_not_renewed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first: dict[int, JSONText] = {}
    renewed = Boat.tiles_part
    monkeypatch.setattr(Boat, "tiles_part", lambda boat: first.setdefault(id(boat),
                                                                          renewed(boat)))
    with pytest.raises(AssertionError, match="protocol observation"):
        _play_and_compare("standard", 2, 1)


def test_protocol_observations_give_the_big_parts_as_text() -> None:
    g = new_game("standard", 4, 7)
    view = g.protocol_observation(1)
    assert {k for k, v in view.items() if type(v) is JSONText} == {
        "fields", "supply", "players", "you"}
    assert list(view) == list(g.observation(1))
    assert plain(view) == g.observation(1)
    assert type(view["players"].parts) is list and type(view["you"].parts) is dict
    assert view["you"].parts["tiles"] is g.state.players[1].boat.tiles_part()
    duel = new_game("duel", 2, 7)
    assert duel.protocol_observation(0) == duel.observation(0)  # the default: no texts


def test_treasures_taken_off_a_boat_leave_its_text() -> None:
    g = game(2, 3)
    seat = rescue_turn(g, left=(cat(g, "red", "cat_01"),))
    rare, common = tiles_of(g, "rare_treasure")[0], tiles_of(g, "common_treasure")[0]
    put_tile(g, seat, cat(g, "red", "cat_09"))
    put_tile(g, seat, rare)
    put_tile(g, seat, common)
    g.state_changed()
    assert_views_match(g, "with the treasures on the boat")
    give(g, seat, 88)
    act(g, seat, "play", 88)
    act(g, seat, "remove_treasures", (rare, common))
    assert [t.tile_id for t in g.state.players[seat].boat.tiles if t.colour is None] == []
    assert_views_match(g, "after the treasures left the boat")


def test_cats_moved_between_the_fields_move_in_its_text() -> None:
    g = game(2, 4)
    cats = [cat(g, "blue", f"cat_0{i}") for i in range(1, 5)]
    seat = rescue_turn(g, left=cats[:2], right=cats[2:])
    give(g, seat, 77)
    act(g, seat, "play", 77)
    assert_views_match(g, "before the moves")
    for side in ("right", "left", "left"):
        act(g, seat, "move_cat", side, 0)
        assert_views_match(g, f"after moving a {side} cat")
    assert g.state.fields.side("left") == [cats[2]]


def test_a_boat_text_follows_tiles_placed_removed_or_edited_by_hand() -> None:
    boat = Boat(base_layouts()["blue"])
    assert boat.tiles_text() == "[]"
    a = Tile("cat", "red", "cat_01", mask_of([[4, 4], [5, 4]]), 1)
    b = Tile("common_treasure", None, "monomino", mask_of([[6, 4]]), 2)
    for change in (lambda: boat.place(a), lambda: boat.place(b), lambda: boat.remove(a),
                   lambda: boat.tiles.append(a), lambda: boat.tiles.reverse(),
                   lambda: boat.tiles.clear()):
        before = boat.tiles_text()
        change()
        assert boat.tiles_text() == compact([_tile_json_from_scratch(t) for t in boat.tiles])
        assert boat.tiles_text() != before


def test_tile_json_is_fresh_and_copies_share_the_tile() -> None:
    tile = Tile("oshax", "green", "oshax_1", mask_of([[2, 3], [3, 3]]), 4)
    first = tile.to_json()
    first["cells"][0][0] = 99
    first["colour"] = "red"
    assert tile.to_json() == _tile_json_from_scratch(tile)
    assert tile.json_text == compact(_tile_json_from_scratch(tile))
    assert copy.deepcopy(tile) is tile
    with pytest.raises(AttributeError):
        tile.colour = "red"  # type: ignore[misc]


def test_player_text_follows_its_values_and_the_snapshot_overlay() -> None:
    g = game(2, 5)
    p = g.state.players[0]

    def expected(private: bool, overlay: dict[str, Any] | None = None) -> str:
        with _without_caches():
            view = p.to_json(private=private)
        return compact({**view, **(overlay or {})})

    for _ in range(2):
        assert p.json_text(private=False) == expected(False)
        assert p.json_text(private=True) == expected(True)
        assert p.json_text(private=False, overlay={"fish": 40}) == expected(False, {"fish": 40})
        p.fish += 1
        p.hand.append(130)
        p.revealed_rescue.append(8)
