"""The Duel's components, loaded once from engine/data/duel/ (written by
scripts/import_game_data.py): the two boat layouts, the 45 cats and 28 treasures,
the island's 15 spaces and footprints, the 32 discovery cards and the rule numbers.

Tile ids: cats 0-44 (colour order blue, green, red, purple, orange), treasures 45-72
(7 of each treasure shape, in the data's shape order). Card ids 1-32.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ...boat import BoatLayout
from ...shapes import Shape

ISLAND_SPACES = 15


def _read(name: str) -> Any:
    return json.loads(resources.files("engine.data.duel").joinpath(name).read_text())


@dataclass(frozen=True)
class CatTile:
    id: int
    colour: str
    shape: Shape
    fish: bool  # a fish icon: +1 fish when placed

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": "cat", "colour": self.colour, "shape": self.shape.key,
                "fish": self.fish}


@dataclass(frozen=True)
class DuelCard:
    id: int
    kind: str  # "treasure", "instant" or "lesson"
    label: str
    effect: str
    name: str | None = None  # printed name, where the rulebook shows it
    params: dict[str, Any] = field(default_factory=dict, compare=False)
    scoring: dict[str, Any] | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        out = {"id": self.id, "kind": self.kind, "label": self.label, "effect": self.effect}
        if self.name:
            out["name"] = self.name
        return out


@dataclass(frozen=True)
class Island:
    """The island graph: ``neighbours[s]`` is a bitmask of spaces (bit s = space s)."""

    kinds: tuple[str, ...]  # index 1..15: "cat" or "card" (index 0 unused)
    neighbours: tuple[int, ...]  # index 1..15
    start: int

    @property
    def cat_spaces(self) -> tuple[int, ...]:
        return tuple(s for s in range(1, ISLAND_SPACES + 1) if self.kinds[s] == "cat")

    @property
    def card_spaces(self) -> tuple[int, ...]:
        return tuple(s for s in range(1, ISLAND_SPACES + 1) if self.kinds[s] == "card")

    @property
    def all_mask(self) -> int:
        return ((1 << (ISLAND_SPACES + 1)) - 1) & ~1

    def adjacent(self, a: int, b: int) -> bool:
        return bool(self.neighbours[a] >> b & 1)

    def targets(self, at: int, touched: int, jump: bool = False) -> int:
        """The spaces the Oshax may go to from ``at``, as a mask with bit s for space s.

        A step follows a footprint to a space not touched this turn (the movement's
        no-revisit rule). A jump places the figure "in any space" (rulebook p.10), visited
        ones included: landing there touches nothing new but leaves the shared Oshax there
        for the opponent. Only its own space is excluded (that would be no jump at all).
        """
        if jump:
            return self.all_mask & ~(1 << at)
        return self.neighbours[at] & ~touched


@dataclass(frozen=True)
class DuelData:
    layouts: dict[str, BoatLayout]
    cats: tuple[CatTile, ...]
    treasure_shapes: tuple[Shape, ...]
    treasure_ids: dict[str, tuple[int, ...]]  # shape key -> tile ids
    island: Island
    cards: dict[int, DuelCard]
    rules: dict[str, Any]
    shape_by_key: dict[str, Shape]

    def treasure_shape_of(self, tile_id: int) -> Shape:
        for shape in self.treasure_shapes:
            if tile_id in self.treasure_ids[shape.key]:
                return shape
        raise KeyError(tile_id)


def _island(raw: dict[str, Any]) -> Island:
    kinds = [""] * (ISLAND_SPACES + 1)
    for s in raw["spaces"]:
        kinds[s["space"]] = s["kind"]
    nbrs = [0] * (ISLAND_SPACES + 1)
    for a, b in raw["footprints"]:
        nbrs[a] |= 1 << b
        nbrs[b] |= 1 << a
    return Island(tuple(kinds), tuple(nbrs), raw["oshax_start"])


@cache
def duel_data() -> DuelData:
    """Every Duel component; built once per process (well under 0.1 s)."""
    boats = _read("boats.json")["boats"]
    layouts = {name: BoatLayout.from_dict(name, b) for name, b in boats.items()}
    shapes = _read("shapes.json")
    cat_shapes = {s["key"]: Shape.from_grid(s["key"], s["grid"]) for s in shapes["cat_shapes"]}
    cats = tuple(CatTile(c["id"], c["colour"], cat_shapes[c["shape"]], c["fish"])
                 for c in shapes["cats"])
    if [c.id for c in cats] != list(range(len(cats))):
        raise ValueError("engine/data/duel/shapes.json: cat ids must be 0..n-1 in order")
    treasure_shapes = tuple(Shape.from_grid(s["key"], s["grid"]) for s in shapes["treasure_shapes"])
    treasure_ids = {}
    next_id = shapes["first_treasure_id"]
    for s in shapes["treasure_shapes"]:
        treasure_ids[s["key"]] = tuple(range(next_id, next_id + s["count"]))
        next_id += s["count"]
    cards = {
        c["id"]: DuelCard(c["id"], c["kind"], c["label"], c["effect"], c.get("name"),
                          c.get("params", {}), c.get("scoring"))
        for c in _read("cards.json")["cards"]
    }
    shape_by_key = {**cat_shapes, **{s.key: s for s in treasure_shapes}}
    return DuelData(layouts, cats, treasure_shapes, treasure_ids,
                    _island(_read("island.json")), cards, _read("rules.json"), shape_by_key)
