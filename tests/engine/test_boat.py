"""Boat geometry and state: cell indexing, masks, the text form and its round trip,
placing and removing tiles, rats, rooms, maps and families by flood fill."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.boat import (
    STRIDE,
    Boat,
    Tile,
    base_layouts,
    cell_index,
    cell_xy,
    cells_of,
    components,
    flood,
    iter_bits,
    mask_of,
    neighbours,
)

LAYOUT = base_layouts()["blue"]
EMPTY = str(Boat(LAYOUT))

# A half-full boat drawn once, shared with test_shapes.py (and its golden counts).
HALF = (Path(__file__).parent / "golden" / "half_left_boat.txt").read_text().rstrip("\n")


def boat(text: str, legend: dict[str, tuple[str, str | None]] | None = None) -> Boat:
    return Boat.from_text(LAYOUT, text, legend)


def with_row(y: int, row: str) -> str:
    lines = EMPTY.split("\n")
    lines[y] = row
    return "\n".join(lines)


# --- cells and masks ---------------------------------------------------------------------------


def test_cell_index_round_trip_and_guard_column() -> None:
    assert cell_index(0, 0) == 0 and cell_index(3, 2) == 2 * STRIDE + 3
    for x, y in ((0, 0), (21, 4), (7, 8)):
        assert cell_xy(cell_index(x, y)) == (x, y)
    guard = sum(1 << cell_index(STRIDE - 1, y) for y in range(9))
    assert not LAYOUT.cells_mask & guard  # shifting by one never wraps into the next row
    assert not neighbours(1 << cell_index(21, 4)) & (1 << cell_index(0, 5))


def test_mask_helpers() -> None:
    cells = [[1, 2], [5, 0], [3, 3]]
    mask = mask_of(cells)
    assert mask.bit_count() == 3
    assert cells_of(mask) == [[5, 0], [1, 2], [3, 3]]  # row by row
    assert list(iter_bits(mask)) == sorted(cell_index(x, y) for x, y in cells)
    assert neighbours(1 << cell_index(4, 4)) == mask_of([[3, 4], [5, 4], [4, 3], [4, 5]])


def test_flood_and_components() -> None:
    a = mask_of([[1, 1], [2, 1], [2, 2]])
    b = mask_of([[3, 3]])  # diagonal to (2, 2): a separate component
    assert flood(1 << cell_index(1, 1), a | b) == a
    assert components(a | b) == [a, b]
    assert components(0) == []


# --- text form --------------------------------------------------------------------------------


def test_empty_boat_picture() -> None:
    lines = EMPTY.split("\n")
    assert len(lines) == 9
    assert sum(line.count(".") + line.count("x") + line.count("+") for line in lines) == 142
    assert EMPTY.count("x") == 19 and EMPTY.count("+") == 5
    assert str(LAYOUT) == EMPTY


@pytest.mark.parametrize("text", [EMPTY, HALF, with_row(4, "bBgGrRpPoO$*..........")])
def test_text_round_trip(text: str) -> None:
    b = boat(text)
    assert str(b) == text
    again = boat(str(b))
    assert again.occupied == b.occupied and again.colour_masks == b.colour_masks
    assert sorted((t.kind, t.colour, t.mask) for t in again.tiles) == \
        sorted((t.kind, t.colour, t.mask) for t in b.tiles)


def test_text_tiles_and_kinds() -> None:
    b = boat(with_row(4, "bBgg$$*.o.............".replace("*.", "**")))
    kinds = sorted((t.kind, t.colour, t.mask.bit_count()) for t in b.tiles)
    assert kinds == [("cat", "blue", 1), ("cat", "green", 2), ("cat", "orange", 1),
                     ("common_treasure", None, 2), ("oshax", "blue", 1),
                     ("rare_treasure", None, 2)]


def test_legend_makes_one_tile_per_character() -> None:
    text = with_row(4, "112.33................")
    plain = boat(text.replace("1", "b").replace("2", "b").replace("3", "b"))
    assert len(plain.tiles) == 2  # "bbb" and "bb": connected groups
    legend = {"1": ("cat", "blue"), "2": ("cat", "blue"), "3": ("cat", "blue")}
    split = boat(text, legend)
    assert sorted(t.mask.bit_count() for t in split.tiles) == [1, 2, 2]
    assert str(split) == with_row(4, "bbb.bb................")


def test_bad_pictures_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown tile character"):
        boat(with_row(4, "z....................."))
    with pytest.raises(ValueError, match="leaves the boat"):
        boat(with_row(0, "b      +...xxxx"))


# --- placing tiles ----------------------------------------------------------------------------


def test_place_and_remove() -> None:
    b = Boat(LAYOUT)
    assert b.is_empty and b.free_mask == LAYOUT.cells_mask
    cat = Tile("cat", "red", "cat_01", mask_of([[4, 4], [5, 4]]))
    b.place(cat)
    assert not b.is_empty
    assert b.colour_masks["red"] == cat.mask and b.occupied == cat.mask
    with pytest.raises(ValueError):
        b.place(Tile("cat", "blue", "cat_02", mask_of([[5, 4], [6, 4]])))  # overlaps
    with pytest.raises(ValueError):
        b.place(Tile("cat", "blue", "cat_02", mask_of([[0, 0]])))  # outside the boat
    b.remove(cat)
    assert b.is_empty and b.colour_masks["red"] == 0


def test_tile_json() -> None:
    t = Tile("oshax", "green", "oshax_1", mask_of([[2, 3], [3, 3]]), 4)
    assert t.to_json() == {"kind": "oshax", "colour": "green", "shape": "oshax_1",
                           "cells": [[2, 3], [3, 3]], "id": 4}


# --- rats, rooms, maps -----------------------------------------------------------------------


def test_rats_rooms_and_maps_of_the_half_boat() -> None:
    b = boat(HALF)
    assert b.uncovered_rats() == 19 - 7  # covered: (11,0) (4,1) (7,3) (8,3) (0,5) (1,5) (1,6)
    assert b.uncovered_rats() == (LAYOUT.rats_mask & ~b.occupied).bit_count()
    filled = [r.key for r in LAYOUT.rooms if not r.mask & ~b.occupied]
    assert filled == ["moon_top"]
    assert b.filled_rooms() == 1 and b.unfilled_rooms() == 6
    empty = [r.key for r in LAYOUT.rooms if not r.mask & b.occupied]
    assert empty == ["corn_front", "parrot_front"]
    assert b.empty_rooms() == 2
    assert {c: b.map_covered(c) for c in LAYOUT.maps} == {
        "blue": False, "green": True, "red": True, "purple": False, "orange": False}


def test_empty_boat_facts() -> None:
    b = Boat(LAYOUT)
    assert (b.uncovered_rats(), b.unfilled_rooms(), b.filled_rooms(), b.empty_rooms()) == \
        (19, 7, 0, 7)
    assert not any(b.map_covered(c) for c in LAYOUT.maps)


# --- families ---------------------------------------------------------------------------------


def sizes(b: Boat) -> list[tuple[str, int]]:
    return [(colour, len(tiles)) for colour, tiles in b.families()]


def test_diagonal_cats_are_not_a_family() -> None:
    text = "\n".join(
        line if y not in (3, 4, 5) else {3: ".+.....xx.b........x.",
                                           4: "...........b..........",
                                           5: "xx..........b......+."}[y]
        for y, line in enumerate(EMPTY.split("\n")))
    assert sizes(boat(text)) == [("blue", 1)] * 3


def test_touching_cats_are_a_family_and_every_tile_is_in_one() -> None:
    legend = {ch: ("cat", "purple") for ch in "123"}
    b = boat(with_row(4, "123prr.r.............."), legend)
    families = b.families()
    assert sizes(b) == [("purple", 4), ("red", 1), ("red", 1)]
    assert sum(len(tiles) for _, tiles in families) == len(b.coloured_tiles())


def test_oshax_joins_its_colours_family() -> None:
    legend = {"1": ("cat", "red"), "2": ("cat", "red")}
    assert sizes(boat(with_row(4, "1R2..................."), legend)) == [("red", 3)]
    assert sorted(sizes(boat(with_row(4, "1B2..................."), legend))) == \
        [("blue", 1), ("red", 1), ("red", 1)]


def test_treasures_split_families() -> None:
    legend = {ch: ("cat", "green") for ch in "1234"}
    assert sizes(boat(with_row(4, "12$34................."), legend)) == [("green", 2)] * 2
    assert sizes(boat(with_row(4, "12.34................."), legend)) == [("green", 2)] * 2
    assert sizes(boat(with_row(4, "1234.................."), legend)) == [("green", 4)]


def test_families_of_the_half_boat() -> None:
    """Its two blue cats touch only diagonally; its green cat and green Oshax are kept apart
    by a row of treasure."""
    assert sorted(sizes(boat(HALF))) == [
        ("blue", 1), ("blue", 1), ("green", 1), ("green", 1), ("orange", 1), ("purple", 1),
        ("red", 1)]
