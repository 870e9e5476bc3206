"""A new game's table: the tile catalogue, boats dealt, bag and deck shuffled, the supply.

Each random choice uses its own named stream of the game seed ("boats", "bag", "deck",
"seating"), so a change to one never shifts the others. Family and solo call ``new_state``
with their own card list, supply sizes and Oshax choice.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...boat import Boat, base_layouts
from ...cards import DISCOVERY_IDS
from ...rng import Rng
from ...shapes import base_shapes
from .rules import Rules
from .state import CAT, COMMON, OSHAX, RARE, PlayerState, State, Supply, TileInfo

BOAT_COLOURS = ("blue", "green", "red", "purple")


def build_tiles(common_per_shape: int) -> list[TileInfo]:
    """Every tile of the game with a stable id: cats (colour by colour, shape by shape),
    rare treasures, Oshax, then the common treasures in play."""
    shapes = base_shapes()
    tiles: list[TileInfo] = []
    for colour in shapes.colours:
        for s in shapes.cats:
            tiles.append(TileInfo(len(tiles), CAT, colour, s.key))
    for s in shapes.rare_treasures:
        for _ in range(shapes.rare_counts[s.key]):
            tiles.append(TileInfo(len(tiles), RARE, None, s.key))
    for s in shapes.oshax:
        tiles.append(TileInfo(len(tiles), OSHAX, None, s.key))
    for s in shapes.common_treasures:
        for _ in range(common_per_shape):
            tiles.append(TileInfo(len(tiles), COMMON, None, s.key))
    return tiles


def first_player_order(seats: int, seed: int) -> list[int]:
    """Turn order at the start: a random first player, then round the table (rulebook)."""
    first = Rng(seed, "seating").randbelow(seats)
    return [(first + i) % seats for i in range(seats)]


def new_state(
    seats: int,
    seed: int,
    rules: Rules,
    *,
    card_ids: Iterable[int] = DISCOVERY_IDS,
    common_per_shape: int | None = None,
    with_oshax: bool = True,
) -> State:
    """The table before day 1: nothing drawn yet, no fish, every boat empty."""
    shapes = base_shapes()
    per_shape = common_per_shape if common_per_shape is not None else (
        shapes.common_count_per_shape[seats])
    tiles = build_tiles(per_shape)

    colours = list(BOAT_COLOURS)
    Rng(seed, "boats").shuffle(colours)
    layouts = base_layouts()
    players = [
        PlayerState(seat, Boat(layouts[colours[seat]]), baskets=rules.permanent_baskets_at_start)
        for seat in range(seats)
    ]

    bag = [t.id for t in tiles if t.kind in (CAT, RARE)]
    Rng(seed, "bag").shuffle(bag)
    deck = list(card_ids)
    Rng(seed, "deck").shuffle(deck)

    supply = Supply(
        oshax=[t.id for t in tiles if t.kind == OSHAX] if with_oshax else [],
        common={s.key: [t.id for t in tiles if t.kind == COMMON and t.shape == s.key]
                for s in shapes.common_treasures},
    )
    state = State(tiles=tiles, players=players, bag=bag, deck=deck, supply=supply,
                  turn_order=first_player_order(seats, seed))
    if not with_oshax:
        state.removed.extend(t.id for t in tiles if t.kind == OSHAX)
    return state
