"""The family variant's determinization (engine/modes/family/determinize.py) holds to the
forward model's contract (tests/engine/forward_contract.py): the seat's observation exactly,
the bag's and the lesson deck's order and the other seats' lessons sampled afresh."""

from __future__ import annotations

from tests.engine.forward_contract import check_contract
from tests.engine.standard.helpers import hidden_parts


def test_the_family_variant_is_determinized_to_the_contract() -> None:
    assert check_contract("family", 3, hidden_parts) >= 30  # type: ignore[arg-type]
