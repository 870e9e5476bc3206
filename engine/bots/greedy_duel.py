"""The greedy Duel bot: a one-ply heuristic over the Duel's small decisions.

It values every discovery on the island for its own boat (a cat: its best placement;
a card: treasures, fish or an estimate of the lesson), walks the Oshax along the path
whose touched spaces hold the best discovery, buys a fish action when what it reaches
is worth more than the fish, and places each tile where a quick evaluation of the
boat is best: cats joining families, rats covered, rooms completed, tight packing,
no isolated empty squares. Values are in points; a fish is worth about one point
until the last day. It reads only what the observation also shows (never the bag or
deck order).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..actions import Action
from ..boat import STRIDE, Boat, BoatLayout, components
from ..modes.duel.game import (
    ACT,
    BOAT,
    EXTRA,
    MOVE,
    PLACE_CAT,
    PLACE_TREASURE,
    RETURN_CAT,
    instant_fish,
)
from ..modes.duel.scoring import READS_OTHER_BOATS, lesson_points
from ..rng import Rng
from ..scoring import family_points
from ..shapes import Placements, Shape, legal_placements

# Soft value of a family of n tiles: families below 3 score nothing yet but may grow.
_SMALL_FAMILY = (0.0, 0.5, 3.0)
_LESSON_PRIOR = {  # rough points a lesson of this kind brings in a typical game
    "per_pair_of_edge_cats": 6.0, "min_of_two_colours": 5.0, "per_lonely_cat": 3.0,
    "per_treasure_tile": 3.0, "largest_family": 4.0, "most_treasure_tiles": 3.5,
    "third_largest_family_again": 5.0, "each_colour_touches_edge": 4.0,
    "min_cats_each_colour": 3.0, "two_families_same_size": 3.0,
}
_EXACT_LESSON_PRIOR = 2.5  # "exactly N ..." lessons
_INSTANT_DRAW_VALUE = 3.0
# the act step's recurring actions, built once
_END_TURN = Action("end_turn")
_FISH_MOVE, _FISH_JUMP, _FISH_DISCOVERY, _FISH_TREASURE = (
    Action("fish_action", kind) for kind in ("move", "jump", "discovery", "treasure"))


def _potential(size: int) -> float:
    return _SMALL_FAMILY[size] if size < 3 else float(family_points(size))


_POTENTIALS = tuple(_potential(n) for n in range(64))  # _potential, looked up
_SNUG = tuple(0.2 * n for n in range(256))  # the snug term of n neighbours (the same floats)


def colour_families(boat: Boat, colour: str) -> list[tuple[int, int]]:
    """(mask, number of tiles) of every family of ``colour`` on the boat."""
    tiles = [t.mask for t in boat.tiles if t.colour == colour]
    return [(part, sum(1 for m in tiles if m & part))
            for part in components(boat.colour_masks[colour])]


def placement_value(boat: Boat, mask: int, colour: str | None,
                    families: list[tuple[int, int]] | None = None) -> float:
    """How much a tile on ``mask`` improves the boat, in rough points."""
    return placement_scorer(boat, colour, families)(mask)


def _facts(rats: int, mask: int) -> tuple[float, int, int, int]:
    """The facts of a placement that depend on the layout alone: the size and rats as
    ``best`` starts its sum, the neighbour cells, the number of cells, and the mask."""
    n = mask.bit_count()
    around = ((mask << 1) | (mask >> 1) | (mask << STRIDE) | (mask >> STRIDE)) & ~mask
    return 0.1 * n + (mask & rats).bit_count(), around, n, mask


# ``_facts`` kept by the layout's rats, a tile's first mask (``row``) and the anchor bit it is
# shifted to: a list looked up by bit index for each of the few hundred orientations a layout
# sees (every game on a layout places the same few thousand masks), not a dictionary looked
# up by a big mask. Bounded all the same (masks scored one by one are rows of their own).
_ANCHORED: dict[int, dict[int, list[tuple[float, int, int, int] | None]]] = {}
_ANCHORED_KEPT = 1 << 16


def _anchored_facts(rats: int) -> dict[int, list[tuple[float, int, int, int] | None]]:
    kept = _ANCHORED.get(rats)
    if kept is None or len(kept) >= _ANCHORED_KEPT:
        if len(_ANCHORED) > 16:
            _ANCHORED.clear()
        kept = _ANCHORED[rats] = {}
    return kept


def _more_facts(rows_facts: dict[int, list[Any]], row: int, length: int) -> list[Any]:
    """The facts list of ``row``, long enough for anchor bits below ``length``."""
    facts = rows_facts.get(row) or []
    facts.extend([None] * (length - len(facts)))
    rows_facts[row] = facts
    return facts


def placement_scorer(boat: Boat, colour: str | None,
                     families: list[tuple[int, int]] | None = None) -> Callable[[int], float]:
    """``placement_value`` of one boat and one colour as a function of the mask: the
    boat's facts are looked up once for the many placements of a tile."""
    return _Scorer(boat, colour, families).value_of


class _Scorer:
    """``placement_value`` of one boat and one colour: the boat's facts bound once, the
    layout's facts of each mask looked up (``_facts``). ``value_of`` scores one mask and
    ``best`` the best of many, with the same sums in the same order as ever (so the same
    floats and the same choices)."""

    def __init__(self, boat: Boat, colour: str | None,
                 families: list[tuple[int, int]] | None = None) -> None:
        layout = boat.layout
        occupied_before = boat.occupied
        # what of each room is still uncovered, smallest first: a tile completes a room when
        # it covers all of that rest, so only rests no bigger than the tile are tried (a room
        # already full cannot meet a tile, so only the others are kept; every completion adds
        # the same 5.0, so the order of the rooms does not change the sum)
        self.rests = sorted((rest.bit_count(), rest) for rest in
                            (room.mask & ~occupied_before for room in layout.rooms) if rest)
        self.rats = layout.rats_mask
        self.free_before = layout.cells_mask & ~occupied_before
        self.blocked = ~self.free_before  # tiles, the hull and beyond
        self.the_map = layout.maps.get(colour, 0) if colour is not None else 0
        self.fams = [(part, size, _potential(size)) for part, size in families or ()]
        self.coloured = colour is not None
        self._bounds: tuple[int, float, float] | None = None  # ``bounds()``, once asked
        self._small: dict[int, tuple[tuple[int, ...], int]] = {}  # ``small_rests(n)``

    def bounds(self) -> tuple[int, float, float]:
        """(the cells of the colour's families, the most the family term adds to a tile
        touching none of them, the most it adds to one touching some), both bounds raised
        by ``_SURE``: worked out once per scorer (a boat view keeps its scorers)."""
        if self._bounds is None:
            if self.coloured:
                near_families = 0
                for part, _, _ in self.fams:
                    near_families |= part
                far = _POTENTIALS[1]
                self._bounds = (near_families, far + _SURE,
                                max(self._family_bound(), far) + _SURE)
            else:
                self._bounds = (0, _SURE, _SURE)
        return self._bounds

    def small_rests(self, n: int) -> tuple[tuple[int, ...], int]:
        """The room rests a tile of ``n`` cells may complete (no bigger than it), in the
        order of ``rests``, and their cells together: a tile meeting none of those cells
        completes no room, so their loop is skipped (it would add nothing)."""
        found = self._small.get(n)
        if found is None:
            small = tuple(rest for size, rest in self.rests if size <= n)
            cells = 0
            for rest in small:
                cells |= rest
            found = self._small[n] = (small, cells)
        return found

    def value_of(self, mask: int) -> float:
        best, _ = self.best(((mask,),), float("-inf"))
        return best

    def _family_bound(self) -> float:
        """The most the family term (``table[joined] - lost``) can add for any set of the
        colour's families a tile touches: for each number of tiles the touched families
        can hold, the least potential lost in reaching it (a small knapsack), then the best
        of ``potential(1 + tiles) - lost``. Touching no family gives ``potential(1)``."""
        least_lost = {0: 0.0}
        for _, size, potential in self.fams:
            for tiles, lost in list(least_lost.items()):
                more, lost = tiles + size, lost + potential
                if lost < least_lost.get(more, float("inf")):
                    least_lost[more] = lost
        return max(_potential(1 + tiles) - lost for tiles, lost in least_lost.items())

    def best(self, groups: Iterable[Iterable[int]], best: float,
             best_mask: int = 0) -> tuple[float, int]:
        """The first placement of highest value over ``groups`` of masks in turn (a
        ``Placements`` each), and its value; ``(best, best_mask)`` when none beats ``best``.

        Most placements are not scored to the end: the sum up to the snug term is the
        exact prefix of the value, the isolated-squares term only subtracts, and the family
        and map terms add at most ``far`` (no family near the mask: ``potential(1)``) or
        ``near`` (``_family_bound``) and 2.0. A placement whose prefix plus that bound is
        below the best so far by more than any rounding (``_SURE``) cannot beat it nor tie
        it, so skipping it leaves the choice (the first of highest value) unchanged. The
        others are finished with the same sums in the same order as ever."""
        rats, free_before, blocked = self.rats, self.free_before, self.blocked
        the_map, fams, coloured = self.the_map, self.fams, self.coloured
        table, snug, small_of = _POTENTIALS, _SNUG, self._small
        rows_facts = _anchored_facts(rats)
        near_families, far, near = self.bounds()
        for row, anchors in _rows(groups):
            facts = rows_facts.get(row)
            if facts is None or len(facts) < anchors.bit_length():
                facts = _more_facts(rows_facts, row, anchors.bit_length())
            # every mask of a row has the row's number of cells
            small, small_cells = small_of.get(row.bit_count()) or self.small_rests(
                row.bit_count())
            if best > -1e8 and anchors & (anchors - 1):
                info = _ROW_INFO.get(row) or _row_info(row)
                if info[0] + far + _SURE < best:  # else even a plain mask may reach it
                    anchors = _hopeful(info, anchors, best, rats | small_cells, the_map,
                                       near_families, far, near)
            while anchors:  # row shifted to each anchor bit, lowest first
                low = anchors & -anchors
                anchors ^= low
                found = facts[low.bit_length() - 1]
                if found is None:
                    found = facts[low.bit_length() - 1] = _facts(rats, row * low)
                value, around, _, mask = found
                if mask & small_cells:
                    for rest in small:
                        if not rest & ~mask:
                            value += 5.0
                # snug against tiles and the hull (around & ~free, as around misses the mask)
                value += snug[(around & blocked).bit_count()]
                bound = value + (near if around & near_families else far)
                if the_map & mask:
                    bound += 2.0
                if bound < best:
                    continue
                free = free_before & ~mask
                alone = free & ~((free << 1) | (free >> 1) | (free << STRIDE) | (free >> STRIDE))
                value -= 1.5 * (alone & around).bit_count()  # squares only a 1-cell treasure fills
                if coloured:
                    joined = 1
                    lost = 0
                    for part, size, potential in fams:
                        if part & around:
                            joined += size
                            lost += potential
                    value += (table[joined] if joined < 64 else _potential(joined)) - lost
                    if the_map & mask:
                        value += 2.0  # the map's treasure
                if value > best:
                    best, best_mask = value, mask
        return best, best_mask


def _row_info(row: int) -> tuple[float, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """What ``_hopeful`` reads of a tile's first mask ``row``: the most its prefix can be
    without rats or rooms (0.1 per cell and 0.2 for each neighbour cell, all of them
    snug at best), the offsets of its cells, and those of its neighbour cells at or
    after the anchor and (as positive numbers) before it."""
    high = STRIDE + 1  # far enough from bit 0 for every neighbour to be counted
    moved = row << high
    around = ((moved << 1) | (moved >> 1) | (moved << STRIDE) | (moved >> STRIDE)) & ~moved
    cells = [bit for bit in _bits(row)]
    after = tuple(bit - high for bit in _bits(around) if bit >= high)
    before = tuple(high - bit for bit in _bits(around) if bit < high)
    info = _ROW_INFO[row] = (0.1 * len(cells) + 0.2 * around.bit_count(), tuple(cells),
                             after, before)
    return info


_ROW_INFO: dict[int, tuple[float, tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = {}


def _hopeful(info: tuple[float, tuple[int, ...], tuple[int, ...], tuple[int, ...]],
             anchors: int, best: float, rats_rooms: int, the_map: int,
             near_families: int, far: float, near: float) -> int:
    """The anchors of a row (``info``: its ``_row_info``) that ``_Scorer.best`` may not
    skip while the best so far is ``best``, worked out for the whole row at once with a
    few shifts. A mask covering no rat and no cell of a small room rest has a prefix of at
    most ``base`` (every neighbour snug), so its bound is at most ``base`` plus its family
    bonus (``far``, or ``near`` next to a family) and 2.0 on a map cell. The caller checked
    that ``base + far`` is below ``best`` by more than ``_SURE`` (far more than any
    rounding): ``best`` would skip such a mask too (the best only grows along the row).
    Only anchors are dropped that ``best``'s own test would drop, so the same masks are
    scored, in the same order."""
    base, cells, after, before = info
    keep = 0
    if base + (near if near > far else far) + (2.0 if the_map else 0.0) + _SURE < best:
        for off in cells:  # only rats or rooms can lift a mask high enough
            keep |= rats_rooms >> off
        return anchors & keep
    interest = rats_rooms | the_map  # besides those, a map cell or a family next to it
    for off in cells:
        keep |= interest >> off
    if near_families:
        for off in after:
            keep |= near_families >> off
        for off in before:
            keep |= near_families << off
    return anchors & keep


# Far more than the rounding of a placement's value (a sum of a few dozen terms below a
# thousand, each a multiple of 0.1), far less than the 0.1 between two different values.
_SURE = 1e-6


def _rows(groups: Iterable[Iterable[int]]) -> list[tuple[int, int]]:
    """The masks of ``groups`` in order as (first mask, anchor bits) rows, each row's masks
    the first shifted to each anchor bit, lowest first: a ``Placements``' own rows (its
    masks without a generator), or a plain mask as itself times 1."""
    out: list[tuple[int, int]] = []
    for group in groups:
        rows = getattr(group, "_rows", None)
        if rows is None:
            out.extend([(mask, 1) for mask in group])
        else:
            out.extend([(o.mask0, anchors) for o, anchors in rows])
    return out


# The best placements found by any greedy Duel bot of the process, by everything they depend
# on (``_best_cat``, ``_best_treasure``): pure answers, so sharing them changes no choice.
_SHARED_BEST: dict[tuple[Any, ...], tuple[float, int]] = {}
_SHARED_BEST_KEPT = 1 << 15
_LAYOUT_KEYS: dict[int, tuple[Any, tuple[Any, ...]]] = {}  # id(layout) -> (layout, its key)


def _share(key: tuple[Any, ...], found: tuple[float, int]) -> None:
    if len(_SHARED_BEST) >= _SHARED_BEST_KEPT:
        _SHARED_BEST.clear()
    _SHARED_BEST[key] = found


def _layout_key(layout: BoatLayout) -> tuple[Any, ...]:
    """What of a layout the placement values read: its cells, rats, rooms and maps (the
    layout itself is not hashable; the entry keeps the layout, so its id stays its own)."""
    kept = _LAYOUT_KEYS.get(id(layout))
    if kept is None or kept[0] is not layout:
        key = (layout.cells_mask, layout.rats_mask, tuple(r.mask for r in layout.rooms),
               tuple(sorted(layout.maps.items())))
        if len(_LAYOUT_KEYS) > 64:
            _LAYOUT_KEYS.clear()
        kept = _LAYOUT_KEYS[id(layout)] = (layout, key)
    return kept[1]


class _BoatView:
    """One state of one boat as the bot reads it, worked out once for the many questions
    asked about it: every cat on the island, the move step and the act step, and the new
    island after the opponent's turn while this boat has not changed. ``key`` is what the
    values read of it: the layout, colour masks and tiles' cells in order (a Duel tile's
    colour is the colour mask holding it, a tile in none is a treasure), so equal keys mean
    equal boats for every lesson and instant."""

    __slots__ = ("boat", "layout", "tiles", "occupied", "colour_masks", "key",
                 "_colour_tiles", "_scorers", "_placements")

    def __init__(self, boat: Boat) -> None:
        self.boat = boat  # kept, so its id stays its own while the view lives
        self.layout = boat.layout
        self.tiles = list(boat.tiles)
        self.occupied = boat.occupied
        self.colour_masks = dict(boat.colour_masks)
        self.key = (boat.layout.name, *self.colour_masks.values(), *(t.mask for t in self.tiles))
        self._colour_tiles: dict[str, tuple[int, ...]] = {}
        self._scorers: dict[str | None, _Scorer] = {}
        self._placements: dict[str, Placements] = {}

    def holds(self, boat: Boat) -> bool:
        """Whether ``boat`` is this very boat in the state the view was made from (the
        same tiles, cells and colours: a tile put on or taken off by hand is seen too)."""
        return (self.boat is boat and self.occupied == boat.occupied
                and self.layout is boat.layout and self.tiles == boat.tiles
                and self.colour_masks == boat.colour_masks)

    def colour_tiles(self, colour: str) -> tuple[int, ...]:
        """The cells of each tile of ``colour``, in order."""
        found = self._colour_tiles.get(colour)
        if found is None:
            found = self._colour_tiles[colour] = tuple(
                t.mask for t in self.tiles if t.colour == colour)
        return found

    def placements(self, shape: Shape) -> Placements:
        """The legal placements of ``shape`` on this boat (cats of one shape and different
        colours share them)."""
        found = self._placements.get(shape.key)
        if found is None:
            found = self._placements[shape.key] = legal_placements(
                shape, self.layout, self.occupied)
        return found

    def scorer(self, colour: str | None) -> _Scorer:
        """The placement scorer of this boat for ``colour`` (None: a treasure)."""
        found = self._scorers.get(colour)
        if found is None:
            families = colour_families(self.boat, colour) if colour is not None else None
            found = self._scorers[colour] = _Scorer(self.boat, colour, families)
        return found


class GreedyDuelBot:
    name = "greedy"
    trusted = True

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = Rng(seed, f"bot:greedy_duel:{seat}")
        self.last_note: str | None = None
        self._cat_cache: dict[tuple[int, int], tuple[float, int]] = {}
        self._treasure_cache: dict[tuple[int, tuple[str, ...]], tuple[float, int]] = {}
        self._lesson_cache: dict[tuple[Any, ...], int] = {}
        # the last ``_values`` answer and what it was made from: the act
        # step asks again, on the very same state, what the move step just asked
        self._last_values: tuple[tuple[Any, ...], dict[int, float]] | None = None
        self._boats_key: tuple[Any, ...] | None = None  # the boats' key while ``_values`` runs
        self._views: dict[int, _BoatView] = {}  # id(boat) -> the view of its current state
        # the handler of each phase of the Duel that asks for a decision: a phase renamed or
        # added fails ``act`` with a KeyError (and tests/engine/bots/test_greedy_duel.py)
        self._handlers: dict[str, Callable[[Any, int], Action]] = {
            BOAT: self._on_choose_boat,
            MOVE: self._on_move,
            ACT: self._on_act,
            EXTRA: self._on_extra_selection,
            PLACE_CAT: self._on_place_cat,
            PLACE_TREASURE: self._on_place_treasure,
            RETURN_CAT: self._on_return_cat,
        }

    def close(self) -> None:
        self._cat_cache.clear()
        self._treasure_cache.clear()
        self._lesson_cache.clear()
        self._last_values = None
        self._views.clear()

    def _view(self, boat: Boat) -> _BoatView:
        """The view of ``boat`` as it stands: the last one made while the boat holds the
        same tiles, a new one once it changed."""
        view = self._views.get(id(boat))
        if view is None or not view.holds(boat):
            if len(self._views) > 8:
                self._views.clear()
            view = self._views[id(boat)] = _BoatView(boat)
        return view

    def _boats_key_of(self, boats: Iterable[Boat | None]) -> tuple[Any, ...]:
        """What of the boats the values read (``_BoatView.key`` of each)."""
        return tuple([None if b is None else self._view(b).key for b in boats])

    # --- values -----------------------------------------------------------------------------
    def _fish_value(self, game: Any) -> float:
        return 1.0 if game.day < 4 else 0.5

    def _best_cat(self, boat: Boat, tile_id: int, cats: Any) -> tuple[float, int]:
        """(value, mask) of the best placement of cat ``tile_id``; mask 0 if it cannot fit."""
        key = (tile_id, boat.occupied)
        found = self._cat_cache.get(key)
        if found is None:
            cat = cats[tile_id]
            # the answer depends on the layout, the cat's shape and colour, the cells covered
            # and the tiles of that colour: kept for the process under all of them, since
            # boats recur from game to game (every first cat goes on an empty boat)
            view = self._view(boat)
            shared = (_layout_key(boat.layout), cat.shape.key, cat.colour, boat.occupied,
                      view.colour_tiles(cat.colour))
            found = _SHARED_BEST.get(shared)
            if found is None:
                found = view.scorer(cat.colour).best((view.placements(cat.shape),), -1e9)
                _share(shared, found)
            self._cat_cache[key] = found
        return found

    def _best_treasure(self, game: Any, boat: Boat) -> tuple[float, int]:
        shapes: list[Shape] = game.treasure_shapes_left()
        key = (boat.occupied, tuple(s.key for s in shapes))
        found = self._treasure_cache.get(key)
        if found is None:
            shared = (_layout_key(boat.layout), *key)  # a treasure has no colour: no families
            found = _SHARED_BEST.get(shared)
            if found is None:
                view = self._view(boat)
                found = view.scorer(None).best([view.placements(s) for s in shapes], -1e9)
                _share(shared, found)
            self._treasure_cache[key] = found
        return found

    def _card_value(self, game: Any, seat: int, card_id: int) -> float:
        card = game.card(card_id)
        boat = game.boats[seat]
        if card.kind == "treasure":
            best, mask = self._best_treasure(game, boat)
            return 0.0 if not mask else max(0.0, 2 * best)
        if card.kind == "instant":
            if card.params["action"] == "draw_tile_and_place":
                return _INSTANT_DRAW_VALUE if game.bag else 0.0
            return instant_fish(card.params, boat) * self._fish_value(game)
        # the lesson's points on the boats as they are: kept by the boats' layouts, tiles
        # (their cells, in order) and colour masks, which decide them (a Duel tile's colour is
        # the colour mask holding it, a tile in none is a treasure)
        boats_key = self._boats_key or self._boats_key_of(game.boats)  # once per ``_values``
        if card.scoring["kind"] in READS_OTHER_BOATS:
            key = (card_id, seat, *boats_key)
        else:  # the others read the owner's boat alone: kept while only the other one changes
            key = (card_id, seat, boats_key[seat])
        now = self._lesson_cache.get(key)
        if now is None:
            if len(self._lesson_cache) > 4096:
                self._lesson_cache.clear()
            now = self._lesson_cache[key] = lesson_points(card_id, seat, game.boats)
        kind = card.scoring["kind"]
        prior = _LESSON_PRIOR.get(kind, _EXACT_LESSON_PRIOR)
        return float(now) if game.day == 4 else 0.5 * now + 0.5 * prior

    def _values(self, game: Any, seat: int) -> dict[int, float]:
        """Value for ``seat`` of the discovery on every non-empty space (cats that cannot
        fit are left out). The last answer is kept with everything it is made from (the
        seat, the island, the day, whether the bag is empty, the treasures left and both
        boats): the act step usually asks about the state the move step just valued. The
        answer is shared: callers only read it."""
        boats_key = self._boats_key_of(game.boats)
        key = (seat, tuple(game.island), game.day, bool(game.bag),
               tuple(s.key for s in game.treasure_shapes_left()), boats_key)
        last = self._last_values
        if last is not None and last[0] == key:
            return last[1]
        boat = game.boats[seat]
        cats = game.cat_tiles()
        out = {}
        self._boats_key = boats_key
        try:
            for space, kind, item in game.island_items():
                if kind == "cat":
                    v, mask = self._best_cat(boat, item, cats)
                    if mask:
                        out[space] = v + (self._fish_value(game) if cats[item].fish else 0.0)
                else:
                    out[space] = self._card_value(game, seat, item)
        finally:
            self._boats_key = None
        self._last_values = (key, out)
        return out

    # --- decisions ---------------------------------------------------------------------------
    def act(self, game: Any, seat: int) -> Action:
        return self._handlers[game.phase](game, seat)

    def _on_choose_boat(self, game: Any, seat: int) -> Action:
        # The layout whose biggest room is smallest: rooms are -5 each unless filled.
        layouts = game.layouts()
        name = min(layouts, key=lambda n: (max(r.size for r in layouts[n].rooms), n))
        self.last_note = f"boat {name}"
        return Action("choose_boat", name)

    def _on_move(self, game: Any, seat: int) -> Action:
        values = self._values(game, seat)
        island = game.island_graph()
        touched = game.touched
        steps = game.steps
        best_v, best_first = -1e9, []
        # the discoveries by value, highest first: a path's best two are the first two it
        # reaches (the same two values the sorted list of what it reaches starts with)
        ranked = sorted(((v, 1 << s) for s, v in values.items()), key=_first, reverse=True)
        reached: dict[int, float] = {}  # the value of each set of spaces reached, once
        for first in _bits(island.targets(game.oshax, touched, game.jumping)):
            # each path as (its last space, the mask of its spaces), in the order of old
            paths = [(first, 1 << first)]
            for _ in range(steps - 1):
                paths = [(n, spaces | 1 << n) for last, spaces in paths
                         for n in _bits(island.targets(last, touched | spaces))] or paths
            for _, spaces in paths:
                reach = touched | spaces
                v = reached.get(reach)
                if v is None:
                    got = _top_two(ranked, reach)
                    v = reached[reach] = ((got[0] if got else 0.0)
                                          + 0.3 * (got[1] if len(got) > 1 else 0.0))
                if v > best_v + 1e-9:
                    best_v, best_first = v, [first]
                elif abs(v - best_v) <= 1e-9 and first not in best_first:
                    best_first.append(first)
        to = best_first[self.rng.randbelow(len(best_first))]
        self.last_note = f"move {to} (best reach {best_v:.1f})"
        return Action("move", to)

    def _on_act(self, game: Any, seat: int) -> Action:
        legal = game.legal_actions(seat)
        fish = self._fish_value(game)
        cost = game.fish_costs()
        values = self._values(game, seat)
        here = max((v for s, v in values.items() if game.touched >> s & 1), default=0.0)
        options: list[tuple[float, Action]] = [(0.0, _END_TURN)]
        selects = [a for a in legal if a[0] == "select"]
        if selects:
            best = max(selects, key=lambda a: values.get(a[1], -1e9))
            options.append((values.get(best[1], -1e9), best))
        if not game.selected:
            untouched = {s: v for s, v in values.items() if not game.touched >> s & 1}
            if _FISH_MOVE in legal:
                near = game.island_graph().targets(game.oshax, game.touched)
                gain = max((v for s, v in untouched.items() if near >> s & 1), default=-1e9)
                options.append((max(gain, here) - cost["move"] * fish - 0.1,
                                _FISH_MOVE))
            if _FISH_JUMP in legal:
                options.append((max(max(untouched.values(), default=-1e9), here)
                                - cost["jump"] * fish - 0.2, _FISH_JUMP))
        elif _FISH_DISCOVERY in legal:
            options.append((here - cost["discovery"] * fish - 0.5,
                            _FISH_DISCOVERY))
        if _FISH_TREASURE in legal:
            best_treasure, mask = self._best_treasure(game, game.boats[seat])
            if mask:
                options.append((best_treasure - cost["treasure"] * fish - 0.5,
                                _FISH_TREASURE))
        value, action = max(options, key=lambda o: o[0])
        self.last_note = f"{game.codec.text(action)} ({value:.1f})"
        return action

    def _on_extra_selection(self, game: Any, seat: int) -> Action:
        values = self._values(game, seat)
        legal = game.legal_actions(seat)
        action = max(legal, key=lambda a: values.get(a[1], -1e9))
        self.last_note = f"extra {action[1]}"
        return action

    def _on_place_cat(self, game: Any, seat: int) -> Action:
        boat = game.boats[seat]
        value, mask = self._best_cat(boat, game.placing, game.cat_tiles())
        self.last_note = f"cat value {value:.1f}"
        return Action("place", mask)

    def _on_place_treasure(self, game: Any, seat: int) -> Action:
        value, mask = self._best_treasure(game, game.boats[seat])
        if not mask or value < 0:
            self.last_note = "decline treasure"
            return Action("decline")
        self.last_note = f"treasure value {value:.1f}"
        return Action("place", mask)

    def _on_return_cat(self, game: Any, seat: int) -> Action:
        boat = game.boats[seat]
        cats = game.cat_tiles()
        tile = max(game.counters, key=lambda t: (self._best_cat(boat, t, cats)[0], -t))
        self.last_note = f"return cat {tile}"
        return Action("return_cat", tile)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _first(pair: tuple[float, int]) -> float:
    return pair[0]


def _top_two(ranked: list[tuple[float, int]], reach: int) -> list[float]:
    """The first two values of ``ranked`` (value, space bit) whose space is in ``reach``."""
    got = []
    for v, bit in ranked:
        if reach & bit:
            got.append(v)
            if len(got) == 2:
                break
    return got
