"""The automated sister of the solo mode: her cards, her numbering of tiles, her actions.

She never owns a boat. Each day she draws solo basket cards (the first card's basket
count says how many; its speed is hers for the day) and plays them one at a time; each
card's keyword actions remove tiles from the game: "cat N", "Oshax N", "rare treasure N",
a common treasure of a shape, or "switch cats A and B". The numbering and fallback rules
are the data file's ``_meta.solo_basket_rules``:

* cats are numbered left to right along the line (left field 1-4, then right 5-8): the
  order of ``fields.cats`` (a cat moved or drawn into a field joins the end of its part);
  Oshax by their fixed order in the supply; rare treasures by distinct
  shape in order of first appearance among the supply's tiles (in draw order): the
  rulebook's stacks of identical shapes, a stack keeping its place while it lasts
  because a tile is always taken from the top (the copy drawn last);
* a missing number N falls back to the highest-numbered tile of that kind;
* numbers are compacted after each removal (lists do that by themselves); a switch
  exchanges two cats' numbers and fields without compacting.

The functions work on the standard game's state pieces (``Fields``, ``Supply``, the
tile catalogue and the ``removed`` list), duck-typed, so the sister needs no copy of them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Protocol

from ...cards import (
    SOLO_ADVANCED_LESSON_IDS,
    SOLO_BASIC_LESSON_IDS,
    SOLO_BASKET_IDS,
    SOLO_COLOUR_IDS,
    Card,
    base_cards,
)
from ...rng import Rng


@cache
def solo_rules() -> dict[str, Any]:
    """The solo numbers (difficulties, draft, fields) from solo.json."""
    raw = json.loads(resources.files(__package__).joinpath("solo.json").read_text())
    raw.pop("_doc", None)
    return raw


def difficulties() -> tuple[str, ...]:
    return tuple(solo_rules()["difficulties"])


def difficulty_of(options: Mapping[str, Any]) -> str:
    """The difficulty a game's options ask for (solo.json's default when they ask none)."""
    return str(options.get("difficulty", solo_rules()["default_difficulty"]))


# --- what the sister acts on (the standard game's state pieces) -----------------------------


class _FieldCat(Protocol):
    tile: int
    side: str


class _Fields(Protocol):
    cats: list[Any]


class _Supply(Protocol):
    oshax: list[int]
    rare: list[int]
    common: dict[str, list[int]]


class _TileInfo(Protocol):
    shape: str


@dataclass
class SisterTable:
    """The parts of the table the sister touches."""

    fields: _Fields
    supply: _Supply
    tiles: Sequence[_TileInfo]
    removed: list[int]


def cat_numbers(table: SisterTable) -> list[int]:
    """Tile ids of the field cats; cat N is element N-1."""
    return [c.tile for c in table.fields.cats]


def rare_numbers(table: SisterTable) -> list[str]:
    """Rare treasure shapes in the supply; rare N is element N-1 (identical shapes share)."""
    shapes: list[str] = []
    for tile in table.supply.rare:
        shape = table.tiles[tile].shape
        if shape not in shapes:
            shapes.append(shape)
    return shapes


def _pick(count: int, n: int) -> tuple[int | None, bool]:
    """Index (0-based) for number ``n`` among ``count`` numbered tiles, and whether the
    "highest number" fallback was used; None when there is no tile of the kind."""
    if count == 0:
        return None, True
    if 1 <= n <= count:
        return n - 1, False
    return count - 1, True


def take_cat(table: SisterTable, n: int) -> dict[str, Any]:
    index, fallback = _pick(len(table.fields.cats), n)
    if index is None:
        return {"action": "take_cat", "n": n, "tile": None, "fallback": True}
    cat = table.fields.cats.pop(index)
    table.removed.append(cat.tile)
    return {"action": "take_cat", "n": n, "tile": cat.tile, "number": index + 1,
            "side": cat.side, "fallback": fallback}


def take_oshax(table: SisterTable, n: int) -> dict[str, Any]:
    index, fallback = _pick(len(table.supply.oshax), n)
    if index is None:
        return {"action": "take_oshax", "n": n, "tile": None, "fallback": True}
    tile = table.supply.oshax.pop(index)
    table.removed.append(tile)
    return {"action": "take_oshax", "n": n, "tile": tile, "number": index + 1,
            "fallback": fallback}


def take_rare_treasure(table: SisterTable, n: int) -> dict[str, Any]:
    shapes = rare_numbers(table)
    index, fallback = _pick(len(shapes), n)
    if index is None:
        return {"action": "take_rare_treasure", "n": n, "tile": None, "fallback": True}
    shape = shapes[index]
    # the top of the stack: the copy drawn last, so the stack keeps its place in the line
    tile = [t for t in table.supply.rare if table.tiles[t].shape == shape][-1]
    table.supply.rare.remove(tile)
    table.removed.append(tile)
    return {"action": "take_rare_treasure", "n": n, "tile": tile, "number": index + 1,
            "shape": shape, "fallback": fallback}


def take_common_treasure(table: SisterTable, shape: str) -> dict[str, Any]:
    ids = table.supply.common.get(shape) or []
    if not ids:
        return {"action": "take_common_treasure", "shape": shape, "tile": None}
    tile = ids.pop()
    table.removed.append(tile)
    return {"action": "take_common_treasure", "shape": shape, "tile": tile}


def switch_cats(table: SisterTable, a: int, b: int) -> dict[str, Any]:
    """Cats #a and #b exchange numbers (list positions) and fields."""
    cats = table.fields.cats
    count = len(cats)
    out: dict[str, Any] = {"action": "switch_cats", "a": a, "b": b, "tiles": None}
    if count < 2:
        return out
    ia = a - 1 if 1 <= a <= count else count - 2
    ib = b - 1 if 1 <= b <= count else count - 1
    if ia == ib:
        ia = ib - 1 if ib > 0 else ib + 1  # "the cat just before it" (after it for cat 1)
    first, second = cats[ia], cats[ib]
    first.side, second.side = second.side, first.side
    cats[ia], cats[ib] = second, first
    out.update(tiles=[first.tile, second.tile], numbers=[ia + 1, ib + 1],
               fallback=(ia, ib) != (a - 1, b - 1))
    return out


def play_card(table: SisterTable, card: Card) -> list[dict[str, Any]]:
    """Resolve one solo basket card's actions in printed order; returns what happened."""
    done = []
    for step in card.actions:
        kind = step["action"]
        if kind == "take_cat":
            done.append(take_cat(table, int(step["n"])))
        elif kind == "take_oshax":
            done.append(take_oshax(table, int(step["n"])))
        elif kind == "take_rare_treasure":
            done.append(take_rare_treasure(table, int(step["n"])))
        elif kind == "take_common_treasure":
            done.append(take_common_treasure(table, step["shape"]))
        elif kind == "switch_cats":
            done.append(switch_cats(table, int(step["a"]), int(step["b"])))
        else:
            raise ValueError(f"card {card.id}: unknown sister action {kind!r} in the card data")
    return done


# --- her cards over the game ------------------------------------------------------------------


@dataclass
class Sister:
    """The sister's cards: basket deck, today's cards, colour cards and lessons."""

    difficulty: str
    lessons: list[int]
    colour_deck: list[int]  # solo colour cards still face down, next one last
    colours_revealed: list[int] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)  # basket cards, next one last
    today: list[int] = field(default_factory=list)  # drawn today and not played yet
    played_today: list[int] = field(default_factory=list)
    actions_today: list[dict[str, Any]] = field(default_factory=list)  # what her cards did
    discard: list[int] = field(default_factory=list)
    speed: int = 0
    first: bool = False  # she acts before the player in today's rescue

    @classmethod
    def setup(cls, seed: int, difficulty: str) -> Sister:
        """Her lessons (3 basic + 0-4 advanced), colour cards and basket deck, shuffled."""
        rules = solo_rules()
        if difficulty not in rules["difficulties"]:
            raise ValueError(f"difficulty must be one of {list(rules['difficulties'])}")
        basic = list(SOLO_BASIC_LESSON_IDS)
        advanced = list(SOLO_ADVANCED_LESSON_IDS)
        rng = Rng(seed, "sister:lessons")
        rng.shuffle(basic)
        rng.shuffle(advanced)
        lessons = basic[:rules["basic_lessons"]] + advanced[:rules["difficulties"][difficulty]]
        colours = list(SOLO_COLOUR_IDS)
        Rng(seed, "sister:colours").shuffle(colours)
        deck = list(SOLO_BASKET_IDS)
        Rng(seed, "sister:deck").shuffle(deck)
        return cls(difficulty, lessons, colours, deck=deck)

    def reveal_colour(self) -> int | None:
        if not self.colour_deck:
            return None
        card = self.colour_deck.pop()
        self.colours_revealed.append(card)
        return card

    @property
    def colour_order(self) -> list[str]:
        cards = base_cards()
        return [str(cards[c].colour) for c in self.colours_revealed]

    def draw_day(self) -> list[int]:
        """Her cards for the day: the first card's basket count says how many in all."""
        if not self.deck:
            self.today, self.speed = [], 0
            return []
        first = self.deck.pop()
        count = base_cards()[first].basket_count or 1
        self.today = [first] + [self.deck.pop() for _ in range(min(count - 1, len(self.deck)))]
        self.speed = base_cards()[first].speed
        return list(self.today)

    def decide_order(self, player_speed: int) -> bool:
        """Whether she goes first today: higher speed first, a tie keeps the order."""
        if self.speed > player_speed:
            self.first = True
        elif self.speed < player_speed:
            self.first = False
        return self.first

    def next_card(self) -> int | None:
        if not self.today:
            return None
        card = self.today.pop(0)
        self.played_today.append(card)
        return card

    def end_day(self) -> None:
        self.discard.extend(self.played_today + self.today)
        self.played_today, self.today, self.actions_today = [], [], []

    def cards(self) -> list[int]:
        """Every solo card she holds anywhere (for the every-card-in-one-place check)."""
        return (self.lessons + self.colour_deck + self.colours_revealed + self.deck + self.today
                + self.played_today + self.discard)

    def to_json(self, *, full: bool) -> dict[str, Any]:
        """Her public face; ``full`` adds her face-down cards (spectators)."""
        cards = base_cards()
        out: dict[str, Any] = {
            "difficulty": self.difficulty,
            "lessons": [cards[c].to_json() for c in self.lessons],
            "colours_revealed": self.colour_order,
            "speed": self.speed,
            "first": self.first,
            "first_card": self.played_today[0] if self.played_today else (
                self.today[0] if self.today else None),
            "cards_left_today": len(self.today),
            "played_today": list(self.played_today),
            "actions_today": [dict(a) for a in self.actions_today],
        }
        if full:
            out.update(today=list(self.today), deck=list(self.deck),
                       colour_deck=list(self.colour_deck), discard=list(self.discard))
        return out
