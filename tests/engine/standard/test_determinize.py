"""The standard game's determinization (engine/modes/standard/determinize.py) holds to the
forward model's contract (tests/engine/forward_contract.py): the seat's observation exactly,
the bag's and the deck's order and the other seats' cards sampled afresh."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game
from tests.engine.forward_contract import check_contract


def hidden(world: Game, seat: int) -> dict[str, Any]:
    state = world.state  # type: ignore[attr-defined]
    others = [p for p in state.players if p.seat != seat]
    return {
        "bag": list(state.bag),
        "deck": list(state.deck),
        "other seats' cards": [(sorted(p.hand), sorted(p.private_lessons), sorted(p.kept),
                                sorted(p.draft_pile)) for p in others],
    }


@pytest.mark.parametrize("seats", [2, 4])
def test_the_standard_game_is_determinized_to_the_contract(seats: int) -> None:
    assert check_contract("standard", seats, hidden) >= 30
