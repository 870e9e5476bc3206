"""The solo mode's determinization (engine/modes/solo/determinize.py) holds to the forward
model's contract (tests/engine/forward_contract.py): the player's observation exactly, the
bag's and the deck's order and the sister's face-down cards sampled afresh."""

from __future__ import annotations

from typing import Any

from engine import Game
from tests.engine.forward_contract import check_contract


def hidden(world: Game, seat: int) -> dict[str, Any]:
    state = world.state  # type: ignore[attr-defined]
    sister = world.sister  # type: ignore[attr-defined]
    return {
        "bag": list(state.bag),
        "deck": list(state.deck),
        "sister's colour cards": list(sister.colour_deck),
        "sister's basket cards": (list(sister.today), list(sister.deck)),
    }


def test_the_solo_mode_is_determinized_to_the_contract() -> None:
    assert check_contract("solo", 1, hidden, every=4) >= 30
