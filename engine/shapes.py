"""Tile shapes, their orientations, and legal placement enumeration.

Every shape has up to 8 orientations (4 rotations x mirror), deduplicated and
normalised to their top-left bounding box. A placement is identified by its
cell mask alone (two orientations never give the same cell set at the same
spot once deduplicated). Legality is computed for all anchors of an
orientation at once with shifts and ANDs over the whole boat: the anchors
where every cell is free, ANDed with the anchors where some neighbour is
occupied. That keeps a full enumeration to a few dozen big-integer
operations, and ``Placements`` stays lazy so nobody pays for a list of
thousands of masks unless they iterate it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from .boat import STRIDE, WIDTH, BoatLayout, cell_index, neighbours

Cells = tuple[tuple[int, int], ...]


def _normalise(cells: Sequence[tuple[int, int]]) -> Cells:
    min_x = min(x for x, _ in cells)
    min_y = min(y for _, y in cells)
    return tuple(sorted(((x - min_x, y - min_y) for x, y in cells), key=lambda c: (c[1], c[0])))


def _symmetries(cells: Cells) -> list[Cells]:
    """All 8 rotations/reflections, deduplicated, in a fixed order."""
    out: list[Cells] = []
    current = list(cells)
    for _mirror in range(2):
        for _rot in range(4):
            norm = _normalise(current)
            if norm not in out:
                out.append(norm)
            current = [(-y, x) for x, y in current]  # rotate 90 degrees clockwise
        current = [(-x, y) for x, y in current]  # mirror left-right
    return out


@dataclass(frozen=True)
class Orientation:
    index: int
    cells: Cells
    mask0: int  # cells with the top-left of the bounding box at bit 0
    width: int
    height: int
    offsets: tuple[int, ...]  # bit offsets of the cells, ascending
    neighbour_offsets: tuple[int, ...]  # bit offsets of adjacent cells (may be negative)
    anchor_mask: int  # anchors whose bounding box stays left of the guard column


@dataclass(frozen=True)
class Shape:
    key: str
    cells: Cells
    orientations: tuple[Orientation, ...]

    @property
    def size(self) -> int:
        return len(self.cells)

    @classmethod
    def from_grid(cls, key: str, grid: Sequence[Sequence[int]]) -> Shape:
        cells = _normalise([(x, y) for y, row in enumerate(grid) for x, v in enumerate(row) if v])
        orientations = []
        for i, ocells in enumerate(_symmetries(cells)):
            width = max(x for x, _ in ocells) + 1
            height = max(y for _, y in ocells) + 1
            offsets = tuple(sorted(cell_index(x, y) for x, y in ocells))
            cellset = set(ocells)
            nbrs = set()
            for x, y in ocells:
                for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if (nx, ny) not in cellset:
                        nbrs.add(ny * STRIDE + nx)
            anchor = 0
            for y in range(16):
                for x in range(WIDTH - width + 1):
                    anchor |= 1 << cell_index(x, y)
            mask0 = sum(1 << o for o in offsets)
            orientations.append(
                Orientation(i, ocells, mask0, width, height, offsets, tuple(sorted(nbrs)), anchor)
            )
        return cls(key, cells, tuple(orientations))

    def orientation_of(self, mask: int) -> tuple[Orientation, int] | None:
        """The orientation and anchor bit that produce exactly ``mask``, if any."""
        if mask <= 0:
            return None
        low = (mask & -mask).bit_length() - 1
        for o in self.orientations:
            anchor = low - o.offsets[0]
            if anchor >= 0 and (o.anchor_mask >> anchor) & 1 and (o.mask0 << anchor) == mask:
                return o, anchor
        return None

    def __str__(self) -> str:
        w = max(x for x, _ in self.cells) + 1
        h = max(y for _, y in self.cells) + 1
        cs = set(self.cells)
        return "\n".join("".join("#" if (x, y) in cs else "." for x in range(w)) for y in range(h))


def _shift(mask: int, offset: int) -> int:
    """Bit ``a`` of the result is bit ``a + offset`` of ``mask``."""
    return mask >> offset if offset >= 0 else mask << -offset


def nth_bit(mask: int, n: int) -> int:
    """The index of the ``n``-th set bit of ``mask`` (0 = the lowest), found by halving the
    mask by its bit counts: a random pick among a thousand placements of an empty boat costs
    a dozen big-integer operations rather than a walk over every bit before it."""
    base = 0
    while n >= 8:
        half = mask.bit_length() >> 1
        low = mask & ((1 << half) - 1)
        below = low.bit_count()
        if n < below:
            mask = low
        else:
            n -= below
            mask >>= half
            base += half
    for _ in range(n):
        mask &= mask - 1
    return base + (mask & -mask).bit_length() - 1


def row_placement(rows: list[tuple[int, int, int]], index: int) -> int:
    """The ``index``-th placement of ``paired_rows``' rows (as ``Placements[index]``)."""
    for mask0, anchors, c in rows:
        if index < c:
            return mask0 << nth_bit(anchors, index)
        index -= c
    raise IndexError(index)  # pragma: no cover


# per orientation: mask0, anchor_mask and (kind, offset) terms (``pair_plan``)
PairPlan = tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...]
# the free cells and the near cells, each alone, with the cell to the right, with the cell
# below (``pair_masks``)
PairMasks = tuple[tuple[int, int, int], tuple[int, int, int]]


def pair_plan(orientations: Sequence[Orientation]) -> PairPlan:
    """Per orientation, its ``mask0``, its ``anchor_mask`` and its cells as the fewest terms
    of ``paired_rows``: ``(kind, offset)`` reads the cell at ``offset`` alone (kind 0), with
    the cell to its right (1) or with the cell below it (2). The Duel's cats average 16
    terms over their orientations where ``legal_placements`` reads 28 cells, each a shift and
    an AND of the whole boat's mask (the Duel playout's placements). Worked out once per
    shape."""
    return tuple((o.mask0, o.anchor_mask, _pair_terms(o.offsets)) for o in orientations)


@cache
def _pair_terms(offsets: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The fewest terms whose cells together are ``offsets``: as many disjoint pairs of side
    by side cells as can be (a maximum matching, found by trying both pairings of the lowest
    cell left: shapes have a handful of cells), then each cell left alone. Kept per cell set
    (many cats share a shape)."""

    def most_pairs(cells: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        if not cells:
            return ()
        low, rest = cells[0], cells[1:]
        best = most_pairs(rest)  # ``low`` left alone; else paired right or down
        for kind, other in ((1, low + 1), (2, low + STRIDE)):
            if other in rest:
                pairs = ((kind, low), *most_pairs(tuple(c for c in rest if c != other)))
                if len(pairs) > len(best):
                    best = pairs
        return best

    pairs = most_pairs(tuple(sorted(offsets)))
    paired = {c for kind, c in pairs} | {c + (1 if kind == 1 else STRIDE) for kind, c in pairs}
    return pairs + tuple((0, c) for c in offsets if c not in paired)


def pair_masks(free: int, near_cells: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """What ``paired_rows`` reads, per term kind: the free cells, those whose right-hand cell
    is free too, those whose cell below is free too; and the near cells, those next to a
    near cell on the right, those above a near cell. Worked out once per decision (four
    shifts), then shared by every shape asked about."""
    return ((free, free & (free >> 1), free & (free >> STRIDE)),
            (near_cells, near_cells | (near_cells >> 1), near_cells | (near_cells >> STRIDE)))


def paired_rows(plan: PairPlan, masks: tuple[tuple[int, int, int], tuple[int, int, int]],
                touch: bool) -> tuple[list[tuple[int, int, int]], int]:
    """``legal_placements``' rows without the ``Placements`` around them, for the random
    playouts (``DuelGame.playout``, ``placement.draw_placement``), which draw one placement
    by its index and build only that one: per orientation that has a placement, its
    ``mask0``, its anchors and their count, and the total count. From the orientations'
    ``pair_plan`` and ``pair_masks(free, near_cells)``, with ``free``, ``near_cells`` and
    ``touch`` as ``legal_placements`` works them out: the very same anchors in the same
    order (bit ``a`` of a term's mask shifted by its offset is the AND, or for near cells
    the OR, of its cells at anchor ``a``, and the terms together read exactly the
    orientation's cells), with about half the big-integer operations."""
    frees, nears = masks
    rows = []
    count = 0
    for mask0, anchors, terms in plan:
        for kind, off in terms:
            anchors &= frees[kind] >> off
            if not anchors:
                break
        else:
            if touch:
                near = 0
                for kind, off in terms:
                    near |= nears[kind] >> off
                anchors &= near
                if not anchors:
                    continue
            c = anchors.bit_count()
            rows.append((mask0, anchors, c))
            count += c
    return rows, count


def paired_fit(plan: PairPlan, masks: tuple[tuple[int, int, int], tuple[int, int, int]],
               anywhere: bool) -> bool:
    """``orientations_fit`` from the orientations' ``pair_plan`` and ``pair_masks``, for a
    caller that asks one boat about several shapes (the standard rules' fit tests: a rescue
    turn asks about every cat in the fields), which works the masks out once: the same
    answer with about half the big-integer operations per orientation."""
    frees, nears = masks
    for _mask0, anchors, terms in plan:
        for kind, off in terms:
            anchors &= frees[kind] >> off
            if not anchors:
                break
        else:
            if anywhere:
                return True
            for kind, off in terms:
                if anchors & (nears[kind] >> off):
                    return True
    return False


class Placements:
    """The legal placements of one shape on one boat: a lazy sequence of masks.

    Answers ``len``, iteration, indexing and ``in`` without building a list.
    """

    __slots__ = ("shape", "_rows", "_len")

    def __init__(self, shape: Shape, rows: list[tuple[Orientation, int]],
                 count: int | None = None) -> None:
        self.shape = shape
        self._rows = rows  # (orientation, anchors mask)
        self._len = sum(a.bit_count() for _, a in rows) if count is None else count

    def __len__(self) -> int:
        return self._len

    def __bool__(self) -> bool:
        return self._len > 0

    def __iter__(self) -> Iterator[int]:
        for o, anchors in self._rows:
            m0 = o.mask0
            while anchors:  # m0 shifted to each anchor bit, lowest first
                low = anchors & -anchors
                yield m0 * low
                anchors ^= low

    def __getitem__(self, index: int) -> int:
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("placement index out of range")
        for o, anchors in self._rows:
            n = anchors.bit_count()
            if index < n:
                return o.mask0 << nth_bit(anchors, index)
            index -= n
        raise IndexError(index)  # pragma: no cover

    def key(self) -> tuple[str, tuple[tuple[int, int], ...]]:
        """A hashable value equal for two ``Placements`` of the same masks in the same order:
        the shape and each orientation's anchors."""
        return self.shape.key, tuple((o.index, anchors) for o, anchors in self._rows)

    def __contains__(self, mask: object) -> bool:
        if not isinstance(mask, int):
            return False
        found = self.shape.orientation_of(mask)
        if found is None:
            return False
        o, anchor = found
        for ro, anchors in self._rows:
            if ro is o:
                return bool((anchors >> anchor) & 1)
        return False

    def __repr__(self) -> str:
        return f"<Placements {self.shape.key}: {self._len}>"


def legal_placements(
    shape: Shape, layout: BoatLayout, occupied: int, *, anywhere: bool = False
) -> Placements:
    """Placements inside the boat, not overlapping, touching a tile unless the boat
    is empty or ``anywhere`` (cards 69/70, drawn-tile fit checks) is set.

    A tile touches a tile when one of its cells is a free cell next to an occupied one
    (``_touchable``): tested over the tile's own few cells rather than over all of its
    neighbours' offsets, some of them negative."""
    free = layout.cells_mask & ~occupied
    touch = occupied and not anywhere
    near_cells = _touchable(occupied, free) if touch else 0
    rows = []
    count = 0  # counted here, not by a second pass in Placements
    for o in shape.orientations:
        anchors = o.anchor_mask
        offsets = o.offsets
        for off in offsets:
            anchors &= free >> off
            if not anchors:
                break
        if anchors and touch:
            near = 0
            for off in offsets:
                near |= near_cells >> off
            anchors &= near
        if anchors:
            rows.append((o, anchors))
            count += anchors.bit_count()
    return Placements(shape, rows, count)


def has_legal_placement(
    shape: Shape, layout: BoatLayout, occupied: int, *, anywhere: bool = False
) -> bool:
    """``bool(legal_placements(...))``, stopped at the first placement found (rescue
    options, treasure offers and Duel discoveries ask only whether a tile fits)."""
    free = layout.cells_mask & ~occupied
    touch = bool(occupied) and not anywhere
    near_cells = _touchable(occupied, free) if touch else 0
    return orientations_fit(shape.orientations, free, near_cells, not touch)


def orientations_fit(orientations: Sequence[Any], free: int, near_cells: int,
                     anywhere: bool) -> bool:  # fmt: skip
    """Whether one of a shape's ``orientations`` fits inside the ``free`` cells, touching one
    of ``near_cells`` unless ``anywhere``: the one loop behind every "does it fit" question
    (``has_legal_placement`` and the standard rules' fit tests)."""
    for o in orientations:
        anchors = o.anchor_mask
        offsets = o.offsets
        for off in offsets:
            anchors &= free >> off
            if not anchors:
                break
        if not anchors:
            continue
        if anywhere:
            return True
        for off in offsets:
            if anchors & (near_cells >> off):
                return True
    return False


def _touchable(occupied: int, free: int) -> int:
    """Free cells orthogonally next to an occupied cell. The guard column to the right of
    every row keeps a shift by one from wrapping into the next row onto a real cell."""
    return ((occupied << 1) | (occupied >> 1) | (occupied << STRIDE)
            | (occupied >> STRIDE)) & free


def is_legal_placement(
    shape: Shape, layout: BoatLayout, occupied: int, mask: int, *, anywhere: bool = False
) -> str | None:
    """None when legal, otherwise the reason in words (for IllegalAction)."""
    if shape.orientation_of(mask) is None:
        return f"those cells are not a rotation or reflection of shape {shape.key}"
    if mask & ~layout.cells_mask:
        return "the tile would leave the boat"
    if mask & occupied:
        return "the tile would overlap another tile"
    if occupied and not anywhere and not neighbours(mask) & occupied:
        return "the tile must touch a tile already on the boat"
    return None


def mask_from_cells(cells: Sequence[Sequence[int]]) -> int:
    """Decode ``[[x, y], ...]`` from a bot; raises ValueError on nonsense."""
    mask = 0
    for cell in cells:
        if len(cell) != 2:
            raise ValueError("a cell is a pair [x, y]")
        x, y = cell
        if not (isinstance(x, int) and isinstance(y, int)) or not (0 <= x < WIDTH and 0 <= y < 16):
            raise ValueError(f"cell {list(cell)!r} is off the grid")
        bit = 1 << cell_index(x, y)
        if mask & bit:
            raise ValueError(f"cell {list(cell)!r} is listed twice")
        mask |= bit
    return mask


@dataclass(frozen=True, eq=False)  # hashed by identity: by_key caches per instance
class BaseShapes:
    """Every tile shape of the base game, by kind."""

    colours: tuple[str, ...]
    cats: tuple[Shape, ...]
    oshax: tuple[Shape, ...]
    rare_treasures: tuple[Shape, ...]
    rare_counts: dict[str, int]
    common_treasures: tuple[Shape, ...]
    small_common: frozenset[str]
    common_count_per_shape: dict[int, int]  # by number of players

    def by_key(self, key: str) -> Shape:
        return _shape_index(self)[key]


@cache
def _shape_index(shapes: BaseShapes) -> dict[str, Shape]:
    return {s.key: s for group in (shapes.cats, shapes.oshax, shapes.rare_treasures,
                                   shapes.common_treasures) for s in group}


@cache
def base_shapes() -> BaseShapes:
    raw = json.loads(resources.files("engine.data.base").joinpath("shapes.json").read_text())
    return BaseShapes(
        colours=tuple(raw["colours"]),
        cats=tuple(Shape.from_grid(s["key"], s["grid"]) for s in raw["cats"]),
        oshax=tuple(Shape.from_grid(s["key"], s["grid"]) for s in raw["oshax"]),
        rare_treasures=tuple(Shape.from_grid(s["key"], s["grid"]) for s in raw["rare_treasures"]),
        rare_counts={s["key"]: s["count"] for s in raw["rare_treasures"]},
        common_treasures=tuple(
            Shape.from_grid(s["key"], s["grid"]) for s in raw["common_treasures"]
        ),
        small_common=frozenset(s["key"] for s in raw["common_treasures"] if s["small"]),
        common_count_per_shape={int(k): v for k, v in raw["common_count_per_shape"].items()},
    )
