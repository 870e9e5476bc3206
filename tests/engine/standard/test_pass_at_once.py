"""``TurnsFrame.pass_at_once``: a rare-finds turn with nothing to decide is played by the phase
frame itself, not by a ``RareFindsTurnFrame`` pushed and popped (the random playouts' speed,
docs/performance.md, "Where a playout's time goes"). It must be invisible: seeded random
games of every mode that plays rare finds give the same history, events and state at every
step with the shortcut as with the turn frame doing it (family has no rare finds).
"""

from __future__ import annotations

import pytest

from engine import new_game
from engine.modes.standard.phases.rare_finds import RareFindsPhaseFrame, RareFindsTurnFrame
from engine.modes.standard.phases.turns import TurnsFrame
from engine.rng import Rng

# the modes with a rare-finds phase (family has none)
GAMES = [("standard", 4, {}), ("standard", 3, {}), ("standard", 2, {}),
         ("solo", 1, {"difficulty": "expert"})]


def _play(mode: str, seats: int, options: dict, seed: int):
    game = new_game(mode, seats, seed, options)
    rng = Rng(seed, "test:pass-at-once")
    hashes = []
    while not game.is_over():
        seat = game.pending()[0]
        legal = game.legal_actions(seat)
        game.apply_unchecked(seat, legal[rng.randbelow(len(legal))])
        hashes.append(game.state_hash())
    return game, hashes


@pytest.mark.parametrize(("mode", "seats", "options"), GAMES,
                         ids=[f"{m}-{s}" for m, s, _ in GAMES])
def test_a_turn_passed_at_once_is_the_turn_frames_pass(monkeypatch, mode, seats, options):
    fast = [_play(mode, seats, options, seed) for seed in range(3)]
    passed_at_once = sum(
        1 for game, _ in fast for e in game.events
        if e["type"] == "auto" and e.get("action") == "pass")
    monkeypatch.setattr(RareFindsPhaseFrame, "pass_at_once", TurnsFrame.pass_at_once)
    slow = [_play(mode, seats, options, seed) for seed in range(3)]
    for (a, a_hashes), (b, b_hashes) in zip(fast, slow, strict=True):
        assert a.history == b.history
        assert a.events == b.events
        assert a_hashes == b_hashes
        assert a.result() == b.result()
    assert passed_at_once  # the games had such turns


def test_a_seat_with_something_to_decide_still_gets_its_turn_frame():
    asked = 0
    for seed in range(6):
        game = new_game("standard", 4, seed, {})
        rng = Rng(seed, "test:pass-at-once")
        while not game.is_over():
            if type(game.frames[-1]) is RareFindsTurnFrame:
                asked += 1
            seat = game.pending()[0]
            legal = game.legal_actions(seat)
            game.apply_unchecked(seat, legal[rng.randbelow(len(legal))])
    assert asked
