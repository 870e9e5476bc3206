"""The game's data (``engine.game_data``) says what the engine plays: random games of every
mode only ever show cards it lists, place tiles on the cells of the boats it lists in one of
the orientations it lists for the tile's shape, and move the Duel's Oshax along its island."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine import ENGINE_VERSION, ConfigError, new_game
from engine.game_data import (
    GAME_DATA_MODES,
    game_data,
    game_data_schema,
    game_data_text,
)
from engine.jsontext import compact

SEATS = {"standard": 4, "family": 2, "solo": 1, "duel": 2}
GAMES = 3


def observations(mode: str) -> Iterator[dict[str, Any]]:
    """Every observation of a few random games, for every seat asked."""
    for seed in range(GAMES):
        game = new_game(mode, seats=SEATS[mode], seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            seat = game.pending()[0]
            yield game.observation(seat)
            game.apply(seat, rng.choice(list(game.legal_actions(seat))))
        for seat in range(SEATS[mode]):
            yield game.observation(seat)


def card_ids(value: Any, key: str = "") -> Iterator[int]:
    """Card ids anywhere in an observation (keys that hold cards)."""
    if isinstance(value, dict):
        if key in ("item",) and value.get("kind") in ("treasure", "instant", "lesson"):
            yield value["id"]
        for k, v in value.items():
            if k in ("hand", "kept", "drawn", "played", "bought_now", "private_lessons",
                     "chosen_rescue", "revealed_rescue", "draft_pile", "played_today"
                     ) and isinstance(v, list):
                yield from (c if isinstance(c, int) else c["id"] for c in v)
            elif k in ("lessons", "public_lessons") and isinstance(v, list):
                yield from (c if isinstance(c, int) else c.get("card", c.get("id")) for c in v)
            else:
                yield from card_ids(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from card_ids(v, key)


def normalised(cells: list[list[int]]) -> list[list[int]]:
    min_x = min(x for x, _ in cells)
    min_y = min(y for _, y in cells)
    return sorted(([x - min_x, y - min_y] for x, y in cells), key=lambda c: (c[1], c[0]))


@pytest.mark.parametrize("mode", GAME_DATA_MODES)
def test_the_data_covers_everything_a_game_shows(mode: str) -> None:
    data = game_data(mode)
    cards = {c["id"] for c in data["cards"]}
    shapes, boats = data["shapes"], data["boats"]
    seen_cards: set[int] = set()
    placed = 0
    for obs in observations(mode):
        seen_cards.update(card_ids(obs))
        for player in obs["players"]:
            boat = boats[player["boat"]] if player.get("boat") else None
            for tile in player["tiles"]:
                placed += 1
                shape = shapes[tile["shape"]]
                assert normalised(tile["cells"]) in shape["orientations"], tile
                assert boat is not None
                assert all(cell in boat["cells"] for cell in tile["cells"]), tile
    assert placed > 0 and seen_cards
    assert seen_cards <= cards, f"cards not in game_data: {sorted(seen_cards - cards)}"


def test_the_duel_oshax_steps_along_the_island() -> None:
    island = game_data("duel")["island"]
    neighbours = {s["space"]: set(s["neighbours"]) for s in island["spaces"]}
    assert len(neighbours) == 15
    assert all(a in neighbours[b] for a in neighbours for b in neighbours[a])  # symmetric
    steps = 0
    for seed in range(GAMES):
        game = new_game("duel", seats=2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            seat = game.pending()[0]
            obs = game.observation(seat)
            legal = list(game.legal_actions(seat))
            if obs.get("phase") == "move" and not obs["turn"]["jumping"]:
                moves = {a[1] for a in legal if a.kind == "move"}
                assert moves <= neighbours[obs["oshax"]]
                steps += len(moves)
            game.apply(seat, rng.choice(legal))
    assert steps > 0


def test_card_facts_match_the_engine_data() -> None:
    by_id = {c["id"]: c for c in game_data("standard")["cards"]}
    assert sorted(by_id) == list(range(1, 151))
    rescue = [c for c in by_id.values() if c["family"] == "rescue"]
    assert {c["basket"] for c in rescue} == {"full", "half", None}
    assert all(c["baskets"] == {"full": 1, "half": 0.5, None: 0}[c["basket"]] for c in rescue)
    assert all(isinstance(c["cost"], int) and isinstance(c["speed"], int) for c in rescue)
    lessons = [c for c in by_id.values() if c["family"] in ("private_lesson", "public_lesson")]
    assert lessons and all("kind" in c["rules"]["scoring"] for c in lessons)
    assert [c["id"] for c in game_data("family")["cards"]] == list(range(151, 169))
    solo = {c["id"] for c in game_data("solo")["cards"]}
    assert solo == set(range(1, 151)) | set(range(169, 216))
    duel = game_data("duel")
    assert [c["id"] for c in duel["cards"]] == list(range(1, 33))
    assert {c["family"] for c in duel["cards"]} == {"treasure", "instant", "lesson"}
    assert [t["id"] for t in duel["tiles"]] == list(range(73))


def test_shapes_have_every_distinct_rotation_and_reflection() -> None:
    shapes = game_data("standard")["shapes"]
    assert len(shapes["cat_13"]["orientations"]) == 1  # the plus sign
    assert len(shapes["I_tetromino"]["orientations"]) == 2
    assert len(shapes["cat_07"]["orientations"]) == 8
    for key, shape in shapes.items():
        assert shape["cells"] == shape["orientations"][0], key
        assert len({json.dumps(o) for o in shape["orientations"]}) == len(shape["orientations"])
        for o in shape["orientations"]:
            assert len(o) == shape["size"] and normalised(o) == o


def test_version_is_the_engine_version_and_a_hash_of_the_content() -> None:
    import hashlib

    versions = set()
    for mode in GAME_DATA_MODES:
        data = game_data(mode)
        content = {k: v for k, v in data.items() if k != "version"}
        digest = hashlib.sha256(compact(content).encode()).hexdigest()[:12]
        assert data["version"] == f"{ENGINE_VERSION}+{digest}"
        assert json.loads(game_data_text(mode)) == data
        versions.add(data["version"])
    assert len(versions) == len(GAME_DATA_MODES)


def test_the_schema_accepts_each_mode_and_pins_it() -> None:
    from jsonschema import Draft202012Validator

    schema = game_data_schema()
    Draft202012Validator.check_schema(schema)
    Draft202012Validator(schema).validate(game_data("duel"))
    for mode in GAME_DATA_MODES:
        check = Draft202012Validator({"$defs": schema["$defs"],
                                      "$ref": f"#/$defs/game_data_{mode}"})
        check.validate(game_data(mode))
        assert not any(check.is_valid(game_data(m)) for m in GAME_DATA_MODES if m != mode)
    broken = json.loads(game_data_text("standard"))
    broken["cards"][0]["cost"] = "5"
    assert not Draft202012Validator(schema).is_valid(broken)


def test_unknown_mode_is_refused() -> None:
    with pytest.raises(ConfigError, match="unknown mode 'chess'; modes: standard, family"):
        game_data("chess")
