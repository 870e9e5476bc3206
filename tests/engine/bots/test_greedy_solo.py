"""The standard greedy bot in solo: it prices the sister's colour cards into its choices."""

from __future__ import annotations

from engine import new_game
from engine.bots.greedy_standard import sister_cost


def test_sister_cost_follows_her_revealed_colour_cards() -> None:
    game = new_game("solo", 1, 4, {"difficulty": "hard"})
    sister = game.sister  # type: ignore[attr-defined]
    first = sister.colour_order[0]
    assert sister_cost(game, first) == 5.0
    hidden = [c for c in ("blue", "green", "red", "purple", "orange") if c != first]
    assert all(sister_cost(game, c) == (4 + 3 + 2 + 1) / 4 for c in hidden)
    sister.reveal_colour()
    second = sister.colour_order[1]
    assert sister_cost(game, second) == 4.0
    assert sister_cost(game, None) == 0.0


def test_no_sister_no_cost() -> None:
    assert sister_cost(new_game("standard", 2, 1), "red") == 0.0
