"""Boat geometry and per-player boat state as integer bitboards.

A cell ``(x, y)`` is bit ``y * STRIDE + x``. STRIDE is one more than the
widest boat, so column ``x = STRIDE - 1`` is a guard column that is never part
of a boat: shifting a mask by ±1 can never wrap a cell into the next row, and
neighbour tests are plain shifts and ANDs. Rooms, rats, maps and the edge are
masks of the layout; a player's boat keeps one ``occupied`` mask and one mask
per colour. Friendly views (``str(boat)``, ``Boat.from_text``) are separate
from the raw ``*_mask`` integers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from .copies import twin_of, with_fields
from .jsontext import JSONText, array_text, compact

STRIDE = 23
WIDTH = 22
HEIGHT = 9
COLOURS = ("blue", "green", "red", "purple", "orange")
TILE_KINDS = ("cat", "oshax", "common_treasure", "rare_treasure")

# Text form of tiles: cats lower-case colour initial, Oshax upper-case.
_CAT_CHAR = {c: c[0] for c in COLOURS}
_OSHAX_CHAR = {c: c[0].upper() for c in COLOURS}
_CHAR_KIND: dict[str, tuple[str, str | None]] = {
    **{ch: ("cat", col) for col, ch in _CAT_CHAR.items()},
    **{ch: ("oshax", col) for col, ch in _OSHAX_CHAR.items()},
    "$": ("common_treasure", None),
    "*": ("rare_treasure", None),
}
EMPTY_CHARS = " .x+#"


def cell_index(x: int, y: int) -> int:
    return y * STRIDE + x


def cell_xy(index: int) -> tuple[int, int]:
    y, x = divmod(index, STRIDE)
    return x, y


def mask_of(cells: Iterable[Sequence[int]]) -> int:
    """The mask of a list of ``[x, y]`` pairs."""
    mask = 0
    for x, y in cells:
        mask |= 1 << (y * STRIDE + x)
    return mask


def iter_bits(mask: int) -> Iterator[int]:
    """Indices of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_XY = tuple(cell_xy(i) for i in range(STRIDE * 64))  # (x, y) of the first 64 rows' cells


def cells_of(mask: int) -> list[list[int]]:
    """``[[x, y], ...]`` of a mask, in index order (row by row): fresh lists a caller may keep
    or change (a placed tile keeps its own pairs: ``cells_xy``)."""
    return _cells(mask, True)  # type: ignore[return-value]


def cells_xy(mask: int) -> tuple[tuple[int, int], ...]:
    """``((x, y), ...)`` of a mask, in index order: the table's own pairs, nothing built."""
    return tuple(_cells(mask, False))  # type: ignore[arg-type]


def _cells(mask: int, fresh: bool) -> list[tuple[int, int] | list[int]]:
    """The cells of ``mask`` in index order, as the table's pairs or (``fresh``) new lists,
    made in one loop: every placement a game logs asks for its cells as lists, and building
    them here rather than from ``cells_xy``'s tuple takes a sixth off."""
    out: list[tuple[int, int] | list[int]] = []
    append = out.append
    table, rows_end = _XY, len(_XY)
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        xy = table[i] if i < rows_end else cell_xy(i)
        append([*xy] if fresh else xy)
        mask ^= low
    return out


def neighbours(mask: int) -> int:
    """Cells orthogonally adjacent to ``mask`` (not including it); may leave the boat."""
    return ((mask << 1) | (mask >> 1) | (mask << STRIDE) | (mask >> STRIDE)) & ~mask


def flood(seed: int, within: int) -> int:
    """The connected part of ``within`` reachable from ``seed`` by orthogonal steps."""
    region = seed & within
    while True:
        grown = (region | (region << 1) | (region >> 1) | (region << STRIDE) | (region >> STRIDE))
        grown &= within
        if grown == region:
            return region
        region = grown


def components(mask: int) -> list[int]:
    """The orthogonally connected components of ``mask``, lowest cell first."""
    parts = []
    while mask:
        part = flood(mask & -mask, mask)
        parts.append(part)
        mask &= ~part
    return parts


@dataclass(frozen=True)
class Room:
    key: str
    name: str
    mask: int

    @property
    def size(self) -> int:
        return self.mask.bit_count()


@dataclass(frozen=True)
class BoatLayout:
    """One printed boat: its cells, rooms, rats, treasure maps and edge."""

    name: str
    cells_mask: int
    rooms: tuple[Room, ...]
    rats_mask: int
    maps: Mapping[str, int]  # colour -> single-cell mask
    edge_mask: int
    holes_mask: int = 0

    @property
    def maps_mask(self) -> int:
        m = 0
        for cell in self.maps.values():
            m |= cell
        return m

    @property
    def size(self) -> int:
        return self.cells_mask.bit_count()

    @classmethod
    def from_dict(cls, name: str, data: Mapping[str, Any]) -> BoatLayout:
        """Build from the engine's data format (see engine/data/*/boats.json)."""
        cells = 0
        for x, (y_min, y_max) in enumerate(data["columns"]):
            for y in range(y_min, y_max + 1):
                cells |= 1 << cell_index(x, y)
        holes = mask_of(data.get("holes", []))
        cells &= ~holes
        rooms = tuple(
            Room(r["key"], r.get("name", r["key"]), mask_of(r["cells"])) for r in data["rooms"]
        )
        maps = {colour: mask_of([cell]) for colour, cell in data["maps"].items()}
        # The edge is derived: every cell with an orthogonal neighbour outside the boat.
        edge = 0
        for i in iter_bits(cells):
            x, y = cell_xy(i)
            if y == 0 or neighbours(1 << i) & ~cells:  # row 0's upper neighbour has no bit
                edge |= 1 << i
        return cls(name, cells, rooms, mask_of(data["rats"]), maps, edge, holes)

    def room(self, key: str) -> Room:
        for r in self.rooms:
            if r.key == key:
                return r
        raise KeyError(key)

    def row_mask(self, y: int) -> int:
        return self.cells_mask & (((1 << STRIDE) - 1) << (y * STRIDE))

    def __str__(self) -> str:
        return render(self, [])


@cache
def base_layouts() -> dict[str, BoatLayout]:
    """The four boats of the base game (blue, green, red, purple), same outline."""
    raw = json.loads(resources.files("engine.data.base").joinpath("boats.json").read_text())
    outline = raw["outline"]
    return {
        colour: BoatLayout.from_dict(colour, {**outline, **boat})
        for colour, boat in raw["boats"].items()
    }


_keep = object.__setattr__  # a kept value on a frozen tile, past its ``__setattr__`` (``Tile.xy``)


@dataclass(frozen=True)
class Tile:
    """A tile lying on a boat. ``colour`` is None for treasures.

    Frozen: a placed tile never changes (cards that take tiles off a boat remove the whole
    tile), so its cells and its JSON text are worked out once, on first use, and kept.
    Copies of a game share its tiles (``__deepcopy__``), as they share any immutable value.
    """

    kind: str
    colour: str | None
    shape: str
    mask: int
    tile_id: int = -1

    # The kept values are attributes set past the frozen dataclass's ``__setattr__`` (as
    # functools.cached_property keeps them, without its lock, which costs more than working
    # the cells out), not entries written into ``self.__dict__``: reading the dict would
    # slow every later read of the tile's fields (``engine.copies``).

    @property
    def xy(self) -> tuple[tuple[int, int], ...]:
        """The ``(x, y)`` of each cell, in index order; worked out on first use and kept."""
        try:
            return self._xy  # type: ignore[attr-defined, no-any-return]
        except AttributeError:
            kept = cells_xy(self.mask)
            _keep(self, "_xy", kept)
            return kept

    @property
    def json_text(self) -> str:
        """``compact(self.to_json())``, kept: observations send every tile of every boat."""
        try:
            return self._json_text  # type: ignore[attr-defined, no-any-return]
        except AttributeError:
            kept = compact(self.to_json())
            _keep(self, "_json_text", kept)
            return kept

    @property
    def json_part(self) -> JSONText:
        """``json_text`` as a ``JSONText`` (a part of its boat's tile list), kept."""
        try:
            return self._json_part  # type: ignore[attr-defined, no-any-return]
        except AttributeError:
            kept = JSONText(self.json_text)
            _keep(self, "_json_part", kept)
            return kept

    @classmethod
    def quick(cls, kind: str, colour: str | None, shape: str, mask: int,
              tile_id: int = -1) -> Tile:
        """``Tile(kind, colour, shape, mask, tile_id)``, made without the frozen dataclass's
        ``__init__``, which sets each field through ``object.__setattr__`` (0.77 us against
        0.38 us): the same fields in the same order in the instance dict, so an equal tile.
        For the loops that place a tile at every few decisions (random playouts)."""
        return with_fields(cls, kind=kind, colour=colour, shape=shape, mask=mask, tile_id=tile_id)

    def to_json(self) -> dict[str, Any]:
        """A fresh dict each time (callers may change it); the cells come from ``xy``."""
        return {"kind": self.kind, "colour": self.colour, "shape": self.shape,
                "cells": [[x, y] for x, y in self.xy], "id": self.tile_id}

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Tile:
        return self


# The family sizes of one colour, by the colour's mask and the masks of its tiles (which
# decide the answer): a boat and the boats the greedy bot imagines with one more tile share
# all colours but one. Bounded: cleared when full.
_FAMILY_SIZES: dict[tuple[int, ...], tuple[int, ...]] = {}
_FAMILY_SIZES_KEPT = 1 << 13  # about 6 MB at most


def remember_family_sizes(colour_mask: int, members: Sequence[int],
                          parts: Iterable[tuple[int, int]]) -> None:
    """Tell ``Boat.family_sizes`` the families of one colour, worked out elsewhere: the
    colour's mask, its tiles' masks in the boat's order, and ``(part mask, tiles)`` of every
    connected part. The greedy bot scores boats that differ from its own by one tile: it
    knows the families they have (the tile joins the families it touches) without a flood
    fill. The answer is the one ``family_sizes`` would find: sizes by lowest cell first."""
    key = (colour_mask, *members)
    if len(members) > 1 and key not in _FAMILY_SIZES:
        if len(_FAMILY_SIZES) >= _FAMILY_SIZES_KEPT:
            _FAMILY_SIZES.clear()
        _FAMILY_SIZES[key] = tuple(n for _, n in sorted((part & -part, n) for part, n in parts))


@dataclass
class Boat:
    """A player's boat: the layout plus the tiles placed on it."""

    layout: BoatLayout
    tiles: list[Tile] = field(default_factory=list)
    occupied: int = 0
    colour_masks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COLOURS, 0))
    # (the tiles it was made for, the text): not a field, so neither compared nor printed
    _tiles_text = None

    @classmethod
    def from_json(cls, layout: BoatLayout, tiles: Iterable[Mapping[str, Any]]) -> Boat:
        """A boat of ``layout`` holding ``tiles`` as ``tiles_json`` gives them: a forward
        model rebuilds the boats of an observation so. Overlapping tiles raise ValueError."""
        boat = cls(layout)
        for t in tiles:
            boat.place(Tile(t["kind"], t["colour"], t["shape"], mask_of(t["cells"]),
                            int(t["id"])))
        return boat

    def clone(self) -> Boat:
        """An independent copy for ``Game.clone``: the tiles are immutable and shared, the
        lists that change are copied (as ``copy.deepcopy`` would, at a tenth of the cost)."""
        twin = twin_of(self)  # the layout and the kept text (never mutated): shared
        twin.tiles = list(self.tiles)
        twin.colour_masks = dict(self.colour_masks)
        return twin

    def tiles_json(self) -> list[dict[str, Any]]:
        """The tiles as JSON values, fresh (callers may change them)."""
        return [t.to_json() for t in self.tiles]

    def tiles_text(self) -> str:
        """``compact(self.tiles_json())``, kept until the tiles change."""
        return self.tiles_part().text

    def tiles_part(self) -> JSONText:
        """``tiles_text`` as a ``JSONText`` whose parts are the tiles' texts, kept until the
        tiles change (the same object while they do not). The check compares the tile list
        with the one the text was made for, item by item: the same tiles are the same
        objects, so it costs a pointer comparison per tile, and it also sees tiles put on or
        taken off the list by hand."""
        kept = self._tiles_text
        if kept is not None and kept[0] == self.tiles:
            return kept[1]
        text = array_text([t.json_part for t in self.tiles])
        self._tiles_text = (list(self.tiles), text)
        return text

    @property
    def free_mask(self) -> int:
        return self.layout.cells_mask & ~self.occupied

    @property
    def is_empty(self) -> bool:
        return self.occupied == 0

    def place(self, tile: Tile) -> None:
        """Put a tile down; legality is the caller's job (see shapes.Placements)."""
        if tile.mask & self.occupied or tile.mask & ~self.layout.cells_mask:
            raise ValueError("tile overlaps or leaves the boat")
        self.tiles.append(tile)
        self.occupied |= tile.mask
        if tile.colour is not None:
            self.colour_masks[tile.colour] |= tile.mask

    def remove(self, tile: Tile) -> None:
        self.tiles.remove(tile)
        self.occupied &= ~tile.mask
        if tile.colour is not None:
            self.colour_masks[tile.colour] &= ~tile.mask

    # --- facts used by scoring and lessons -------------------------------------------------
    def uncovered_rats(self) -> int:
        return (self.layout.rats_mask & ~self.occupied).bit_count()

    def unfilled_rooms(self) -> int:
        return sum(1 for r in self.layout.rooms if r.mask & ~self.occupied)

    def filled_rooms(self) -> int:
        return len(self.layout.rooms) - self.unfilled_rooms()

    def empty_rooms(self) -> int:
        return sum(1 for r in self.layout.rooms if not r.mask & self.occupied)

    def coloured_tiles(self) -> list[Tile]:
        return [t for t in self.tiles if t.colour is not None]

    def families(self) -> list[tuple[str, list[Tile]]]:
        """Maximal orthogonally connected groups of same-colour tiles, biggest first.

        Every coloured tile belongs to exactly one family (size 1 = lonely).
        Diagonal contact does not join a family: only shared edges do.
        """
        result: list[tuple[str, list[Tile]]] = []
        by_colour: dict[str, list[Tile]] = {}
        for t in self.tiles:
            if t.colour is not None:
                by_colour.setdefault(t.colour, []).append(t)
        for colour in COLOURS:
            members = by_colour.get(colour)
            if not members:
                continue
            for part in components(self.colour_masks[colour]):
                result.append((colour, [t for t in members if t.mask & part]))
        result.sort(key=lambda fam: -len(fam[1]))
        return result

    def family_sizes(self) -> list[tuple[str, int]]:
        """``(colour, number of tiles)`` of each of ``families()``, in the same order,
        without building the tile lists (final scoring asks only for the sizes)."""
        result: list[tuple[str, int]] = []
        by_colour: dict[str, list[int]] = {}
        for t in self.tiles:
            if t.colour is not None:
                by_colour.setdefault(t.colour, []).append(t.mask)
        for colour in COLOURS:
            members = by_colour.get(colour)
            if not members:
                continue
            if len(members) == 1:
                result.append((colour, 1))
                continue
            mask = self.colour_masks[colour]
            key = (mask, *members)
            sizes = _FAMILY_SIZES.get(key)
            if sizes is None:
                sizes = tuple(sum(1 for m in members if m & part)
                              for part in components(mask))
                if len(_FAMILY_SIZES) >= _FAMILY_SIZES_KEPT:
                    _FAMILY_SIZES.clear()
                _FAMILY_SIZES[key] = sizes
            result.extend((colour, size) for size in sizes)
        result.sort(key=lambda fam: -fam[1])
        return result

    def map_covered(self, colour: str) -> bool:
        cell = self.layout.maps.get(colour, 0)
        return bool(cell and cell & self.occupied)

    # --- text form ----------------------------------------------------------------------
    def __str__(self) -> str:
        return render(self.layout, self.tiles)

    @classmethod
    def from_text(
        cls,
        layout: BoatLayout,
        text: str,
        legend: Mapping[str, tuple[str, str | None]] | None = None,
    ) -> Boat:
        """Parse a picture as printed by ``str(boat)``.

        Each maximal connected group of one tile character becomes one tile,
        unless ``legend`` maps extra characters (one character per tile) to
        ``(kind, colour)``, which lets two same-colour cats touch.
        """
        rows = [r for r in text.strip("\n").split("\n")]
        kinds = dict(_CHAR_KIND)
        if legend:
            kinds.update(legend)
        char_masks: dict[str, int] = {}
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                if ch in EMPTY_CHARS:
                    continue
                if ch not in kinds:
                    raise ValueError(f"unknown tile character {ch!r} at ({x}, {y})")
                char_masks[ch] = char_masks.get(ch, 0) | (1 << cell_index(x, y))
        boat = cls(layout)
        for ch, mask in sorted(char_masks.items()):
            kind, colour = kinds[ch]
            parts = [mask] if legend and ch in legend else components(mask)
            for part in parts:
                boat.place(Tile(kind, colour, "custom", part, len(boat.tiles)))
        return boat


def render(layout: BoatLayout, tiles: Iterable[Tile]) -> str:
    """ASCII picture: tiles by colour letter ($ common, * rare), x rat, + map, . empty."""
    chars: dict[int, str] = {}
    for t in tiles:
        if t.kind == "cat":
            ch = _CAT_CHAR[t.colour]  # type: ignore[index]
        elif t.kind == "oshax":
            ch = _OSHAX_CHAR[t.colour]  # type: ignore[index]
        else:
            ch = "$" if t.kind == "common_treasure" else "*"
        for i in iter_bits(t.mask):
            chars[i] = ch
    lines = []
    for y in range(HEIGHT):
        row = []
        for x in range(WIDTH):
            i = cell_index(x, y)
            bit = 1 << i
            if i in chars:
                row.append(chars[i])
            elif layout.holes_mask & bit:
                row.append("#")
            elif not layout.cells_mask & bit:
                row.append(" ")
            elif layout.rats_mask & bit:
                row.append("x")
            elif layout.maps_mask & bit:
                row.append("+")
            else:
                row.append(".")
        lines.append("".join(row).rstrip())
    return "\n".join(lines)
