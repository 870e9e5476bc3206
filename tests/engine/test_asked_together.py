"""``Game.asked_together``: a seat asked early sees what it would see at its own turn.

The runner sends a seat of a simultaneous step its question as soon as the step begins and
takes the answer when the seat's turn comes (workers/runner.py). That is only the same game
as asking the seats one after another if, between the moment a seat is first asked and its
turn, the other seats' answers change nothing the seat is sent: its observation (the
protocol's, text for text), its legal actions and its ``step``. These tests play seeded
random games of every mode the way the runner does and compare, at each seat's turn, what it
was sent early with what it would be sent now; one test shows that the comparison catches a
frame that is not independent.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, new_game
from engine.bots.random_bot import RandomBot
from engine.jsontext import text_of
from engine.modes.family.frames import KeepLessonsFrame

CASES = [("standard", 2), ("standard", 3), ("standard", 4), ("family", 2), ("family", 4),
         ("solo", 1), ("duel", 2)]
SEEDS = range(12)


def _question(game: Game, seat: int) -> tuple[Any, ...]:
    """Everything a seat's ``decide`` holds that the game decides."""
    view = game.protocol_observation(seat)
    text = {k: text_of(v) for k, v in view.items()}
    return text, list(game.legal_actions(seat)), game.seat_step(seat)


def _early_questions_differ(mode: str, seats: int, seed: int) -> tuple[int, list[str]]:
    """Play a random game asking each group of ``asked_together`` seats at once; return how
    many questions were asked early and a description of each that changed before its turn."""
    game = new_game(mode, seats, seed)
    bots = [RandomBot(s, seed) for s in range(seats)]
    asked: dict[int, tuple[Any, ...]] = {}
    early, differ = 0, []
    while not game.is_over():
        together = game.asked_together()
        pending = game.pending()
        assert together and together[0] == pending[0]
        assert set(together) <= set(pending)
        for seat in together:
            if seat not in asked:
                asked[seat] = _question(game, seat)
                early += seat != together[0]
        seat = together[0]
        if asked.pop(seat) != _question(game, seat):
            differ.append(f"seat {seat} at step {len(game.history)} ({game.frames[-1].name})")
        game.apply_unchecked(seat, bots[seat].act(game, seat))
    return early, differ


@pytest.mark.parametrize(("mode", "seats"), CASES)
def test_a_seat_asked_early_is_sent_what_its_turn_would_send(mode: str, seats: int) -> None:
    early = 0
    for seed in SEEDS:
        asked, differ = _early_questions_differ(mode, seats, seed)
        assert differ == [], f"{mode} {seats} seed {seed}: {differ[:3]}"
        early += asked
    if mode == "standard":  # the draft, buying and rescue cards are asked together
        assert early > 10 * len(SEEDS)
    if seats == 1 or mode == "duel":
        assert early == 0


def test_the_check_catches_a_step_whose_answers_show(monkeypatch: pytest.MonkeyPatch) -> None:
    """The family lessons step tells each seat who has chosen already: marked simultaneous,
    an early question would go stale, and the comparison above sees it."""
    monkeypatch.setattr(KeepLessonsFrame, "simultaneous", True)
    differ = [d for seed in SEEDS for d in _early_questions_differ("family", 3, seed)[1]]
    assert differ and all("keep_lessons" in d for d in differ)


def test_pending_names_only_the_observer_in_a_draft() -> None:
    """Who has picked already is not shown while the draft waits (the pick is secret)."""
    game = new_game("standard", 3, 1)
    while game.frames[-1].name != "draft":
        seat = game.pending()[0]
        game.apply_unchecked(seat, game.legal_actions(seat)[0])
    first, *others = game.pending()
    assert others
    game.apply_unchecked(first, game.legal_actions(first)[0])
    for seat in others:
        assert game.observation(seat)["pending"] == [seat]
