"""The family variant's determinization (engine/modes/family/determinize.py) holds to the
forward model's contract (tests/engine/forward_contract.py): the seat's observation exactly,
the bag's and the lesson deck's order and the other seats' lessons sampled afresh."""

from __future__ import annotations

from typing import Any

from engine import Game
from tests.engine.forward_contract import check_contract


def hidden(world: Game, seat: int) -> dict[str, Any]:
    state = world.state  # type: ignore[attr-defined]
    others = [p for p in state.players if p.seat != seat]
    return {
        "bag": list(state.bag),
        "deck": list(state.deck),
        "other seats' lessons": [(sorted(p.hand), sorted(p.private_lessons)) for p in others],
    }


def test_the_family_variant_is_determinized_to_the_contract() -> None:
    assert check_contract("family", 3, hidden) >= 30
