"""Final scoring of the Duel: rats, unfilled rooms, cat families and the lesson cards.

A lesson's rule is data (``scoring`` of the card in engine/data/duel/cards.json): a
``kind`` and its parameters. ``LESSON_KINDS`` gives each kind its meaning, one small
function each. The family table is the shared one (``engine.scoring.family_points``:
3 -> 8, 4 -> 11, 5 -> 15, +5 per cat beyond 5). Pure functions over ``Boat`` values.

Counts of cats are tiles, not squares; treasures have no colour and join no family.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ...boat import COLOURS, Boat
from ...scoring import family_points
from .data import DuelCard, duel_data


class _Sheet:
    """One player's boat as the lessons see it; derived facts computed once."""

    def __init__(self, boat: Boat) -> None:
        self.boat = boat

    @cached_property
    def cats(self) -> list[Any]:
        return [t for t in self.boat.tiles if t.kind == "cat"]

    @cached_property
    def treasures(self) -> int:
        return sum(1 for t in self.boat.tiles if t.colour is None)

    @cached_property
    def family_sizes(self) -> list[int]:
        """Tiles per family, biggest first (size 1 = a lonely cat)."""
        return [size for _, size in self.boat.family_sizes()]

    def cats_of(self, colour: str) -> int:
        return sum(1 for t in self.cats if t.colour == colour)

    def edge_cats(self, colour: str | None = None) -> int:
        edge = self.boat.layout.edge_mask
        return sum(1 for t in self.cats if t.mask & edge and colour in (None, t.colour))


@dataclass
class _Rule:
    rule: dict[str, Any]
    me: _Sheet
    others: list[_Sheet]

    def __getitem__(self, key: str) -> Any:
        return self.rule[key]

    def points_if(self, ok: bool) -> int:
        return self.rule["points"] if ok else 0


def _largest_family(x: _Rule) -> int:
    mine = max(x.me.family_sizes, default=0)
    if mine < x.rule.get("min_size", 0):
        return 0
    return x.points_if(not any(max(o.family_sizes, default=0) > mine for o in x.others))


def _most_treasures(x: _Rule) -> int:
    mine = x.me.treasures
    if mine < x.rule.get("min", 0):
        return 0
    return x.points_if(not any(o.treasures > mine for o in x.others))


def _third_family(x: _Rule) -> int:
    sizes = x.me.family_sizes
    return family_points(sizes[2]) if len(sizes) >= 3 else 0


def _twin_families(x: _Rule) -> int:
    sizes = [s for s in x.me.family_sizes if s >= x.rule.get("min_size", 3)]
    return x.points_if(any(sizes.count(s) == 2 for s in set(sizes)))


def _visible_maps(boat: Boat) -> int:
    return sum(1 for cell in boat.layout.maps.values() if not cell & boat.occupied)


LESSON_KINDS: dict[str, Callable[[_Rule], int]] = {
    "no_empty_edge_cells":
        lambda x: x.points_if(not x.me.boat.layout.edge_mask & ~x.me.boat.occupied),
    "min_cats_each_colour":
        lambda x: x.points_if(all(x.me.cats_of(c) >= x["min"] for c in COLOURS)),
    "each_colour_touches_edge":
        lambda x: x.points_if(all(x.me.edge_cats(c) >= 1 for c in COLOURS)),
    "per_lonely_cat": lambda x: x["points_each"] * x.me.family_sizes.count(1),
    "largest_family": _largest_family,
    "per_treasure_tile": lambda x: x["points_each"] * x.me.treasures,
    "exact_cats_of_colour": lambda x: x.points_if(x.me.cats_of(x["colour"]) == x["count"]),
    "exact_visible_rats": lambda x: x.points_if(x.me.boat.uncovered_rats() == x["count"]),
    "exact_treasure_tiles": lambda x: x.points_if(x.me.treasures == x["count"]),
    "per_pair_of_edge_cats": lambda x: x["points_per_pair"] * (x.me.edge_cats() // 2),
    "third_largest_family_again": _third_family,
    "most_treasure_tiles": _most_treasures,
    "exact_visible_maps": lambda x: x.points_if(_visible_maps(x.me.boat) == x["count"]),
    "exact_cat_tiles": lambda x: x.points_if(len(x.me.cats) == x["count"]),
    "two_families_same_size": _twin_families,
    "min_of_two_colours":
        lambda x: x["points_each"] * min(x.me.cats_of(c) for c in x["colours"]),
}

# The lesson kinds whose points read the other boats too (``x.others``); every other kind
# reads only its owner's boat, so its points stay while only another boat changes.
READS_OTHER_BOATS = frozenset({"largest_family", "most_treasure_tiles"})


def _lesson(card_id: int) -> DuelCard:
    card = duel_data().cards.get(card_id)
    if card is None or card.scoring is None:
        raise ValueError(f"card {card_id} is not a Duel lesson card (11-32)")
    if card.scoring["kind"] not in LESSON_KINDS:
        raise ValueError(f"card {card_id}: unknown lesson kind {card.scoring['kind']!r}")
    return card


def lesson_points(card_id: int, seat: int, boats: Sequence[Boat]) -> int:
    """Points that lesson ``card_id`` gives the owner of ``boats[seat]`` (the other boats
    matter for the "largest family" and "most treasures" lessons)."""
    sheets = [_Sheet(b) for b in boats]
    return _score(_lesson(card_id), seat, sheets)


def _score(card: DuelCard, seat: int, sheets: list[_Sheet]) -> int:
    others = [s for i, s in enumerate(sheets) if i != seat]
    return LESSON_KINDS[card.scoring["kind"]](_Rule(card.scoring, sheets[seat], others))  # type: ignore[index]


def score_boats(boats: Sequence[Boat], lessons: Sequence[Sequence[int]]) -> list[dict[str, Any]]:
    """The score sheet of every seat: rats, rooms, families, lessons and total, with the
    scoring families and every lesson's points listed for the result."""
    rules = duel_data().rules
    sheets = [_Sheet(b) for b in boats]
    out = []
    for seat, sheet in enumerate(sheets):
        families = [s for s in sheet.family_sizes if s >= 3]
        detail = [{"card": c, "points": _score(_lesson(c), seat, sheets)} for c in lessons[seat]]
        row: dict[str, Any] = {
            "rats": rules["rat_points"] * sheet.boat.uncovered_rats(),
            "rooms": rules["unfilled_room_points"] * sheet.boat.unfilled_rooms(),
            "families": sum(family_points(s) for s in families),
            "lessons": sum(d["points"] for d in detail),
        }
        row["total"] = sum(row.values())
        row["families_detail"] = families
        row["lessons_detail"] = detail
        out.append(row)
    return out
