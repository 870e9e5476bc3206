"""Shapes, orientations and placement enumeration, checked against a brute-force
enumeration written here (every cell, every one of the 8 symmetries) and against golden
counts in tests/engine/golden/placements.json (perft-style, as python-chess does).

Regenerate the golden file (only when the boats or shapes data change on purpose) with
``PYTHONPATH=. python tests/engine/test_shapes.py --regenerate``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from engine.boat import HEIGHT, STRIDE, WIDTH, Boat, BoatLayout, base_layouts, cell_index
from engine.shapes import (
    Shape,
    _touchable,
    base_shapes,
    is_legal_placement,
    legal_placements,
    pair_masks,
    pair_plan,
    paired_fit,
    paired_rows,
    row_placement,
)

GOLDEN = Path(__file__).parent / "golden" / "placements.json"
LAYOUT = base_layouts()["blue"]

HALF_LEFT = (GOLDEN.parent / "half_left_boat.txt").read_text().rstrip("\n")
SCATTERED = """\
       +...xxxx
    x...bbb...+..
 .......b..$.....xx
.+.....xx...rr.....x.
.......ooo..rr......$.
xx......o..........+.
 x.............xppp
    .....+....xx.
       ...x..xx"""
BOATS = {"empty": "", "half_left": HALF_LEFT, "scattered": SCATTERED}


def all_shapes() -> list[Shape]:
    s = base_shapes()
    return [*s.cats, *s.oshax, *s.rare_treasures, *s.common_treasures]


def occupied_of(name: str) -> int:
    return Boat.from_text(LAYOUT, BOATS[name]).occupied if BOATS[name] else 0


# --- brute force, independent of engine.shapes ---------------------------------------------


def symmetries(cells: tuple[tuple[int, int], ...]) -> list[frozenset[tuple[int, int]]]:
    """The distinct images of ``cells`` under the 4 rotations and their mirrors, in the
    engine's documented order (clockwise rotations, then the same mirrored), each moved
    to the top-left of its bounding box."""
    out: list[frozenset[tuple[int, int]]] = []
    for mirror in (False, True):
        for turns in range(4):
            pts = [(-x, y) for x, y in cells] if mirror else list(cells)
            for _ in range(turns):
                pts = [(-y, x) for x, y in pts]
            mx, my = min(x for x, _ in pts), min(y for _, y in pts)
            image = frozenset((x - mx, y - my) for x, y in pts)
            if image not in out:
                out.append(image)
    return out


def brute_force(shape: Shape, layout: BoatLayout, occupied: int,
                anywhere: bool = False) -> list[int]:
    inside = {(x, y) for y in range(HEIGHT) for x in range(WIDTH)
              if layout.cells_mask >> cell_index(x, y) & 1}
    taken = {c for c in inside if occupied >> cell_index(*c) & 1}
    out = []
    for image in symmetries(shape.cells):
        for y in range(HEIGHT):
            for x in range(WIDTH):
                cells = {(x + dx, y + dy) for dx, dy in image}
                if not cells <= inside or cells & taken:
                    continue
                near = {(cx + ox, cy + oy) for cx, cy in cells
                        for ox, oy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
                if taken and not anywhere and not near & taken:
                    continue
                out.append(sum(1 << cell_index(cx, cy) for cx, cy in cells))
    return out


# --- orientations -----------------------------------------------------------------------------

ORIENTATIONS = {
    "cats": [4, 4, 4, 8, 8, 8, 8, 4, 8, 4, 8, 8, 1, 8, 4, 2, 4],
    "oshax": [4, 4, 8, 8, 8, 8],
    "rare_treasures": [8, 4, 1, 4, 2],
    "common_treasures": [1, 2, 4, 2],
}


@pytest.mark.parametrize("group", sorted(ORIENTATIONS))
def test_distinct_orientations_per_shape(group: str) -> None:
    shapes = getattr(base_shapes(), group)
    assert [len(s.orientations) for s in shapes] == ORIENTATIONS[group]
    for s in shapes:
        assert [frozenset(o.cells) for o in s.orientations] == symmetries(s.cells)


def test_orientations_are_normalised() -> None:
    for s in all_shapes():
        for o in s.orientations:
            assert min(x for x, _ in o.cells) == 0 and min(y for _, y in o.cells) == 0
            assert len(o.cells) == s.size
            assert o.mask0 == sum(1 << (y * STRIDE + x) for x, y in o.cells)


# --- golden counts and the brute force ---------------------------------------------------------


def golden_counts() -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for name in BOATS:
        occupied = occupied_of(name)
        counts = {s.key: len(legal_placements(s, LAYOUT, occupied)) for s in all_shapes()}
        anywhere = sum(len(legal_placements(s, LAYOUT, occupied, anywhere=True))
                       for s in all_shapes())
        out[name] = {"counts": counts, "total": sum(counts.values()),
                     "total_anywhere": anywhere}
    return out


def test_golden_placement_counts() -> None:
    golden = json.loads(GOLDEN.read_text())
    assert golden["layout"] == "blue"
    assert golden["boats"] == golden_counts()
    assert golden["boats"]["empty"]["total"] == 15101
    assert golden["boats"]["empty"]["total_anywhere"] == 15101


@pytest.mark.parametrize("name", sorted(BOATS))
def test_placements_agree_with_brute_force(name: str) -> None:
    """Same masks in the same order, and the counts the golden file records."""
    occupied = occupied_of(name)
    golden = json.loads(GOLDEN.read_text())["boats"][name]
    for s in all_shapes():
        expected = brute_force(s, LAYOUT, occupied)
        placements = legal_placements(s, LAYOUT, occupied)
        assert list(placements) == expected, s.key
        assert len(placements) == len(expected) == golden["counts"][s.key]
    anywhere = sum(len(brute_force(s, LAYOUT, occupied, anywhere=True)) for s in all_shapes())
    assert anywhere == golden["total_anywhere"]


@pytest.mark.parametrize("name", sorted(BOATS))
def test_paired_rows_are_the_rows_of_legal_placements(name: str) -> None:
    """``paired_rows`` (cells read in side-by-side pairs: the playouts' placements) gives
    ``legal_placements``' very rows, so every index draws the brute force's mask, and
    ``paired_fit`` (the standard rules' fit tests) says whether the brute force finds one;
    for every shape, and the Duel's cats and treasures on each Duel boat with the same
    tiles' cells."""
    from engine.modes.duel.game import _CAT_PLANS, _TREASURE_PLANS, CATS, D

    occupied = occupied_of(name)
    cases = [(LAYOUT, pair_plan(s.orientations), s) for s in all_shapes()]
    for layout in D.layouts.values():
        cases += [(layout, plan, c.shape) for c, plan in zip(CATS, _CAT_PLANS, strict=True)]
        cases += [(layout, plan, s) for s, plan in _TREASURE_PLANS]
    for layout, plan, shape in cases:
        taken = occupied & layout.cells_mask
        free = layout.cells_mask & ~taken
        for anywhere in (False, True):
            touch = taken != 0 and not anywhere
            near = _touchable(taken, free) if touch else 0
            masks = pair_masks(free, near)
            expected = legal_placements(shape, layout, taken, anywhere=anywhere)
            rows = paired_rows(plan, masks, touch)
            assert rows == ([(o.mask0, a, a.bit_count()) for o, a in expected._rows],
                            len(expected))
            drawn = [row_placement(rows[0], i) for i in range(rows[1])]
            assert drawn == brute_force(shape, layout, taken, anywhere=anywhere)
            assert paired_fit(plan, masks, not touch) == bool(drawn)


def test_paired_fit_and_rows_need_a_cell_on_the_near_cells() -> None:
    """With the touch rule, a placement counts only when one of its cells is a near cell:
    near cells drawn at random among the free ones (a few cells, often none under a shape
    that fits elsewhere), against the brute force's placements that cover one."""
    rng = random.Random(27)
    for name in sorted(BOATS):
        taken = occupied_of(name)
        free = LAYOUT.cells_mask & ~taken
        cells = [i for i in range(free.bit_length()) if free >> i & 1]
        for s in all_shapes():
            plan = pair_plan(s.orientations)
            anywhere = brute_force(s, LAYOUT, taken, anywhere=True)
            for count in (1, 2, 5):
                near = sum(1 << i for i in rng.sample(cells, count))
                masks = pair_masks(free, near)
                touching = [m for m in anywhere if m & near]
                rows, n = paired_rows(plan, masks, True)
                assert sorted(row_placement(rows, i) for i in range(n)) == sorted(touching)
                assert paired_fit(plan, masks, False) == bool(touching)


# --- the lazy sequence ---------------------------------------------------------------------------


def test_placements_sequence_semantics() -> None:
    occupied = occupied_of("scattered")
    shape = base_shapes().cats[3]
    placements = legal_placements(shape, LAYOUT, occupied)
    masks = brute_force(shape, LAYOUT, occupied)
    assert len(placements) == len(masks) > 0
    assert bool(placements)
    assert [placements[i] for i in range(len(placements))] == masks
    assert placements[-1] == masks[-1] and placements[-len(masks)] == masks[0]
    for bad in (len(masks), -len(masks) - 1):
        with pytest.raises(IndexError):
            placements[bad]
    assert all(m in placements for m in masks)
    legal = set(masks)
    everywhere = brute_force(shape, LAYOUT, 0, anywhere=True)
    illegal = [m for m in everywhere if m not in legal]
    assert illegal and not any(m in placements for m in illegal)
    assert "x" not in placements and 0 not in placements and -5 not in placements
    other_shape = base_shapes().oshax[0]
    assert not any(m in placements for m in brute_force(other_shape, LAYOUT, occupied))


def test_no_placement_on_a_full_boat() -> None:
    placements = legal_placements(base_shapes().common_treasures[0], LAYOUT, LAYOUT.cells_mask)
    assert len(placements) == 0 and not placements and list(placements) == []


# --- legality reasons --------------------------------------------------------------------------


def test_is_legal_placement_reasons() -> None:
    occupied = occupied_of("scattered")
    shape = base_shapes().common_treasures[3]  # the 3-square line
    legal = legal_placements(shape, LAYOUT, occupied)
    assert is_legal_placement(shape, LAYOUT, occupied, legal[0]) is None

    def line(x: int, y: int) -> int:
        return sum(1 << cell_index(x + i, y) for i in range(3))

    assert "not a rotation or reflection" in is_legal_placement(
        shape, LAYOUT, occupied, line(3, 4) | 1 << cell_index(3, 5))
    assert "leave the boat" in is_legal_placement(shape, LAYOUT, occupied, line(0, 1))
    assert "overlap" in is_legal_placement(shape, LAYOUT, occupied, line(6, 4))
    assert "must touch" in is_legal_placement(shape, LAYOUT, occupied, line(1, 2))
    assert is_legal_placement(shape, LAYOUT, occupied, line(1, 2), anywhere=True) is None
    assert is_legal_placement(shape, LAYOUT, 0, line(1, 2)) is None  # first tile: anywhere


def test_every_enumerated_placement_is_legal() -> None:
    occupied = occupied_of("half_left")
    for s in all_shapes():
        for mask in legal_placements(s, LAYOUT, occupied):
            assert is_legal_placement(s, LAYOUT, occupied, mask) is None


def regenerate() -> None:
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    data = {"layout": "blue", "boats": golden_counts()}
    GOLDEN.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {GOLDEN}")


if __name__ == "__main__" and sys.argv[1:] == ["--regenerate"]:
    regenerate()
