"""A flat numeric encoding of a bot's observation, with a documented layout.

Learning code wants a fixed-length vector; bots get a JSON observation. ``encoder(mode)``
turns the very observation a bot receives into floats, so a policy trained on it can run as
a bot of any language that rebuilds the same vector. The layout is a list of named segments
(``Segment``: name, length, meaning); docs/training.md prints it for every mode, from
``layout_rows``. Everything is seen from the acting seat: "seat slot 0" is you, then the
next seats in seat order. Counts are scaled to roughly [0, 1] by the divisors named in the
meanings. Pure Python; the environments wrap the list in a NumPy array.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..boat import COLOURS, STRIDE, base_layouts, cell_xy, iter_bits
from ..modes.duel.data import ISLAND_SPACES, duel_data
from ..protocol_spec import mode_spec

MAX_SEATS = 4
CARD_SLOTS = 216  # card ids 1..215 of the base game (index 0 unused)
STANDARD_PHASES = (
    "anytime_before_fill", "fill_fields", "fishing", "anytime_before_deal", "draft",
    "anytime_before_buy", "buy", "anytime_before_read", "read_lessons", "anytime_before_choose",
    "choose_rescue", "anytime_after_reveal", "rescue", "rare_finds", "end_of_day",
    "anytime_final", "over",
)
DUEL_PHASES = ("choose_boat", "move", "act", "extra_selection", "place_cat", "place_treasure",
               "return_cat", "over")
COMMON_SHAPES = ("monomino_1", "domino_2", "L_tromino_3", "I_tromino_3")
BOAT_CHANNELS = ("cell", "occupied", *COLOURS, "treasure", "rat", "map")


@dataclass(frozen=True)
class Segment:
    name: str
    length: int
    meaning: str


@dataclass(frozen=True)
class Encoder:
    """``encode(observation) -> list[float]`` of exactly ``size`` values, laid out as
    ``segments`` in order."""

    mode: str
    segments: tuple[Segment, ...]
    encode: Callable[[dict[str, Any]], list[float]]

    @property
    def size(self) -> int:
        return sum(s.length for s in self.segments)


def _one_hot(value: Any, vocab: Sequence[Any]) -> list[float]:
    return [1.0 if value == v else 0.0 for v in vocab]


def _multi_hot(ids: Sequence[int], size: int) -> list[float]:
    out = [0.0] * size
    for i in ids:
        if 0 <= i < size:
            out[i] = 1.0
    return out


@cache
def _boat_frame() -> tuple[int, int]:
    """Width and height of a grid that holds every boat of every mode."""
    width = height = 0
    layouts = [*base_layouts().values(), *duel_data().layouts.values()]
    for layout in layouts:
        for i in iter_bits(layout.cells_mask):
            x, y = cell_xy(i)
            width, height = max(width, x + 1), max(height, y + 1)
    return width, height


@cache
def _layout_planes(name: str) -> tuple[list[float], list[float], list[float]]:
    """The static planes of a boat layout: its cells, rats and maps."""
    layouts = {**base_layouts(), **duel_data().layouts}
    layout = layouts[name]
    width, height = _boat_frame()

    def plane(mask: int) -> list[float]:
        out = [0.0] * (width * height)
        for i in iter_bits(mask):
            x, y = i % STRIDE, i // STRIDE
            out[y * width + x] = 1.0
        return out

    return plane(layout.cells_mask), plane(layout.rats_mask), plane(layout.maps_mask)


def _boat(boat_name: str | None, tiles: Sequence[dict[str, Any]]) -> list[float]:
    """``BOAT_CHANNELS`` planes of width x height cells, channel after channel (one flat
    list, written in place: no plane is built and then copied)."""
    width, height = _boat_frame()
    area = width * height
    out = [0.0] * (len(BOAT_CHANNELS) * area)
    if boat_name is not None:
        cells, rats, maps = _layout_planes(boat_name)
        out[:area] = cells
        out[-2 * area:-area] = rats
        out[-area:] = maps
    channel = {c: (2 + k) * area for k, c in enumerate(COLOURS)}
    treasure = 7 * area
    for tile in tiles:
        target = channel.get(tile.get("colour")) if tile["kind"] in (
            "cat", "oshax") else treasure
        for x, y in tile["cells"]:
            at = y * width + x
            out[area + at] = 1.0
            if target is not None:
                out[target + at] = 1.0
    return out


def _boat_segment(name: str, whose: str) -> Segment:
    width, height = _boat_frame()
    return Segment(name, len(BOAT_CHANNELS) * width * height,
                   f"{whose} boat: {len(BOAT_CHANNELS)} planes of {width}x{height} cells "
                   f"(row-major, x from the stern, y from the top), in this order: "
                   f"{', '.join(BOAT_CHANNELS)} (treasure: any treasure tile)")


def _seat_order(me: int, seats: int) -> list[int]:
    return [(me + k) % seats for k in range(seats)]


# --- standard, family, solo -------------------------------------------------------------------

_PLAYER_KEYS = (("fish", 20), ("hand_count", 10), ("private_lesson_count", 5), ("baskets", 5),
                ("baskets_used", 5), ("speed", 10), ("extra_cats", 3))


def _standard_encoder(mode: str) -> Encoder:
    decisions = tuple(mode_spec(mode).decisions)
    player_width = 3 + len(_PLAYER_KEYS)
    segments = [
        Segment("seats", MAX_SEATS, "one-hot: the number of seats, 1 to 4"),
        Segment("day", 2, "day / days, and 1 on the last day"),
        Segment("phase", len(STANDARD_PHASES), f"one-hot phase: {', '.join(STANDARD_PHASES)}"),
        Segment("decision", len(decisions), f"one-hot decision: {', '.join(decisions)}"),
        Segment("players", MAX_SEATS * player_width,
                f"{MAX_SEATS} seat slots (you first, then the next seats; empty slots 0) of "
                f"{player_width}: present, first in today's turn order, tiles/30, "
                + ", ".join(f"{k}/{d}" for k, d in _PLAYER_KEYS)),
        _boat_segment("my_boat", "your"),
        Segment("fields", 2 * (len(COLOURS) + 1),
                "left then right field: cats per colour/4 in colour order "
                f"({', '.join(COLOURS)}), then cats/8"),
        Segment("supply", len(COMMON_SHAPES) + 2,
                f"common treasures left/40 by shape ({', '.join(COMMON_SHAPES)}), "
                "rare treasures on offer/5, Oshax left/6"),
        Segment("hand", CARD_SLOTS, "multi-hot by card id: your hand"),
        Segment("draft", CARD_SLOTS, "multi-hot by card id: your draft pile, kept and drawn "
                "cards (what you may pick or buy)"),
        Segment("my_lessons", CARD_SLOTS, "multi-hot by card id: your private lessons"),
        Segment("rescue", CARD_SLOTS, "multi-hot by card id: your chosen and revealed rescue "
                "cards"),
        Segment("public_lessons", CARD_SLOTS, "multi-hot by card id: the public lessons"),
        Segment("sister", len(COLOURS) + 3, "solo only (else 0): her revealed colour cards "
                "(one-hot per colour), her lessons/8, basket cards left today/4, 1 when she "
                "plays first"),
    ]

    def encode(obs: dict[str, Any]) -> list[float]:
        me, seats = obs["seat"], obs["seats"]
        out = _one_hot(seats, range(1, MAX_SEATS + 1))
        out += [obs["day"] / max(obs["days"], 1), 1.0 if obs["day"] >= obs["days"] else 0.0]
        out += _one_hot(obs["phase"], STANDARD_PHASES)
        decision = obs.get("decision")
        out += _one_hot(decision.get("decision") if decision else None, decisions)
        first = obs["turn_order"][0] if obs["turn_order"] else None
        for slot in range(MAX_SEATS):
            if slot >= seats:
                out += [0.0] * player_width
                continue
            p = obs["players"][_seat_order(me, seats)[slot]]
            out += [1.0, 1.0 if p["seat"] == first else 0.0, len(p["tiles"]) / 30]
            out += [p[k] / d for k, d in _PLAYER_KEYS]
        you = obs["you"]
        out += _boat(you["boat"], you["tiles"])
        for side in ("left", "right"):
            cats = obs["fields"].get(side, [])
            out += [sum(1 for t in cats if t["colour"] == c) / 4 for c in COLOURS]
            out.append(len(cats) / 8)
        supply = obs["supply"]
        out += [supply["common"].get(s, 0) / 40 for s in COMMON_SHAPES]
        out += [len(supply["rare"]) / 5, len(supply["oshax"]) / 6]
        out += _multi_hot(you["hand"], CARD_SLOTS)
        out += _multi_hot([*you["draft_pile"], *you["kept"], *you["drawn"]], CARD_SLOTS)
        out += _multi_hot(you["private_lessons"], CARD_SLOTS)
        out += _multi_hot([*you["chosen_rescue"], *you["revealed_rescue"]], CARD_SLOTS)
        out += _multi_hot([lesson["card"] for lesson in obs["public_lessons"]], CARD_SLOTS)
        sister = obs.get("sister")
        if sister:
            out += [1.0 if c in sister["colours_revealed"] else 0.0 for c in COLOURS]
            out += [len(sister["lessons"]) / 8, sister["cards_left_today"] / 4,
                    1.0 if sister["first"] else 0.0]
        else:
            out += [0.0] * (len(COLOURS) + 3)
        return out

    return Encoder(mode, tuple(segments), encode)


# --- duel -------------------------------------------------------------------------------------

_ITEM_KINDS = ("cat", "lesson", "instant", "treasure")


def _duel_encoder() -> Encoder:
    space_width = 1 + len(_ITEM_KINDS) + len(COLOURS) + 1
    segments = [
        Segment("phase", len(DUEL_PHASES), f"one-hot phase: {', '.join(DUEL_PHASES)}"),
        Segment("turn", 6, "you act now, you play first today, day/10, Oshax steps due/3, "
                "jumping, treasures due/2"),
        Segment("oshax", ISLAND_SPACES, "one-hot: the Oshax's space (1-15)"),
        Segment("touched", ISLAND_SPACES, "multi-hot: spaces touched this turn"),
        Segment("island", ISLAND_SPACES * space_width,
                f"per space (1-15) {space_width} values: empty, item kind one-hot "
                f"({', '.join(_ITEM_KINDS)}), cat colour one-hot ({', '.join(COLOURS)}), "
                "shows a fish"),
        Segment("players", 2 * 4, "you then your opponent: fish/10, lessons/6, took a "
                "discovery last turn, tiles/20"),
        _boat_segment("my_boat", "your"),
        _boat_segment("their_boat", "your opponent's"),
        Segment("supply", len(COMMON_SHAPES) + len(COLOURS) + 2,
                f"treasures left/7 by shape ({', '.join(COMMON_SHAPES)}), round-counter cats "
                "per colour/3, cats in the bag/45, cards in the deck/30"),
    ]

    def encode(obs: dict[str, Any]) -> list[float]:
        me = obs["you"]
        turn = obs["turn"]
        out = _one_hot(obs["phase"], DUEL_PHASES)
        out += [1.0 if obs["to_act"] == me else 0.0, 1.0 if obs["first_player"] == me else 0.0,
                obs["day"] / 10, turn["steps_due"] / 3, 1.0 if turn["jumping"] else 0.0,
                turn["treasures_due"] / 2]
        out += _one_hot(obs["oshax"], range(1, ISLAND_SPACES + 1))
        out += _multi_hot([s - 1 for s in turn["touched"]], ISLAND_SPACES)
        for space in obs["island"]:
            item = space["item"]
            if item is None:
                out += [1.0] + [0.0] * (space_width - 1)
                continue
            out += [0.0, *_one_hot(item["kind"], _ITEM_KINDS),
                    *_one_hot(item.get("colour"), COLOURS), 1.0 if item.get("fish") else 0.0]
        players = obs["players"]
        for seat in (me, 1 - me):
            p = players[seat]
            out += [p["fish"] / 10, len(p["lessons"]) / 6,
                    1.0 if p["took_discovery_last_turn"] else 0.0, len(p["tiles"]) / 20]
        for seat in (me, 1 - me):
            out += _boat(players[seat]["boat"], players[seat]["tiles"])
        out += [obs["treasure_supply"].get(s, 0) / 7 for s in COMMON_SHAPES]
        counters = obs["round_counter_cats"]
        out += [sum(1 for t in counters if t["colour"] == c) / 3 for c in COLOURS]
        out += [obs["bag_count"] / 45, obs["deck_count"] / 30]
        return out

    return Encoder("duel", tuple(segments), encode)


@cache
def encoder(mode: str) -> Encoder:
    """The flat encoder of ``mode`` (standard, family, solo or duel)."""
    if mode == "duel":
        return _duel_encoder()
    if mode in ("standard", "family", "solo"):
        return _standard_encoder(mode)
    raise KeyError(f"no flat encoding for mode {mode!r}")


def layout_rows(mode: str) -> list[tuple[int, int, str, str]]:
    """``(first index, length, name, meaning)`` of every segment, for docs and checks."""
    rows, at = [], 0
    for seg in encoder(mode).segments:
        rows.append((at, seg.length, seg.name, seg.meaning))
        at += seg.length
    return rows

