"""The end of a standard game: final scoring (engine/scoring.py), the fish tiebreak, ranks,
winners and each seat's final boat, in the result format of docs/engine.md."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...scoring import PlayerFacts, TableFacts, score_table
from ...version import ENGINE_VERSION

if TYPE_CHECKING:
    from .game import StandardGame


def competition_ranks(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """1 + the number of seats with a strictly better key; equal keys share a rank."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def table_facts(game: StandardGame) -> TableFacts:
    state = game.state
    order = state.turn_order
    players = [
        PlayerFacts(boat=p.boat, fish=p.fish, private_lessons=tuple(p.private_lessons),
                    permanent_baskets=p.baskets, turn_position=order.index(p.seat))
        for p in state.players
    ]
    return TableFacts(players=players, public_lessons=tuple(state.public_lessons),
                      mode=game.scoring_mode)


def final_boats(game: StandardGame) -> list[dict[str, Any]]:
    return [{"boat": p.boat.layout.name, "tiles": [t.to_json() for t in p.boat.tiles]}
            for p in game.state.players]


def build_result(game: StandardGame) -> dict[str, Any]:
    sheets = score_table(table_facts(game))
    scores = [s["total"] for s in sheets]
    fish = [p.fish for p in game.state.players]
    ranks = competition_ranks([(s, f) for s, f in zip(scores, fish, strict=True)])
    return {
        "mode": game.mode,
        "seats": game.seats,
        "seed": game.seed,
        "options": dict(game.options),
        "engine_version": ENGINE_VERSION,
        "scores": scores,
        "ranks": ranks,
        "winners": [i for i, r in enumerate(ranks) if r == 1],
        "breakdown": sheets,
        "tiebreak": {"name": "fish", "values": fish},
        "boats": final_boats(game),
        "turn_order": list(game.state.turn_order),
        "state_hash": game.state_hash(),
    }
