"""Final scoring of every mode, and the lesson cards as an interpreter over card data.

Each lesson card's rule is data (``Card.scoring`` in engine/data/base/cards.json): a
``kind`` (how points follow from a count) and usually a ``count_of`` (what is counted).
This module holds the two tables that give those words meaning, ``COUNTS`` and ``KINDS``,
plus the end-of-game sheet (rats, rooms, families, rare treasures, lessons), whose own numbers
are data too (``engine/data/base/scoring.json``, also sent to bots in ``game_data``), and the
solo sister's score. Pure functions over ``Boat`` values; no game state, no Django.

>>> family_points(2), family_points(3), family_points(4), family_points(7)
(0, 8, 11, 25)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .boat import COLOURS, Boat, Tile, neighbours
from .cards import Card, base_cards

MODES = ("standard", "family", "solo")
MIDDLE_ROW = 4  # the row lesson 155 asks to fill (y = 4, all 22 squares)


def scoring_numbers(mode: str = "standard") -> dict[str, Any]:
    """The sheet's numbers for ``mode`` from ``engine/data/base/scoring.json`` (the mode's
    changes applied): the one source for this module and for ``game_data``'s
    ``rules.scoring``, so what a bot is told is what the engine counts."""
    raw = json.loads(resources.files("engine.data.base").joinpath("scoring.json").read_text())
    numbers = {k: v for k, v in raw.items() if not k.startswith("_") and k != "modes"}
    numbers.update(raw["modes"].get(mode, {}))
    return numbers


_NUMBERS = {mode: scoring_numbers(mode) for mode in MODES}
_BASE = _NUMBERS["standard"]
RAT_POINTS: int = _BASE["rat_points"]
UNFILLED_ROOM_POINTS: int = _BASE["unfilled_room_points"]
RARE_TREASURE_POINTS: int = _BASE["rare_treasure_points"]
_FAMILY_TABLE: dict[str, int] = _BASE["family_points"]
_RARE_POINTS = {mode: int(n["rare_treasure_points"]) for mode, n in _NUMBERS.items()}
_PUBLIC_DIVISOR = {mode: int(n["public_lesson_divisor"]) for mode, n in _NUMBERS.items()}


@dataclass
class PlayerFacts:
    """What final scoring needs to know about one player at the end of the game."""

    boat: Boat
    fish: int = 0
    private_lessons: tuple[int, ...] = ()  # face-up private (or family) lesson card ids
    permanent_baskets: int = 1
    turn_position: int = 0  # 0 = first in turn order at game end


@dataclass
class TableFacts:
    """Every player's facts plus the lessons that score for all of them."""

    players: list[PlayerFacts]
    public_lessons: tuple[tuple[int, str | None], ...] = ()  # (card id, colour chosen at purchase)
    mode: str = "standard"  # "standard" | "family" | "solo"


def family_points(size: int) -> int:
    """The family table: 0 below 3 tiles, 8, 11, 15, then 5 more per tile beyond 5 (20, 25,
    ...), from the data file."""
    points = _FAMILY_TABLE.get(str(size))
    if points is not None:
        return points
    if size < 3:
        return 0
    return _FAMILY_TABLE["5"] + _FAMILY_TABLE["each_beyond_5"] * (size - 5)


# --- what a lesson can see of one boat -------------------------------------------------------


class _View:
    """One player's boat seen by the lessons; derived facts are computed once, on demand
    (kept in plain attributes: ``functools.cached_property`` takes a lock at every read,
    and scoring is the greedy bot's inner loop)."""

    __slots__ = ("player", "boat", "colour_tiles", "_by_colour", "_family_sizes",
                 "_treasure_mask")

    def __init__(self, player: PlayerFacts) -> None:
        self.player = player
        self.boat = player.boat
        self.colour_tiles: list[Tile] = self.boat.coloured_tiles()  # cats and Oshax
        self._by_colour: dict[str, list[Tile]] | None = None
        self._family_sizes: list[tuple[str, int]] | None = None
        self._treasure_mask: int | None = None

    @property
    def family_sizes(self) -> list[tuple[str, int]]:
        """(colour, number of tiles) of every family, biggest first (size 1 = lonely)."""
        sizes = self._family_sizes
        if sizes is None:
            sizes = self._family_sizes = self.boat.family_sizes()
        return sizes

    @property
    def treasure_mask(self) -> int:
        mask = self._treasure_mask
        if mask is None:
            mask = self._treasure_mask = _mask(t for t in self.boat.tiles if t.colour is None)
        return mask

    @property
    def visible_rats_mask(self) -> int:
        return self.boat.layout.rats_mask & ~self.boat.occupied

    def tiles_of(self, colour: str | None) -> list[Tile]:
        if colour is None:
            return self.colour_tiles
        by_colour = self._by_colour
        if by_colour is None:
            by_colour = self._by_colour = {}
            for t in self.colour_tiles:
                by_colour.setdefault(t.colour, []).append(t)  # type: ignore[arg-type]
        return by_colour.get(colour, [])

    def kind_count(self, *kinds: str) -> int:
        return sum(1 for t in self.boat.tiles if t.kind in kinds)


def _mask(tiles: Iterable[Tile]) -> int:
    m = 0
    for t in tiles:
        m |= t.mask
    return m


# --- the counting vocabulary (``count_of``): one small function each -------------------------
# Each takes the view and an argument: a colour (None = every colour) or, for words written
# "name:N", the text after the colon. Words ending in "_of_colour" insist on a colour.


def _tiles(v: _View, colour: str | None) -> int:
    return len(v.tiles_of(colour))


def _touching_edge(v: _View, colour: str | None) -> int:
    edge = v.boat.layout.edge_mask
    return sum(1 for t in v.tiles_of(colour) if t.mask & edge)


def _lonely(v: _View, colour: str | None) -> int:
    return sum(1 for c, size in v.family_sizes if size == 1 and colour in (None, c))


def _treasures_touching(v: _View, colour: str | None) -> int:
    colour_mask = v.boat.colour_masks[_colour_needed(colour)]
    return sum(1 for t in v.boat.tiles if t.colour is None and neighbours(t.mask) & colour_mask)


def _largest_family_if_scoring(v: _View, _: str | None) -> int:
    largest = v.family_sizes[0][1] if v.family_sizes else 0
    return largest if largest >= 3 else 0


def _not_touching_treasure(v: _View, _: str | None) -> int:
    treasures = v.treasure_mask
    return sum(1 for t in v.colour_tiles if not neighbours(t.mask) & treasures)


def _maps(v: _View, covered: bool) -> int:
    return sum(1 for c in v.boat.layout.maps if v.boat.map_covered(c) == covered)


def _colour_needed(colour: str | None) -> str:
    if colour not in COLOURS:
        raise ValueError(f"this count needs one of the colours {', '.join(COLOURS)}, "
                         f"got {colour!r}")
    return colour  # type: ignore[return-value]


def _of_colour(count: Callable[[_View, str | None], int]) -> Callable[[_View, Any], int]:
    return lambda v, c: count(v, _colour_needed(c))


COUNTS: dict[str, Callable[[_View, Any], int]] = {
    "cats": lambda v, _: v.kind_count("cat"),
    "oshax": lambda v, _: v.kind_count("oshax"),
    "cats_and_oshax": _tiles,
    "cats_and_oshax_of_colour": _of_colour(_tiles),
    "treasures": lambda v, _: v.kind_count("common_treasure", "rare_treasure"),
    "common_treasures": lambda v, _: v.kind_count("common_treasure"),
    "rare_treasures": lambda v, _: v.kind_count("rare_treasure"),
    "visible_rats": lambda v, _: v.boat.uncovered_rats(),
    "uncovered_maps": lambda v, _: _maps(v, covered=False),
    "covered_maps": lambda v, _: _maps(v, covered=True),
    "private_lessons": lambda v, _: len(v.player.private_lessons),
    "permanent_baskets": lambda v, _: v.player.permanent_baskets,
    "fish": lambda v, _: v.player.fish,
    "filled_rooms": lambda v, _: v.boat.filled_rooms(),
    "lonely_cats_and_oshax": _lonely,
    "lonely_cats_and_oshax_of_colour": _of_colour(_lonely),
    "families_size_at_least": lambda v, n: sum(1 for _, s in v.family_sizes if s >= int(n)),
    "cats_and_oshax_touching_edge": _touching_edge,
    "cats_and_oshax_of_colour_touching_edge": _of_colour(_touching_edge),
    "treasures_touching_colour": _treasures_touching,
    "size_of_largest_family_if_at_least_3": _largest_family_if_scoring,
    "cats_and_oshax_not_touching_treasure": _not_touching_treasure,
}

# Conditions of ``per_colour_where``: true when the colour earns the points.
CONDITIONS: dict[str, Callable[[_View, str], bool]] = {
    "no_cat_or_oshax_of_colour_adjacent_to_any_treasure":
        lambda v, c: not any(neighbours(t.mask) & v.treasure_mask for t in v.tiles_of(c)),
    "no_cat_or_oshax_of_colour_touching_edge": lambda v, c: _touching_edge(v, c) == 0,
    "no_cat_or_oshax_of_colour_adjacent_to_visible_rat":
        lambda v, c: not any(neighbours(t.mask) & v.visible_rats_mask for t in v.tiles_of(c)),
}


def _count(v: _View, count_of: str, colour: str | None = None) -> int:
    """Evaluate a ``count_of`` word; ``name:arg`` carries its argument (a colour or a size)."""
    parsed = _PARSED_COUNTS.get(count_of)
    if parsed is None:
        name, _, arg = count_of.partition(":")
        func = COUNTS.get(name)
        if func is None:
            raise ValueError(f"unknown count_of {count_of!r} in the card data")
        parsed = _PARSED_COUNTS[count_of] = (func, arg)
    func, arg = parsed
    return func(v, arg or colour)


# count_of word -> (its function, its argument): the words of the card data, parsed once
_PARSED_COUNTS: dict[str, tuple[Callable[[_View, Any], int], str]] = {}


# --- the kinds: one small function each ------------------------------------------------------


class _Context:
    """A lesson being scored: its rule, the player's view, the table and the resolved colour.
    (A plain class with slots: one is made per lesson scored, thousands per greedy move.)"""

    __slots__ = ("rule", "view", "views", "mode", "colour")

    def __init__(self, rule: dict[str, Any], view: _View, views: list[_View], mode: str,
                 colour: str | None) -> None:
        self.rule = rule
        self.view = view
        self.views = views
        self.mode = mode
        self.colour = colour

    def count(self) -> int:
        return _count(self.view, self.rule["count_of"], self.colour)


def _per_item(x: _Context) -> int:
    n = x.count()
    if "divisor" in x.rule:  # "1 point per 2 cats": the data says which way to round
        d = x.rule["divisor"]
        n = -(-n // d) if x.rule.get("rounding") == "up" else n // d
    return x.rule["points_each"] * n


def _each_colour(x: _Context, test: Callable[[int], bool], word: str) -> int:
    ok = all(test(_count(x.view, word, c)) for c in COLOURS)
    return x.rule["points"] if ok else 0


def _no_empty_cells(x: _Context) -> int:
    layout = x.view.boat.layout
    cells = {"edge": layout.edge_mask, "middle_row": layout.row_mask(MIDDLE_ROW)}
    wanted = cells.get(x.rule["cells"])
    if wanted is None:
        raise ValueError(f"unknown cell set {x.rule['cells']!r} in the card data")
    return x.rule["points"] if not wanted & ~x.view.boat.occupied else 0


def _rooms(x: _Context, filled: bool) -> int:
    """Filled: no empty square. Empty: no covered square. A room can be neither."""
    occupied = x.view.boat.occupied
    for key in x.rule["rooms"]:
        room = x.view.boat.layout.room(key).mask
        if room & (~occupied if filled else occupied):
            return 0
    return x.rule["points"]


def _largest_size(v: _View) -> int:
    return v.family_sizes[0][1] if v.family_sizes else 0


def _largest_family(x: _Context) -> int:
    mine = _largest_size(x.view)
    if x.mode == "solo":
        return x.rule["points"] if mine >= x.rule["solo_min_family_size"] else 0
    if x.rule.get("requires_at_least_one_tile") and mine == 0:
        return 0
    others = [_largest_size(o) for o in x.views if o is not x.view]
    beaten = any(s > mine for s in others) if x.rule.get("ties_score", True) else \
        any(s >= mine for s in others)
    return 0 if beaten else x.rule["points"]


def _family_by_rank(x: _Context) -> int:
    sizes = x.view.family_sizes  # biggest first; equal sizes score the same either way
    rank = x.rule["rank"]
    if len(sizes) < max(rank, x.rule.get("min_families", 0)):
        return 0
    return family_points(sizes[rank - 1][1])


def _per_colour_where(x: _Context) -> int:
    test = CONDITIONS.get(x.rule["condition"])
    if test is None:
        raise ValueError(f"unknown condition {x.rule['condition']!r} in the card data")
    return x.rule["points_each"] * sum(1 for c in COLOURS if test(x.view, c))


KINDS: dict[str, Callable[[_Context], int]] = {
    "count_equals": lambda x: x.rule["points"] if x.count() == x.rule["value"] else 0,
    "count_at_least": lambda x: x.rule["points"] if x.count() >= x.rule["value"] else 0,
    "count_less_than": lambda x: x.rule["points"] if x.count() < x.rule["value"] else 0,
    "per_item": _per_item,
    "per_item_above": lambda x: x.rule["points_each"] * max(0, x.count() - x.rule["threshold"]),
    "each_colour_count_at_least":
        lambda x: _each_colour(x, lambda n: n >= x.rule["min"], x.rule["count_of"]),
    # the kind itself says "touches the edge"; its count_of names what may touch it
    "each_colour_touches_edge":
        lambda x: _each_colour(x, lambda n: n >= 1, f"{x.rule['count_of']}_touching_edge"),
    "no_empty_cells": _no_empty_cells,
    "rooms_filled": lambda x: _rooms(x, filled=True),
    "rooms_empty": lambda x: _rooms(x, filled=False),
    "first_in_turn_order": lambda x: x.rule["points"] if x.view.player.turn_position == 0 else 0,
    "largest_family": _largest_family,
    "score_family_again": _family_by_rank,
    "family_score_by_rank": _family_by_rank,
    "per_colour_where": _per_colour_where,
}


# --- lessons ----------------------------------------------------------------------------------

# Kinds whose points depend on the sister's other cards: only ``sister_score`` can score them.
_SISTER_KINDS = ("repeat_best_other_solo_lesson", "sister_colour_multiplier")


def _lesson_card(card_id: int) -> Card:
    card = _LESSON_CARDS.get(card_id)
    if card is not None:
        return card
    card = base_cards().get(card_id)
    if card is None or card.scoring is None:
        raise ValueError(f"card {card_id} is not a lesson card")
    kind = card.scoring["kind"]
    if kind in _SISTER_KINDS:
        raise ValueError(f"card {card_id} is scored by sister_score, not as a lesson on its own")
    if kind not in KINDS:
        raise ValueError(f"card {card_id} has an unknown scoring kind {kind!r} in the card data")
    _LESSON_CARDS[card_id] = card
    return card


_LESSON_CARDS: dict[int, Card] = {}  # the lesson cards checked so far, by id


def _resolve_colour(card: Card, view: _View, colour: str | None) -> str | None:
    """The colour a lesson is scored with; ``best_at_end`` tries all five on this boat."""
    chooser = card.scoring.get("colour") if card.scoring else None
    if chooser == "best_at_end":
        # Cards 117/151 (FACTS §8.9): the best colour is picked automatically; ties -> first
        # colour in COLOURS order, so the result is deterministic.
        counts = [_count(view, card.scoring["count_of"], c) for c in COLOURS]
        return COLOURS[counts.index(max(counts))]
    if chooser == "chosen_at_purchase":
        if colour not in COLOURS:
            raise ValueError(f"card {card.id} needs the colour chosen at purchase "
                             f"(one of {', '.join(COLOURS)}), got {colour!r}")
        return colour
    if colour is not None:
        raise ValueError(f"card {card.id} takes no colour, got {colour!r}")
    return None


def _score_lesson(card: Card, view: _View, views: list[_View], mode: str,
                  colour: str | None) -> tuple[int, str | None]:
    rule = card.scoring or {}
    colour = _resolve_colour(card, view, colour)
    points = KINDS[rule["kind"]](_Context(rule, view, views, mode, colour))
    return points, colour


def _check_mode(table: TableFacts) -> None:
    if table.mode not in MODES:
        raise ValueError(f"unknown scoring mode {table.mode!r}; modes: {', '.join(MODES)}")
    if not table.players:
        raise ValueError("a table needs at least one player")
    if table.mode == "solo" and len(table.players) != 1:
        raise ValueError("a solo table has exactly one player")


def lesson_points(card_id: int, player_index: int, table: TableFacts,
                  colour: str | None = None) -> int:
    """Points one lesson card gives one player, as the card's data says (public lessons
    are not halved here: the halving in solo belongs to the score sheet)."""
    _check_mode(table)
    if not 0 <= player_index < len(table.players):
        raise ValueError(f"no player {player_index} at a table of {len(table.players)}")
    views = [_View(p) for p in table.players]
    return _score_lesson(_lesson_card(card_id), views[player_index], views, table.mode,
                         colour)[0]


# --- the score sheet --------------------------------------------------------------------------

_PRIVATE_FAMILIES = {"standard": ("private_lesson",), "solo": ("private_lesson",),
                     "family": ("family_lesson",)}


def _lessons(view: _View, views: list[_View],
             table: TableFacts) -> list[tuple[int, int, bool, str | None]]:
    """``(card, points, public, colour)`` of every lesson on the sheet: private (or
    family) lessons first, then public ones (halved in solo, rounded up)."""
    lessons = []
    private_family = _PRIVATE_FAMILIES[table.mode]
    for card_id in view.player.private_lessons:
        card = _lesson_card(card_id)
        if card.family not in private_family:
            raise ValueError(f"card {card_id} ({card.family}) is not a private lesson "
                             f"of {table.mode} mode")
        points, colour = _score_lesson(card, view, views, table.mode, None)
        lessons.append((card_id, points, False, colour))
    for card_id, chosen in table.public_lessons:
        card = _lesson_card(card_id)
        if card.family != "public_lesson":
            raise ValueError(f"card {card_id} ({card.family}) is not a public lesson")
        points, colour = _score_lesson(card, view, views, table.mode, chosen)
        points = -(-points // _PUBLIC_DIVISOR[table.mode])  # solo: halved per card, rounded up
        lessons.append((card_id, points, True, colour))
    return lessons


def _sheet(view: _View, views: list[_View], table: TableFacts) -> dict[str, Any]:
    boat = view.boat
    families = [{"colour": c, "size": s, "points": family_points(s)}
                for c, s in view.family_sizes if s >= 3]
    lessons = [{"card": card_id, "points": points, "public": public, "colour": colour}
               for card_id, points, public, colour in _lessons(view, views, table)]
    sheet = {
        "rats": RAT_POINTS * boat.uncovered_rats(),
        "rooms": UNFILLED_ROOM_POINTS * boat.unfilled_rooms(),
        "families": sum(f["points"] for f in families),
        "rare_treasures": _RARE_POINTS[table.mode] * view.kind_count("rare_treasure"),
        "private_lessons": sum(le["points"] for le in lessons if not le["public"]),
        "public_lessons": sum(le["points"] for le in lessons if le["public"]),
    }
    sheet["total"] = sum(sheet.values())
    sheet["lessons"] = lessons
    sheet["families_detail"] = families
    return sheet


def _total(view: _View, views: list[_View], table: TableFacts) -> int:
    """``_sheet(...)["total"]``, the same sum without the sheet's details."""
    boat = view.boat
    total = RAT_POINTS * boat.uncovered_rats() + UNFILLED_ROOM_POINTS * boat.unfilled_rooms()
    total += sum(family_points(s) for _, s in view.family_sizes if s >= 3)
    total += _RARE_POINTS[table.mode] * view.kind_count("rare_treasure")
    return total + sum(points for _, points, _, _ in _lessons(view, views, table))


def score_table(table: TableFacts) -> list[dict[str, Any]]:
    """The final score sheet of every player, in seat order.

    ``families_detail`` lists the scoring families (3+ tiles), biggest first; ``lessons``
    lists private lessons then public ones, each with the colour it was scored with.
    """
    _check_table(table)
    views = [_View(p) for p in table.players]
    return [_sheet(v, views, table) for v in views]


def score_total(table: TableFacts, index: int = 0) -> int:
    """``score_table(table)[index]["total"]``, computed for that player alone (the greedy
    bot scores thousands of hypothetical boats)."""
    _check_table(table)
    views = [_View(p) for p in table.players]
    return _total(views[index], views, table)


def _check_table(table: TableFacts) -> None:
    _check_mode(table)
    if table.mode == "family" and table.public_lessons:
        raise ValueError("the family variant has no public lessons")


# --- the solo sister ----------------------------------------------------------------------------


def _sister_colour_points(colour: str, position: int) -> int:
    """Points per tile of the colour card revealed at ``position`` (1-based), from its data."""
    for card in base_cards().values():
        if card.family == "solo_colour" and card.colour == colour:
            table = (card.scoring or {})["points_each_by_reveal_position"]
            return int(table[str(position)])
    raise ValueError(f"no solo colour card for {colour!r}")


def sister_score(player: PlayerFacts, colour_order: Sequence[str],
                 sister_lessons: Sequence[int]) -> dict[str, Any]:
    """The sister's final score, taken from the PLAYER's boat: revealed colour cards
    (5/4/3/2/1 per tile by reveal order) plus her solo lessons; 204 repeats her best other."""
    if len(set(colour_order)) != len(colour_order) or len(colour_order) > len(COLOURS):
        raise ValueError(f"colour_order must list distinct colours, got {list(colour_order)}")
    if len(set(sister_lessons)) != len(sister_lessons):
        raise ValueError(f"sister_lessons has a repeated card: {list(sister_lessons)}")
    view = _View(player)
    colours = []
    for position, colour in enumerate(colour_order, start=1):
        if colour not in COLOURS:
            raise ValueError(f"unknown colour {colour!r}")
        each = _sister_colour_points(colour, position)
        count = len(view.tiles_of(colour))
        colours.append({"colour": colour, "points_each": each, "count": count,
                        "points": each * count})
    points: dict[int, int] = {}
    repeaters = []
    for card_id in sister_lessons:
        card = base_cards().get(card_id)
        if card is None or card.family not in ("solo_lesson_basic", "solo_lesson_advanced"):
            raise ValueError(f"card {card_id} is not a solo lesson (197-215)")
        if (card.scoring or {}).get("kind") == "repeat_best_other_solo_lesson":
            repeaters.append(card_id)  # scored below, once the others are known
            continue
        points[card_id] = _score_lesson(card, view, [view], "solo", None)[0]
    best_other = max(points.values(), default=0)
    for card_id in repeaters:
        points[card_id] = best_other
    lessons = [{"card": c, "points": points[c]} for c in sister_lessons]
    total = sum(c["points"] for c in colours) + sum(le["points"] for le in lessons)
    return {"colours": colours, "lessons": lessons, "total": total}


# --- what a lesson reads of a boat (for callers scoring many boats one tile apart) -------------
# The greedy bot scores, for one boat, the boats it would have after one more tile at each of a
# few masks. A lesson whose reads cannot tell two such boats apart gives them the same points,
# so it need be scored once for both. These tables say what each word reads, besides the
# player's own facts (fish, baskets, lessons, turn position) and the other seats' boats:
#   "tiles"                 how many tiles of each kind and colour the boat holds;
#   ("covered_count", m)    how many cells of the mask m are covered;
#   ("all_covered", m)      whether every cell of m is covered;
#   ("none_covered", m)     whether no cell of m is covered;
#   "filled_rooms"          how many rooms are full;
#   "edge"                  which cats and Oshax touch the boat's edge;
#   "families"              the sizes of the families;
#   "contact"               which treasures touch which cats and Oshax;
#   ("colour_contact", c)   which treasures touch the cats and Oshax of colour c;
#   "rat_contact"           which cats and Oshax touch an uncovered rat (and which rats are).
# A word missing here reads anything: ``lesson_reads`` then answers None.

_COUNT_READS: dict[str, tuple[Any, ...]] = {
    "cats": ("tiles",), "oshax": ("tiles",), "cats_and_oshax": ("tiles",),
    "cats_and_oshax_of_colour": ("tiles",), "treasures": ("tiles",),
    "common_treasures": ("tiles",), "rare_treasures": ("tiles",),
    "visible_rats": ("rats",), "uncovered_maps": ("maps",), "covered_maps": ("maps",),
    "private_lessons": (), "permanent_baskets": (), "fish": (),
    "filled_rooms": ("filled_rooms",),
    "lonely_cats_and_oshax": ("families",), "lonely_cats_and_oshax_of_colour": ("families",),
    "families_size_at_least": ("families",),
    "cats_and_oshax_touching_edge": ("edge",),
    "cats_and_oshax_of_colour_touching_edge": ("edge",),
    "treasures_touching_colour": ("colour_contact",),
    "size_of_largest_family_if_at_least_3": ("families",),
    "cats_and_oshax_not_touching_treasure": ("contact",),
}
_CONDITION_READS: dict[str, tuple[Any, ...]] = {
    "no_cat_or_oshax_of_colour_adjacent_to_any_treasure": ("contact",),
    "no_cat_or_oshax_of_colour_touching_edge": ("edge",),
    "no_cat_or_oshax_of_colour_adjacent_to_visible_rat": ("rat_contact",),
}
_COUNTING_KINDS = ("count_equals", "count_at_least", "count_less_than", "per_item",
                   "per_item_above", "each_colour_count_at_least")
_FAMILY_KINDS = ("largest_family", "score_family_again", "family_score_by_rank")


def _count_reads(count_of: str, layout: Any, colour: str | None) -> tuple[Any, ...] | None:
    name, _, arg = count_of.partition(":")
    reads = _COUNT_READS.get(name)
    if reads is None:
        return None
    colour = arg or colour
    out: list[Any] = []
    for read in reads:
        if read == "rats":  # the uncovered rats are counted
            out.append(("covered_count", layout.rats_mask))
        elif read == "maps":  # the maps are counted, one cell each
            out.append(("covered_count", layout.maps_mask))
        elif read == "colour_contact":
            out.append(("colour_contact", colour) if colour in COLOURS else "contact")
        else:
            out.append(read)
    return tuple(out)


def lesson_reads(card_id: int, layout: Any, colour: str | None = None) -> tuple[Any, ...] | None:
    """What lesson ``card_id`` (scored with ``colour``, if chosen at purchase) reads of a boat
    of ``layout`` (the words above), or None when it may read anything. Two boats that agree
    on these reads (and belong to players with the same facts, beside the same other boats)
    get the same points from the lesson."""
    rule = _lesson_card(card_id).scoring or {}
    kind = rule.get("kind")
    if rule.get("colour") == "best_at_end":  # the colour is resolved on the boat
        colour = None
    if kind in _COUNTING_KINDS:
        return _count_reads(rule["count_of"], layout, colour)
    if kind == "each_colour_touches_edge":
        return _count_reads(f"{rule['count_of']}_touching_edge", layout, colour)
    if kind == "no_empty_cells":
        cells = {"edge": layout.edge_mask, "middle_row": layout.row_mask(MIDDLE_ROW)}
        return (("all_covered", cells[rule["cells"]]),) if rule["cells"] in cells else None
    if kind in ("rooms_filled", "rooms_empty"):
        read = "all_covered" if kind == "rooms_filled" else "none_covered"
        return tuple((read, layout.room(key).mask) for key in rule["rooms"])
    if kind == "first_in_turn_order":
        return ()
    if kind in _FAMILY_KINDS:
        return ("families",)
    if kind == "per_colour_where":
        return _CONDITION_READS.get(rule["condition"])
    return None


def sheet_lesson_points(table: TableFacts, index: int, which: Iterable[int]) -> list[int]:
    """The points of some lessons of player ``index``'s sheet, by their places on it (private
    lessons first, then public ones, as ``score_table`` lists them; public ones halved in
    solo): the sheet's lesson points without the lessons the caller already knows."""
    views = [_View(p) for p in table.players]
    view = views[index]
    private = view.player.private_lessons
    out = []
    for place in which:
        if place < len(private):
            card_id, chosen, public = private[place], None, False
        else:
            (card_id, chosen), public = table.public_lessons[place - len(private)], True
        points = _score_lesson(_lesson_card(card_id), view, views, table.mode, chosen)[0]
        if public:
            points = -(-points // _PUBLIC_DIVISOR[table.mode])
        out.append(points)
    return out
