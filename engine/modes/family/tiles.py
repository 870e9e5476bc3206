"""The physical tiles of a base-game table: ids, the bag, the fields and the supply.

Every tile of the box gets a stable integer id (cats first, then rare treasures,
then the common treasures of this table), so "every tile is in exactly one
place" can be checked and replays can name tiles. ``TileTable`` holds where each
non-boat tile is: the bag (in draw order), the left and right fields, the rare
and common supplies, and the tiles removed from the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ...boat import COLOURS
from ...rng import Rng
from ...shapes import Shape, base_shapes

FIELDS = ("left", "right")


@dataclass(frozen=True)
class TileInfo:
    """One physical tile: its id, kind, colour (None for treasures) and shape key."""

    id: int
    kind: str
    colour: str | None
    shape: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "colour": self.colour, "shape": self.shape}


def tile_catalogue(common_per_shape: int) -> tuple[TileInfo, ...]:
    """All tiles of a table: 85 cats, 25 rare treasures, then the common treasures."""
    shapes = base_shapes()
    tiles: list[TileInfo] = []
    for colour in COLOURS:
        for cat in shapes.cats:
            tiles.append(TileInfo(len(tiles), "cat", colour, cat.key))
    for rare in shapes.rare_treasures:
        for _ in range(shapes.rare_counts[rare.key]):
            tiles.append(TileInfo(len(tiles), "rare_treasure", None, rare.key))
    for common in shapes.common_treasures:
        for _ in range(common_per_shape):
            tiles.append(TileInfo(len(tiles), "common_treasure", None, common.key))
    return tuple(tiles)


@cache
def _shapes_by_key() -> dict[str, Shape]:
    shapes = base_shapes()
    groups = (shapes.cats, shapes.oshax, shapes.rare_treasures, shapes.common_treasures)
    return {s.key: s for group in groups for s in group}


def shape_of(key: str) -> Shape:
    """The shape with this key (``BaseShapes.by_key`` cannot be cached: it holds dicts)."""
    return _shapes_by_key()[key]


@dataclass
class TileTable:
    """Where every tile that is not on a boat lies."""

    tiles: tuple[TileInfo, ...]
    bag: list[int] = field(default_factory=list)
    fields: dict[str, list[int]] = field(default_factory=lambda: {f: [] for f in FIELDS})
    rare_supply: list[int] = field(default_factory=list)
    common_supply: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)

    @classmethod
    def setup(cls, common_per_shape: int, rng: Rng) -> TileTable:
        """Cats and rare treasures shuffled into the bag; commons face up in the supply."""
        tiles = tile_catalogue(common_per_shape)
        bag = [t.id for t in tiles if t.kind in ("cat", "rare_treasure")]
        rng.shuffle(bag)
        commons = [t.id for t in tiles if t.kind == "common_treasure"]
        return cls(tiles, bag, {f: [] for f in FIELDS}, [], commons, [])

    def fill_fields(self, cats_per_field: int) -> dict[str, list[int]]:
        """Draw until each field holds ``cats_per_field`` cats (left first); rare
        treasures drawn on the way go to the supply. Stops early if the bag empties."""
        drawn_rare: list[int] = []
        for name in FIELDS:
            while len(self.fields[name]) < cats_per_field and self.bag:
                tile_id = self.bag.pop(0)
                if self.tiles[tile_id].kind == "cat":
                    self.fields[name].append(tile_id)
                else:
                    self.rare_supply.append(tile_id)
                    drawn_rare.append(tile_id)
        return {"left": list(self.fields["left"]), "right": list(self.fields["right"]),
                "rare_treasures": drawn_rare}

    def field_of(self, tile_id: int) -> str | None:
        for name in FIELDS:
            if tile_id in self.fields[name]:
                return name
        return None

    def field_cats(self) -> list[int]:
        return self.fields["left"] + self.fields["right"]

    def take_from_field(self, tile_id: int) -> None:
        name = self.field_of(tile_id)
        if name is None:
            raise ValueError(f"tile {tile_id} is not in a field")
        self.fields[name].remove(tile_id)

    def clear_fields(self) -> list[int]:
        """End of day: the cats left in the fields flee (leave the game)."""
        gone = self.field_cats()
        for name in FIELDS:
            self.fields[name].clear()
        self.removed.extend(gone)
        return gone

    def supply_shapes(self) -> dict[str, list[int]]:
        """Treasure shape -> supply tile ids of that shape (commons, then rare)."""
        out: dict[str, list[int]] = {}
        for tile_id in self.common_supply + self.rare_supply:
            out.setdefault(self.tiles[tile_id].shape, []).append(tile_id)
        return out

    def take_from_supply(self, tile_id: int) -> None:
        if tile_id in self.common_supply:
            self.common_supply.remove(tile_id)
        elif tile_id in self.rare_supply:
            self.rare_supply.remove(tile_id)
        else:
            raise ValueError(f"tile {tile_id} is not in the supply")

    def public_json(self) -> dict[str, Any]:
        """What every player sees: fields, supply and the number of tiles in the bag."""
        common: dict[str, int] = {}
        for tile_id in self.common_supply:
            key = self.tiles[tile_id].shape
            common[key] = common.get(key, 0) + 1
        return {
            "fields": {name: [self.tiles[i].to_json() for i in ids]
                       for name, ids in self.fields.items()},
            "common_supply": common,
            "rare_supply": [self.tiles[i].to_json() for i in self.rare_supply],
            "bag_count": len(self.bag),
            "removed": list(self.removed),
        }

    def full_json(self) -> dict[str, Any]:
        """Everything, bag order included (spectators, state hash)."""
        return {**self.public_json(), "bag": list(self.bag),
                "common_supply_ids": list(self.common_supply)}
