"""The standard game's determinization (engine/modes/standard/determinize.py) holds to the
forward model's contract (tests/engine/forward_contract.py): the seat's observation exactly,
the bag's and the deck's order and the other seats' cards sampled afresh."""

from __future__ import annotations

import pytest

from tests.engine.forward_contract import check_contract
from tests.engine.standard.helpers import hidden_parts


@pytest.mark.parametrize("seats", [2, 4])
def test_the_standard_game_is_determinized_to_the_contract(seats: int) -> None:
    assert check_contract("standard", seats, hidden_parts) >= 30  # type: ignore[arg-type]
