"""What a bot is told about the game itself: ``game_data(mode)``, sent in the protocol's
``start`` message and served at ``GET /api/v1/protocol/game-data``.

Observations name cards by id, boats by name and tiles by shape key. This module turns those
names into the facts behind them, for one mode:

* ``cards``: every card in play, with its cost, speed, baskets and colour, its effect in
  words, and its machine-readable rules (``rules``: the card's parameters, options, lesson
  scoring, solo actions..., exactly as the data file has them; ``vocabulary`` says what their
  terms mean);
* ``boats``: every boat's cells, rats, treasure maps (by colour), rooms and edge;
* ``shapes``: every tile shape with the cells of each rotation and reflection, in the order
  and form the engine itself enumerates them (``engine.shapes.Shape.orientations``);
* ``tiles`` (the Duel): a list of every tile (id, kind, colour, shape, fish), by ascending id;
* ``island`` (the Duel): the spaces, their kinds and places, and which are joined;
* ``rules``: the mode's rule numbers (days, fish, prices...) and, as ``rules.scoring``, the
  score sheet's own (rats, unfilled rooms, families, rare treasures, public lessons' divisor;
  the Duel's are in ``rules.duel``), so a bot in any language can score a boat.

One source: everything comes from ``engine/data/**`` and the modes' rule files, through the
engine's own loaders (cards, boats, shapes, the island), the files themselves only for what
the loaders drop (room icons, the island's rows and columns): never a copy, so it cannot
disagree with the rules the engine plays.
``version`` is the engine's version and a hash of the content, so a bot (or a cache) can tell
two sets of data apart. Pure: no Django, nothing outside the engine.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from .boat import COLOURS, BoatLayout, base_layouts, cells_of
from .cards import (
    DISCOVERY_IDS,
    FAMILY_LESSON_IDS,
    SOLO_ADVANCED_LESSON_IDS,
    SOLO_BASIC_LESSON_IDS,
    SOLO_BASKET_IDS,
    SOLO_COLOUR_IDS,
    base_cards,
    base_cards_meta,
)
from .errors import ConfigError
from .jsontext import compact
from .modes.duel.data import ISLAND_SPACES, duel_data
from .scoring import scoring_numbers
from .shapes import Shape, base_shapes
from .version import ENGINE_VERSION

GAME_DATA_MODES = ("standard", "family", "solo", "duel")
COORDINATES = (
    "A cell is [x, y]: x from 0 (stern) to 21 (bow) along the boat, y from 0 to 8 across it, "
    "as in placements and tiles. A shape's orientations are its distinct rotations and "
    "reflections, each normalised so that its smallest x and smallest y are 0; a placement is "
    "one orientation shifted by [dx, dy]."
)

# The cards each mode deals, by the id ranges of engine.cards (the Duel has its own deck).
_BASE_CARD_IDS: dict[str, tuple[range, ...]] = {
    "standard": (DISCOVERY_IDS,),
    "family": (FAMILY_LESSON_IDS,),
    "solo": (DISCOVERY_IDS, SOLO_COLOUR_IDS, SOLO_BASKET_IDS, SOLO_BASIC_LESSON_IDS,
             SOLO_ADVANCED_LESSON_IDS),
}
# Keys of a card record that the common head of a card carries; the rest of the record is its
# machine-readable ``rules``.
_HEAD_KEYS = frozenset({"id", "family", "name", "label", "effect", "cost_fish", "speed",
                        "basket", "basket_value", "colour"})
_BASKETS = {"full": 1.0, "half": 0.5}


def _read(package: str, name: str) -> Any:
    return json.loads(resources.files(package).joinpath(name).read_text())


def _without_doc(raw: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in raw.items() if not k.startswith("_")}


# --- cards -----------------------------------------------------------------------------------


def _base_card(raw: dict[str, Any]) -> dict[str, Any]:
    basket = raw.get("basket")
    return {
        "id": raw["id"],
        "family": raw["family"],
        "label": raw.get("label") or "",
        "name": raw.get("name"),
        "cost": raw.get("cost_fish"),
        "speed": raw.get("speed"),
        "basket": basket,
        "baskets": _BASKETS.get(basket, 0.0) if raw["family"] == "rescue" else None,
        "colour": raw.get("colour"),
        "effect": raw.get("effect") or "",
        "rules": {k: v for k, v in raw.items() if k not in _HEAD_KEYS},
    }


def _base_cards(mode: str) -> list[dict[str, Any]]:
    cards = base_cards()
    return [_base_card(cards[i].raw) for ids in _BASE_CARD_IDS[mode] for i in ids]


def _duel_cards() -> list[dict[str, Any]]:
    out = []
    for card in sorted(duel_data().cards.values(), key=lambda c: c.id):
        rules: dict[str, Any] = {}
        if card.params:
            rules["params"] = card.params
        if card.scoring:
            rules["scoring"] = card.scoring
        out.append({"id": card.id, "family": card.kind, "label": card.label, "name": card.name,
                    "cost": None, "speed": None, "basket": None, "baskets": None,
                    "colour": None, "effect": card.effect, "rules": rules})
    return out


def _vocabulary(mode: str) -> dict[str, Any]:
    """What the terms of the cards' ``rules`` mean (the data file's own notes)."""
    if mode == "duel":
        return {
            "cards": "Duel cards are taken from the island as discoveries: 'treasure' and "
                     "'instant' cards act at once (rules.params: action and its numbers), "
                     "'lesson' cards score at the end (rules.scoring)",
            "scoring": "a Duel lesson's scoring.kind names its rule (e.g. exact_cats_of_colour: "
                       "its points if you have exactly count cat tiles of colour; "
                       "min_of_two_colours: points_each per pair of one cat of each colour); "
                       "its other keys are the rule's numbers, and the card's effect states it "
                       "in words. Families, edges and visible rats or maps are as in "
                       "count_of_vocabulary",
            "count_of_vocabulary": base_cards_meta()["count_of_vocabulary"],
        }
    meta = base_cards_meta()
    keep = ["count_of_vocabulary", "scoring_kinds"]
    if mode == "solo":
        keep.append("solo_basket_rules")
    return {k: meta[k] for k in keep}


# --- boats ----------------------------------------------------------------------------------


def _boat(layout: BoatLayout, raw: dict[str, Any]) -> dict[str, Any]:
    icons = {r["key"]: r.get("icon") for r in raw["rooms"]}
    return {
        "size": layout.size,
        "cells": cells_of(layout.cells_mask),
        "holes": cells_of(layout.holes_mask),
        "rats": cells_of(layout.rats_mask),
        "maps": {colour: cells_of(mask)[0] for colour, mask in layout.maps.items()},
        "rooms": [{"key": r.key, "name": r.name, "icon": icons.get(r.key),
                   "cells": cells_of(r.mask)} for r in layout.rooms],
        "edge": cells_of(layout.edge_mask),
    }


def _base_boats() -> dict[str, Any]:
    raw = _read("engine.data.base", "boats.json")
    return {name: _boat(layout, raw["outline"])
            for name, layout in base_layouts().items()}


def _duel_boats() -> dict[str, Any]:
    raw = _read("engine.data.duel", "boats.json")["boats"]
    return {name: _boat(layout, raw[name]) for name, layout in duel_data().layouts.items()}


# --- shapes ---------------------------------------------------------------------------------


def _shape(shape: Shape, kind: str, **extra: Any) -> dict[str, Any]:
    return {
        "kind": kind,
        "size": shape.size,
        "cells": [list(c) for c in shape.cells],
        "orientations": [[list(c) for c in o.cells] for o in shape.orientations],
        **extra,
    }


def _base_shapes(mode: str) -> dict[str, Any]:
    shapes = base_shapes()
    out: dict[str, Any] = {}
    for s in shapes.cats:
        out[s.key] = _shape(s, "cat", count=len(shapes.colours))
    if mode != "family":  # the family variant plays without Oshax cards
        for s in shapes.oshax:
            out[s.key] = _shape(s, "oshax", count=1)
    for s in shapes.rare_treasures:
        out[s.key] = _shape(s, "rare_treasure", count=shapes.rare_counts[s.key])
    if mode == "solo":
        common = {"1": _read("engine.modes.solo", "solo.json")["common_per_shape"]}
    else:
        common = {str(k): v for k, v in sorted(shapes.common_count_per_shape.items())}
    for s in shapes.common_treasures:
        out[s.key] = _shape(s, "common_treasure", small=s.key in shapes.small_common,
                            count_by_seats=common)
    return out


def _duel_shapes() -> dict[str, Any]:
    data = duel_data()
    out: dict[str, Any] = {}
    for cat in data.cats:
        if cat.shape.key not in out:
            count = sum(1 for c in data.cats if c.shape is cat.shape)
            out[cat.shape.key] = _shape(cat.shape, "cat", count=count, fish=cat.fish)
    for s in data.treasure_shapes:
        out[s.key] = _shape(s, "treasure", count=len(data.treasure_ids[s.key]))
    return out


def _duel_tiles() -> list[dict[str, Any]]:
    data = duel_data()
    tiles = [c.to_json() for c in data.cats]
    for s in data.treasure_shapes:
        tiles += [{"id": i, "kind": "treasure", "colour": None, "shape": s.key, "fish": False}
                  for i in data.treasure_ids[s.key]]
    return tiles


# --- the Duel's island ------------------------------------------------------------------------


def _island() -> dict[str, Any]:
    island = duel_data().island
    raw = _read("engine.data.duel", "island.json")
    places = {s["space"]: s for s in raw["spaces"]}
    spaces = []
    for space in range(1, ISLAND_SPACES + 1):
        neighbours = [b for b in range(1, ISLAND_SPACES + 1) if island.adjacent(space, b)]
        spaces.append({"space": space, "kind": island.kinds[space],
                       "row": places[space]["row"], "col": places[space]["col"],
                       "neighbours": neighbours})
    return {"spaces": spaces, "footprints": [list(p) for p in raw["footprints"]],
            "oshax_start": island.start}


# --- rules ------------------------------------------------------------------------------------


def _rules(mode: str) -> dict[str, Any]:
    if mode == "duel":
        return {"duel": _read("engine.data.duel", "rules.json")}
    out = {"standard": _without_doc(_read("engine.modes.standard", "rules.json")),
           "scoring": scoring_numbers(mode)}
    if mode == "family":
        out["family"] = _without_doc(_read("engine.modes.family", "family.json"))
    if mode == "solo":
        out["solo"] = _without_doc(_read("engine.modes.solo", "solo.json"))
    return out


# --- the whole ------------------------------------------------------------------------------


def _build(mode: str) -> dict[str, Any]:
    if mode == "duel":
        body: dict[str, Any] = {
            "cards": _duel_cards(),
            "boats": _duel_boats(),
            "shapes": _duel_shapes(),
            "tiles": _duel_tiles(),
            "island": _island(),
        }
    else:
        body = {"cards": _base_cards(mode), "boats": _base_boats(), "shapes": _base_shapes(mode)}
    body["rules"] = _rules(mode)
    body["vocabulary"] = _vocabulary(mode)
    head = {"mode": mode, "engine_version": ENGINE_VERSION, "colours": list(COLOURS),
            "coordinates": COORDINATES}
    content = {**head, **body}
    digest = hashlib.sha256(compact(content).encode()).hexdigest()[:12]
    return {"version": f"{ENGINE_VERSION}+{digest}", **content}


def _check_mode(mode: str) -> None:
    if mode not in GAME_DATA_MODES:
        raise ConfigError(f"unknown mode {mode!r}; modes: {', '.join(GAME_DATA_MODES)}")


@cache
def _cached(mode: str) -> tuple[dict[str, Any], str]:
    data = _build(mode)
    return data, compact(data)


def game_data(mode: str) -> dict[str, Any]:
    """The game's data for ``mode``, built once per process; treat it as read-only (it is
    shared). Raises ConfigError for an unknown mode."""
    _check_mode(mode)
    return _cached(mode)[0]


def game_data_text(mode: str) -> str:
    """``game_data(mode)`` as compact JSON text, encoded once per process: the protocol splices
    it into every ``start`` line of the mode."""
    _check_mode(mode)
    return _cached(mode)[1]


# --- its JSON Schema ----------------------------------------------------------------------------

GAME_DATA_SCHEMA_ID = "https://isle-arena.invalid/protocol/game-data.schema.json"


@cache
def _schema_defs() -> dict[str, Any]:
    path = Path(__file__).resolve().parent / "data" / "protocol" / "game_data.schema.json"
    return _without_doc(json.loads(path.read_text()))  # beside the protocol's description


def game_data_defs(mode: str | None = None) -> dict[str, Any]:
    """The JSON Schema definitions of ``game_data`` (engine/data/protocol/game_data.schema.json),
    to be placed under a document's ``$defs``: ``game_data`` for any mode and, with ``mode``,
    ``game_data_<mode>``, which also pins the mode and the parts only the Duel has."""
    defs = json.loads(json.dumps(_schema_defs()))  # a fresh copy: callers may change it
    if mode is not None:
        _check_mode(mode)
        duel_only = ["island", "tiles"]
        pinned: dict[str, Any] = {"properties": {"mode": {"const": mode}}}
        if mode == "duel":
            pinned["required"] = duel_only
        else:
            pinned["not"] = {"anyOf": [{"required": [key]} for key in duel_only]}
        defs[f"game_data_{mode}"] = {
            "description": f"game_data of the {mode} mode",
            "allOf": [{"$ref": "#/$defs/game_data"}, pinned],
        }
    return defs


def game_data_schema() -> dict[str, Any]:
    """A self-contained JSON Schema document of ``game_data`` (every mode)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": GAME_DATA_SCHEMA_ID,
        "title": "Isle Arena game data",
        "description": "The game's data a bot is sent in start (game_data) and that "
                       "GET /api/v1/protocol/game-data serves. docs/bot-protocol.md explains it.",
        "$ref": "#/$defs/game_data",
        "$defs": {**game_data_defs(), **{k: v for m in GAME_DATA_MODES
                                          for k, v in game_data_defs(m).items()
                                          if k == f"game_data_{m}"}},
    }
