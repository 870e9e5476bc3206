"""How the greedy bot of the standard game and solo values putting one tile on its boat.

Two stages. ``PlacementEval.quick`` scores every legal placement with bit tricks: rats
covered, rooms completed, the family table, the map reward, plus shaping for the future
(progress in rooms that are partly full, family growth, contact, no one-cell holes).
The best ``DEEP_CANDIDATES`` are then scored by ``PlacementEval.deep``: the change of the
real final score sheet (``scoring.score_table`` on the boat with the tile: rats, rooms,
families, rare treasures, the seat's private lessons and the public ones), in solo minus
the change of the sister's score (her lessons, and her colour cards: revealed ones by their
points, hidden ones averaged), plus the same shaping and a penalty for small pockets of
free cells that only small treasures could ever fill.

Everything here is one seat's knowledge: its own boat and lessons, the public lessons,
the other boats (public) and the sister's public cards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from heapq import heappush, heapreplace
from typing import Any

from ..boat import (
    COLOURS,
    STRIDE,
    Boat,
    Tile,
    components,
    neighbours,
    remember_family_sizes,
)
from ..scoring import (
    RARE_TREASURE_POINTS,
    RAT_POINTS,
    UNFILLED_ROOM_POINTS,
    PlayerFacts,
    TableFacts,
    family_points,
    lesson_reads,
    score_total,
    sheet_lesson_points,
    sister_score,
)
from ..shapes import Placements

# --- the weights, in points; measured with bench/greedy_winrate.py and bench/solo_winrate.py --
ROOM_POINTS = 5.0  # an unfilled room costs 5 at the end
RARE_POINTS = 3.0  # a rare treasure on the boat
MAP_REWARD = 3.0  # covering the map of the cat's colour: a free common treasure
ROOM_PROGRESS = 2.5  # covering all of what is left of a room (short of filling it)
FAMILY_GROWTH = 1.5  # per tile of a family the tile joins: big families grow further
MIXING = 0.4  # per cell of other-coloured cats touched (they block the family)
CONTACT = 0.25  # per neighbouring cell that is a tile or outside the boat
HOLE = 1.0  # per new one-cell hole (quick stage)
POCKET_CELL = 1.2  # per cell of a new free pocket of 1-2 cells (deep stage)
POCKET_SMALL = 1.0  # per new free pocket of 3-4 cells: no cat fits, only treasures
DEEP_CANDIDATES = 12  # placements the deep stage re-scores

# ``PlacementEval.shortlist`` on empty boats, by layout, tile, bonuses and placements
_EMPTY_BOAT_SHORTLISTS: dict[tuple[Any, ...], tuple[tuple[float, int], ...]] = {}
# the same of the placements covering no map cell (the same for every colour), with the masks
# of those that do: ``PlacementEval._empty_boat_top``
_EMPTY_BOAT_OFF_MAPS: dict[tuple[Any, ...],
                           tuple[tuple[tuple[float, int], ...], tuple[int, ...]]] = {}

_FAMILY_POINTS = tuple(family_points(n) for n in range(64))  # the family table, looked up


def hole_mask(free: int) -> int:
    """Free cells none of whose four neighbours is free (one-cell holes)."""
    spread = (free << 1) | (free >> 1) | (free << STRIDE) | (free >> STRIDE)
    return free & ~spread


def _small_region(seed: int, within: int) -> int:
    """``flood(seed, within)`` when that region has at most 4 cells; otherwise a part of it
    with more than 4 (``pockets`` only tells regions of 1-2 and 3-4 cells from bigger ones, so
    it need not flood the whole free space: a seed of the same region met again is grown
    again and found big again)."""
    region = seed & within
    while True:
        grown = (region | (region << 1) | (region >> 1) | (region << STRIDE)
                 | (region >> STRIDE)) & within
        if grown == region or grown.bit_count() > 4:
            return grown
        region = grown


def sister_cost(game: Any, colour: str | None) -> float:
    """Solo only: what one more tile of ``colour`` is expected to give the sister (her colour
    cards pay 5/4/3/2/1 per tile by reveal order; unrevealed ones are averaged)."""
    sister = getattr(game, "sister", None)
    if sister is None or colour is None:
        return 0.0
    revealed = sister.colour_order
    if colour in revealed:
        return float(5 - revealed.index(colour))
    left = range(len(revealed), len(COLOURS))
    return sum(5 - i for i in left) / len(left) if left else 0.0


@dataclass
class SheetJudge:
    """The real final score of a hypothetical boat of this seat, as far as the seat knows:
    its sheet total, minus in solo what the sister's lessons take from that boat."""

    fish: int = 0
    private_lessons: tuple[int, ...] = ()
    public_lessons: tuple[tuple[int, str | None], ...] = ()
    baskets: int = 1
    others: list[Boat] = field(default_factory=list)  # other seats' boats (largest family)
    mode: str = "standard"
    sister_lessons: tuple[int, ...] = ()

    # the last boat scored, its tiles then and its score: a decision values several tiles on
    # one boat (``PlacementEval.sheet_delta``'s base), each by its own PlacementEval
    _last: tuple[Boat, list[Tile], float] | None = field(default=None, init=False, repr=False,
                                                          compare=False)

    def score(self, boat: Boat) -> float:
        last = self._last
        if last is not None and last[0] is boat and last[1] == boat.tiles:
            return last[2]  # the same tiles (the same objects), so the same sheet
        me = PlayerFacts(boat, self.fish, self.private_lessons, self.baskets, 0)
        players = [me, *(PlayerFacts(b) for b in self.others)]
        total = score_total(TableFacts(players, self.public_lessons, self.mode))
        if self.sister_lessons:
            total -= sister_score(me, (), self.sister_lessons)["total"]
        self._last = (boat, list(boat.tiles), float(total))
        return float(total)


def judge_for(game: Any, seat: int) -> SheetJudge:
    """The seat's judge: its lessons, the public lessons and, in solo, the sister's lessons."""
    state = game.state
    me = state.players[seat]
    sister = getattr(game, "sister", None)
    needs_others = 121 in me.private_lessons  # "largest family" compares boats
    return SheetJudge(
        fish=me.fish, private_lessons=tuple(me.private_lessons),
        public_lessons=tuple(state.public_lessons), baskets=me.baskets,
        others=[p.boat for p in state.players if p.seat != seat] if needs_others else [],
        mode=game.scoring_mode,
        sister_lessons=tuple(sister.lessons) if sister is not None else (),
    )


class PlacementEval:
    """Facts about one boat and one tile, computed once, to score its many placements."""

    def __init__(self, boat: Boat, colour: str | None, *, map_reward: bool = True,
                 rare: bool = False, judge: SheetJudge | None = None,
                 sister: float = 0.0, kind: str | None = None, shape: str = "") -> None:
        layout = boat.layout
        occ = boat.occupied
        self.boat = boat
        self.colour = colour
        self.kind = kind or ("rare_treasure" if rare else "cat" if colour else "common_treasure")
        self.shape = shape
        self.judge = judge
        self.sister = sister  # expected sister colour points per tile (solo)
        self.occ = occ
        self.cells = layout.cells_mask
        self.free = layout.cells_mask & ~occ
        self.rats = layout.rats_mask & ~occ
        self.rooms = [r.mask & ~occ for r in layout.rooms if r.mask & ~occ]
        self.bonus = RARE_POINTS if rare else 0.0
        self.families: list[tuple[int, int]] = []  # (mask, tiles) of this colour
        self.map = 0
        self.others = 0  # tiles of other colours (mixing colours blocks families)
        self.treasures = 0  # the treasures' cells
        for t in boat.tiles:
            if t.colour is None:
                self.treasures |= t.mask
        self._members: list[int] = []  # the masks of this colour's tiles, in the boat's order
        if colour is not None:
            self._members = [t.mask for t in boat.tiles if t.colour == colour]
            # each connected part once, with its tiles (every sum over the families is of
            # ints, so their order changes nothing)
            for part in components(boat.colour_masks[colour]):
                self.families.append((part, sum(1 for m in self._members if m & part)))
            if map_reward and not layout.maps[colour] & occ:
                self.map = layout.maps[colour]
            self.others = occ & ~boat.colour_masks[colour] & ~self.treasures
        self.coloured = colour is not None
        self.holes_before = hole_mask(self.free).bit_count()
        # for ``quick``: the rooms' free cells with their counts, the families with their
        # points, the cells that count as contact
        self._rooms_sized = [(rest, rest.bit_count()) for rest in self.rooms]
        self._families_scored = [(mask, tiles, family_points(tiles))
                                 for mask, tiles in self.families]
        self._blocked = self.occ | ~self.cells
        self._quick: Callable[[Iterable[int], int], list[tuple[float, int]]] | None = None
        self._quick_one: Callable[[int], float] | None = None
        self._shapes: dict[int, float] = {}  # see ``top_function``
        self._base: float | None = None
        self._after: _AfterSheet | None = None

    # --- quick stage: every placement ---------------------------------------------------------
    def quick(self, m: int) -> float:
        """The quick value of the tile at ``m`` (``top_function``)."""
        return self.quick_function()(m)

    def quick_function(self) -> Callable[[int], float]:
        """``quick`` as a function of the mask: ``top`` of that one mask, so that the quick
        value has one definition, the loop of ``top_function``. For callers that value
        masks one at a time (the search's candidates); the bot's shortlists call ``top``
        over every placement of a tile at once."""
        kept = self._quick_one
        if kept is None:
            top = self.top_function()

            def quick(m: int) -> float:
                return top((m,), 1)[0][0]

            kept = self._quick_one = quick
        return kept

    def shaping(self, m: int) -> float:
        """The shaping term of the tile at ``m``'s quick value (``top_function``), which the
        deep stage adds to the sheet's change: kept by ``top`` for the masks it kept (most
        asked), worked out by ``top`` of that one mask for the others."""
        shape = self._shapes.get(m)
        if shape is None:
            self.top_function()((m,), 1)
            shape = self._shapes[m]
        return shape

    def top_function(self) -> Callable[[Iterable[int], int], list[tuple[float, int]]]:
        """``top(placements, n)``: the ``n`` best ``(quick value, mask)`` of the placements,
        best first, as ``sorted(((quick(m), m) for m in placements), reverse=True)[:n]``
        would give them. The quick value is defined here and only here: the score-sheet
        part, estimated (rare bonus, rats covered, rooms completed, the family table), plus
        the shaping for what the sheet does not see yet (rooms near completion, families
        that can grow, the map reward, mixing colours, contact, one-cell holes), less the
        sister's expected points. Called over every legal placement of every tile the bot
        considers, it is the greedy bot's inner loop: the loop is inside (no call per mask)
        and a mask below the n-th best so far makes no tuple."""
        kept = self._quick
        if kept is not None:
            return kept
        bonus, rats, rooms = self.bonus, self.rats, self._rooms_sized
        coloured, families, the_map = self.coloured, self._families_scored, self.map
        others, blocked, free_before = self.others, self._blocked, self.free
        holes_before, sister = self.holes_before, self.sister
        table = _FAMILY_POINTS
        shapes = self._shapes  # the shaping term of the masks kept, for ``deep``
        holes_now = hole_mask(free_before)  # the one-cell holes before the tile

        def top(placements: Iterable[int], n: int) -> list[tuple[float, int]]:
            best: list[tuple[float, int]] = []  # a heap of the n best so far, worst first
            floor = (float("-inf"), 0)  # the worst of them once there are n
            for m in placements:
                around = ((m << 1) | (m >> 1) | (m << STRIDE) | (m >> STRIDE)) & ~m
                score = bonus + (m & rats).bit_count()
                shape = 0.0
                for rest, size in rooms:
                    covered = rest & m
                    if covered:
                        if rest & ~m:
                            shape += ROOM_PROGRESS * covered.bit_count() / size
                        else:
                            score += ROOM_POINTS
                if coloured:
                    size, lost = 1, 0
                    for mask, tiles, points in families:
                        if mask & around:
                            size += tiles
                            lost += points
                    score += (table[size] if size < 64 else family_points(size)) - lost
                    if size > 1:
                        shape += FAMILY_GROWTH * size
                    if m & the_map:
                        shape += MAP_REWARD
                    shape -= MIXING * (around & others).bit_count()
                shape += CONTACT * (around & blocked).bit_count()
                # v without the holes term is an upper bound of v: a mask covering no one-cell
                # hole fills none, it can only make new ones (the term only subtracts), and a
                # float sum is monotone in each term. A mask whose bound is below the n-th
                # best so far would not be kept: its exact v is not needed.
                if score + shape - sister < floor[0] and not m & holes_now:
                    continue
                free = free_before & ~m
                spread = (free << 1) | (free >> 1) | (free << STRIDE) | (free >> STRIDE)
                shape -= HOLE * ((free & ~spread).bit_count() - holes_before)
                v = score + shape - sister
                if len(best) < n:
                    heappush(best, (v, m))
                    shapes[m] = shape
                    if len(best) == n:
                        floor = best[0]
                elif v > floor[0] or (v == floor[0] and m > floor[1]):
                    heapreplace(best, (v, m))
                    shapes[m] = shape
                    floor = best[0]
            best.sort(reverse=True)
            return best

        self._quick = top
        return top

    # --- deep stage: the best few -------------------------------------------------------------
    def pockets(self, m: int) -> float:
        """Penalty for the small free pockets next to the tile that no cat can ever fill."""
        free_after = self.free & ~m
        seeds = neighbours(m) & free_after
        penalty = 0.0
        while seeds:
            region = _small_region(seeds & -seeds, free_after)
            seeds &= ~region
            size = region.bit_count()
            if size <= 2:
                penalty += POCKET_CELL * size
            elif size <= 4:
                penalty += POCKET_SMALL
        return penalty

    def sheet_delta(self, m: int) -> float:
        """The change of the real final score (lessons and sister's lessons included):
        ``judge.score`` of the boat with the tile at ``m`` minus that of the boat, the first
        worked out by ``_AfterSheet`` (the same int, so the same float)."""
        assert self.judge is not None
        if self._base is None:
            self._base = self.judge.score(self.boat)
            self._after = _AfterSheet(self)
        return float(self._after.total(self, m)) - self._base

    def after_boat(self, m: int) -> Boat:
        """The boat with the tile at ``m`` (its families told to ``Boat.family_sizes``)."""
        boat = self.boat
        masks = dict(boat.colour_masks)
        if self.colour is not None:
            masks[self.colour] |= m
            # the families of the tile's colour on that boat: the tile joins those it touches
            around = neighbours(m)
            joined, tiles, parts = m, 1, []
            for part, n in self.families:
                if part & around:
                    joined |= part
                    tiles += n
                else:
                    parts.append((part, n))
            parts.append((joined, tiles))
            remember_family_sizes(masks[self.colour], [*self._members, m], parts)
        return Boat(boat.layout, [*boat.tiles, Tile(self.kind, self.colour, self.shape, m)],
                    boat.occupied | m, masks)

    def deep(self, m: int) -> float:
        return self.sheet_delta(m) + self.shaping(m) - self.pockets(m) - self.sister

    def best(self, placements: Iterable[int]) -> tuple[float, int]:
        """The best placement and its value (quick values when no judge is given)."""
        quick = self.quick_function()
        if self.judge is None:
            best_v, best_m = float("-inf"), 0
            for m in placements:
                v = quick(m)
                if v > best_v:
                    best_v, best_m = v, m
            return best_v, best_m
        return self.refine(self.shortlist(placements))

    def shortlist(self, placements: Iterable[int]) -> list[tuple[float, int]]:
        """The ``DEEP_CANDIDATES`` best placements by quick value, best first.

        On an empty boat the quick values depend on the layout, the tile and its bonuses
        alone, and every game's first rescues ask for them (a cat has about a thousand
        placements there): those shortlists are kept for the process."""
        key = None
        if not self.occ and isinstance(placements, Placements):
            layout = self.boat.layout
            key = (layout.cells_mask, layout.rats_mask, tuple(self.rooms), self.colour,
                   self.map, self.bonus, self.sister, placements.key())
            kept = _EMPTY_BOAT_SHORTLISTS.get(key)
            if kept is not None:
                return list(kept)
        if key is None:
            found = self.top_function()(placements, DEEP_CANDIDATES)
        else:
            found = self._empty_boat_top(placements)
        if key is not None:
            if len(_EMPTY_BOAT_SHORTLISTS) >= 4096:
                _EMPTY_BOAT_SHORTLISTS.clear()
            _EMPTY_BOAT_SHORTLISTS[key] = tuple(found)
        return found

    def _empty_boat_top(self, placements: Placements) -> list[tuple[float, int]]:
        """``top(placements, DEEP_CANDIDATES)`` on an empty boat, where only the map term
        tells the colours apart: a placement covering no map cell gets the same float for
        every colour (its families, mixing and map terms add zeros) and for a treasure. The
        best of those are kept for the process by layout, tile and bonuses; only the
        placements over a map cell are scored for each colour."""
        layout = self.boat.layout
        maps = layout.maps_mask
        key = (layout.cells_mask, layout.rats_mask, maps, tuple(self.rooms), self.bonus,
               self.sister, placements.key())
        kept = _EMPTY_BOAT_OFF_MAPS.get(key)
        top = self.top_function()
        if kept is None:
            off = top([m for m in placements if not m & maps], DEEP_CANDIDATES)
            if len(_EMPTY_BOAT_OFF_MAPS) >= 1024:
                _EMPTY_BOAT_OFF_MAPS.clear()
            kept = _EMPTY_BOAT_OFF_MAPS[key] = (tuple(off),
                                                tuple(m for m in placements if m & maps))
        off_best, on_maps = kept
        return sorted([*off_best, *top(on_maps, DEEP_CANDIDATES)], reverse=True)[:DEEP_CANDIDATES]

    def refine(self, candidates: Sequence[tuple[float, int]]) -> tuple[float, int]:
        """The best of a shortlist by deep value (quick values without a judge)."""
        if self.judge is None:
            return max(candidates, default=(float("-inf"), 0))
        best_v, best_m = float("-inf"), 0
        sister = self.sister
        for _, m in candidates:
            # ``deep(m)``, its pockets' penalty last: that term only subtracts and a float
            # sum is monotone in each term, so a mask whose value without it is no better
            # than the best so far cannot win (the penalty is not needed)
            part = self.sheet_delta(m) + self.shaping(m)
            if part - sister <= best_v:
                continue
            v = part - self.pockets(m) - sister
            if v > best_v:
                best_v, best_m = v, m
        return best_v, best_m


# ``_lesson_groups`` by the judge's lessons and the layout (kept with the answer)
_LESSON_GROUPS: dict[tuple[Any, ...], tuple[Any, list[int], list[tuple[Any, list[int]]]]] = {}


def _lesson_groups(judge: SheetJudge,
                   layout: Any) -> tuple[list[int], list[tuple[Any, list[int]]]]:
    """The judge's lessons by what they read of a boat of ``layout`` once the tile is
    known (``scoring.lesson_reads`` without "tiles"): the places on the sheet of those that
    read nothing a placement changes, then ``(reads, places)`` of the others (reads None:
    anything). The same for every tile a seat values until its lessons change: kept."""
    key = (judge.private_lessons, judge.public_lessons, id(layout))
    kept = _LESSON_GROUPS.get(key)
    if kept is not None and kept[0] is layout:
        return kept[1], kept[2]
    lessons = [*((card, None) for card in judge.private_lessons), *judge.public_lessons]
    by_reads: dict[Any, list[int]] = {}
    for place, (card_id, colour) in enumerate(lessons):
        reads = lesson_reads(card_id, layout, colour)
        if reads is not None:
            reads = tuple(read for read in reads if read != "tiles")  # the same tile
        by_reads.setdefault(reads, []).append(place)
    fixed = by_reads.pop((), [])
    if len(_LESSON_GROUPS) >= 1024:
        _LESSON_GROUPS.clear()
    _LESSON_GROUPS[key] = (layout, fixed, list(by_reads.items()))
    return fixed, list(by_reads.items())


class _AfterSheet:
    """``int(judge.score(after))`` for the boats ``after`` that differ from a
    ``PlacementEval``'s boat by its tile at one mask, without scoring each whole sheet.

    Every part of a sheet is an int, so the parts may be added in any order: rats, rooms,
    families and rare treasures come from masks (the families of the tile's colour change
    only where the tile joins them); each lesson is scored on a boat only when the boats
    scored before all differ from it in what the lesson reads (``scoring.lesson_reads``),
    and otherwise gives the points it gave them. Lessons reading the same things are kept
    together, so that a placement costs one lookup per group of lessons."""

    def __init__(self, ev: PlacementEval) -> None:
        judge = ev.judge
        assert judge is not None
        boat = ev.boat
        layout = boat.layout
        self.visible = layout.rats_mask & ~boat.occupied
        self.rests = ev.rooms
        fixed = sum(family_points(s) for _, s in boat.family_sizes() if s >= 3)
        if judge.mode != "family":
            rare = sum(1 for t in boat.tiles if t.kind == "rare_treasure")
            fixed += RARE_TREASURE_POINTS * (rare + (ev.kind == "rare_treasure"))
        self.fixed = fixed
        self.families = [(part, n, family_points(n)) for part, n in ev.families]
        self.coloured = ev.colour is not None
        self.others = [PlayerFacts(b) for b in judge.others]
        # the lessons, by what they read: [(key function, places on the sheet, points by key)];
        # those that read nothing a placement changes are one group, scored once
        fixed_places, by_reads = _lesson_groups(judge, layout)
        self.fixed_places = fixed_places
        self.fixed_points: int | None = None if fixed_places else 0
        self.groups = [(self._key(reads, ev), places, {}) for reads, places in by_reads]

    @staticmethod
    def _key(reads: tuple[Any, ...] | None,
             ev: PlacementEval) -> Callable[[int, int, int, int], Any]:
        """A function of (mask, its neighbours, the families it joins, the rooms left
        unfilled) that tells apart the boats that differ in what ``reads`` names."""
        if reads is None:
            return lambda m, around, joins, unfilled: m
        keys = [_AfterSheet._read_key(read, ev) for read in reads]
        if len(keys) == 1:
            return keys[0]
        return lambda m, around, joins, unfilled: tuple([k(m, around, joins, unfilled)
                                                         for k in keys])

    @staticmethod
    def _read_key(read: Any, ev: PlacementEval) -> Callable[[int, int, int, int], Any]:
        """The key of one thing read (the words of ``scoring.lesson_reads``); the mask itself
        for a word it does not know."""
        boat = ev.boat
        occ = boat.occupied
        treasures = ev.treasures
        if read == "filled_rooms":
            return lambda m, around, joins, unfilled: unfilled
        if read == "edge":
            edge = boat.layout.edge_mask
            return lambda m, around, joins, unfilled: not m & edge
        if read == "families":
            return lambda m, around, joins, unfilled: joins
        if read == "contact":
            # a cat or an Oshax touches treasures; a treasure touches cats and Oshax
            touched = occ & ~treasures if ev.colour is None else treasures
            return lambda m, around, joins, unfilled: around & touched
        if read == "rat_contact":
            rats = boat.layout.rats_mask
            return lambda m, around, joins, unfilled: (m | around) & rats
        word = read[0] if isinstance(read, tuple) else None
        if word == "covered_count":
            cells = read[1]
            return lambda m, around, joins, unfilled: (m & cells).bit_count()
        if word == "all_covered":
            rest = read[1] & ~occ
            return lambda m, around, joins, unfilled: not rest & ~m
        if word == "none_covered":
            cells = read[1]
            return lambda m, around, joins, unfilled: not m & cells
        if word == "colour_contact":
            if ev.colour is None:  # a treasure touching the colour or not
                colour_mask = boat.colour_masks[read[1]]
                return lambda m, around, joins, unfilled: not around & colour_mask
            if ev.colour == read[1]:  # the treasures the cat touches
                return lambda m, around, joins, unfilled: around & treasures
            return lambda m, around, joins, unfilled: None  # another colour: no change
        return lambda m, around, joins, unfilled: m

    def total(self, ev: PlacementEval, m: int) -> int:
        """The judge's total of the boat with ``ev``'s tile at ``m``, as an int."""
        around = neighbours(m)
        unfilled = 0
        for rest in self.rests:
            if rest & ~m:
                unfilled += 1
        total = (self.fixed + RAT_POINTS * (self.visible & ~m).bit_count()
                 + UNFILLED_ROOM_POINTS * unfilled)
        joins = 0
        if self.coloured:
            bit, tiles = 1, 1
            for part, n, points in self.families:
                if part & around:
                    joins |= bit
                    tiles += n
                    total -= points
                bit <<= 1
            total += family_points(tiles)
        missing = []
        for key_of, places, known in self.groups:
            key = key_of(m, around, joins, unfilled)
            points = known.get(key)
            if points is None:
                missing.append((key, places, known))
            else:
                total += points
        judge = ev.judge
        assert judge is not None
        fixed_points = self.fixed_points
        if missing or fixed_points is None or judge.sister_lessons:
            after = PlayerFacts(ev.after_boat(m), judge.fish, judge.private_lessons,
                                judge.baskets, 0)
            if missing or fixed_points is None:
                table = TableFacts([after, *self.others], judge.public_lessons, judge.mode)
                which = [p for _, places, _ in missing for p in places]
                if fixed_points is None:
                    which += self.fixed_places
                scored = iter(sheet_lesson_points(table, 0, which))
                for key, places, known in missing:
                    points = known[key] = sum(next(scored) for _ in places)
                    total += points
                if fixed_points is None:
                    fixed_points = self.fixed_points = sum(scored)
            if judge.sister_lessons:
                total -= sister_score(after, (), judge.sister_lessons)["total"]
        return total + fixed_points
