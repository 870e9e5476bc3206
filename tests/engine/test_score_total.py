"""``scoring.score_total``, the greedy bot's fast path, gives the sheet's total."""

from __future__ import annotations

import pytest

from engine import new_game
from engine.rng import Rng
from engine.scoring import score_table, score_total


@pytest.mark.parametrize(("mode", "seats", "options"),
                         [("standard", 4, {}), ("family", 3, {}),
                          ("solo", 1, {"difficulty": "expert"})])
def test_score_total_is_the_total_of_the_sheet(mode: str, seats: int, options: dict) -> None:
    from engine.modes.standard.result import table_facts

    for seed in range(4):
        game = new_game(mode, seats, seed, options)
        rng = Rng(seed, "test:score_total")
        step = 0
        while not game.is_over():
            if step % 25 == 0:
                facts = table_facts(game)
                sheets = score_table(facts)
                assert [score_total(facts, i) for i in range(seats)] == \
                    [s["total"] for s in sheets]
            seat = game.pending()[0]
            legal = game.legal_actions(seat)
            game.apply_unchecked(seat, legal[rng.randbelow(len(legal))])
            step += 1
