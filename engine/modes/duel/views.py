"""What each player, a spectator and the result see of a Duel game, built in one place.

Almost everything in the Duel is open: boats, fish, lessons (face up), the island,
the treasure supply and the round-counter cats. Hidden from the players are the order
of the bag and of the deck; their contents follow from what has been seen, so the
observation gives them sorted (order hidden). ``spectator_view`` adds both orders.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...boat import Boat
from ...version import ENGINE_VERSION
from .data import ISLAND_SPACES, duel_data

if TYPE_CHECKING:
    from .game import DuelGame


def _cat(tile_id: int) -> dict[str, Any]:
    return duel_data().cats[tile_id].to_json()


def _boat(boat: Boat | None, name: str | None) -> dict[str, Any] | None:
    if boat is None:
        return None
    return {"boat": name, "tiles": [t.to_json() for t in boat.tiles]}


def _island(game: DuelGame) -> list[dict[str, Any]]:
    data = duel_data()
    out = []
    for s in range(1, ISLAND_SPACES + 1):
        item = game.island[s]
        kind = data.island.kinds[s]
        entry: dict[str, Any] = {"space": s, "kind": kind, "item": None}
        if item is not None:
            entry["item"] = _cat(item) if kind == "cat" else data.cards[item].to_json()
        out.append(entry)
    return out


def _public(game: DuelGame) -> dict[str, Any]:
    """Everything both players see."""
    data = duel_data()
    touched = [s for s in range(1, ISLAND_SPACES + 1) if game.touched >> s & 1]
    return {
        "mode": "duel",
        "day": game.day,
        "first_player": game.first,
        "to_act": None if game.is_over() else game.current,
        "phase": game.phase,
        "oshax": game.oshax,
        "turn": {
            "touched": touched,
            "steps_due": game.steps,
            "jumping": game.jumping,
            "selection_used": game.selected,
            "extra_selection_due": game.extra,
            "placing": None if game.placing is None else _cat(game.placing),
            "treasures_due": game.treasures_due,
        },
        "island": _island(game),
        "players": [
            {
                "seat": seat,
                "fish": game.fish[seat],
                "lessons": [data.cards[c].to_json() for c in game.lessons[seat]],
                "took_discovery_last_turn": game.took[seat],
                **(_boat(game.boats[seat], game.layout_names[seat]) or {"boat": None,
                                                                        "tiles": []}),
            }
            for seat in range(2)
        ],
        "treasure_supply": {k: len(v) for k, v in game.supply.items()},
        "round_counter_cats": [_cat(t) for t in game.counters],
        "bag_count": len(game.bag),
        "deck_count": len(game.deck),
        "box": list(game.box),
        "discard": list(game.discard),
    }


def observation(game: DuelGame, seat: int) -> dict[str, Any]:
    if seat not in (0, 1):
        raise ValueError(f"the Duel has seats 0 and 1, not {seat}")
    return {
        **_public(game),
        "you": seat,
        "bag_contents": sorted(game.bag),  # order hidden
        "deck_contents": sorted(game.deck),  # order hidden
    }


def spectator_view(game: DuelGame) -> dict[str, Any]:
    return {**_public(game), "bag": list(game.bag), "deck": list(game.deck)}


def result(game: DuelGame) -> dict[str, Any]:
    if not game.is_over():
        raise ValueError("the game is not over yet")
    sheets = game.scores()
    scores = [s["total"] for s in sheets]
    key = [(scores[i], game.fish[i]) for i in range(2)]
    ranks = [1 + sum(1 for k in key if k > key[i]) for i in range(2)]
    return {
        "mode": "duel",
        "seats": game.seats,
        "seed": game.seed,
        "engine_version": ENGINE_VERSION,
        "scores": scores,
        "ranks": ranks,
        "winners": [i for i in range(2) if ranks[i] == 1],
        "breakdown": sheets,
        "tiebreak": {"name": "fish", "values": list(game.fish)},
        "boats": [_boat(game.boats[i], game.layout_names[i]) for i in range(2)],
        "lessons": [list(x) for x in game.lessons],
        "days": game.day,
        "state_hash": game.state_hash(),
    }
