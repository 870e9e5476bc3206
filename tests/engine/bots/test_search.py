"""The built-in search bot (engine/bots/search.py): legal in every mode, greedy's choice unless
a challenger clearly beats it, and names that parse."""

from __future__ import annotations

import pytest

from engine import new_game
from engine.bots import make_bot
from engine.bots.search import Duel, SearchBot, parse_budget


@pytest.mark.parametrize(("mode", "seats"), [("duel", 2), ("standard", 3), ("family", 2),
                                             ("solo", 1)])
def test_search_plays_every_mode_legally(mode: str, seats: int) -> None:
    game = new_game(mode, seats, 4, {"difficulty": "easy"} if mode == "solo" else {})
    bots = [SearchBot(0, 4, budget=0.01), *(make_bot("greedy", mode, s, 4)
                                            for s in range(1, seats))]
    searched = 0
    while not game.is_over():
        seat = game.pending()[0]
        action = bots[seat].act(game, seat)
        assert action in game.legal_actions(seat)
        if seat == 0 and (bots[0].last_note or "").startswith("search:"):
            searched += 1
        game.apply(seat, action)
    assert searched > 0 and game.result()["scores"]


def test_a_challenger_needs_a_clear_win() -> None:
    noisy = Duel(3)
    for values in ({0: 0.0, 1: 1.0, 2: 0.1}, {0: 1.0, 1: 0.0, 2: 1.1},
                   {0: 0.0, 1: 1.0, 2: 0.1}, {0: 1.0, 1: 0.0, 2: 1.1}):
        noisy.add(values)
    assert noisy.verdict()[0] == 2  # +0.1 every round beats greedy; +/-1 noise does not
    worse = Duel(2)
    for _ in range(4):
        worse.add({0: 1.0, 1: 0.0})
    assert worse.active == [] and worse.verdict()[0] == 0  # dropped early


def test_budget_names() -> None:
    assert parse_budget("search") == 0.25 and parse_budget("search-1s") == 1.0
    assert parse_budget("search-0.05s") == 0.05
    assert parse_budget("search-0s") is None and parse_budget("search-99s") is None
    assert parse_budget("greedy") is None
