"""The Duel's determinization (engine/modes/duel/determinize.py) holds to the forward
model's contract (tests/engine/forward_contract.py): the seat's observation exactly, the
bag's and the deck's order sampled afresh."""

from __future__ import annotations

from typing import Any

from engine import Game
from tests.engine.forward_contract import check_contract


def hidden(world: Game, seat: int) -> dict[str, Any]:
    return {"bag": list(world.bag), "deck": list(world.deck)}  # type: ignore[attr-defined]


def test_the_duel_is_determinized_to_the_contract() -> None:
    assert check_contract("duel", 2, hidden) >= 30
