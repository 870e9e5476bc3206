"""``TurnsFrame.pass_at_once``: a rare-finds turn with nothing to decide is played by the phase
frame itself, not by a ``RareFindsTurnFrame`` pushed and popped (the random playouts' speed,
docs/performance.md, "Where a playout's time goes"). It must be invisible: seeded random
games of every mode that plays rare finds give the same history, events and state at every
step with the shortcut as with the turn frame doing it (family has no rare finds).
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine import Action, new_game
from engine.boat import Tile
from engine.cards import base_cards
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


def _closed(game) -> None:
    """Every precondition of every anytime card false and nothing fitting on any boat: no
    fish, no basket, no private lesson, the anywhere effect already held, the deck, the bag
    and the fields empty, every boat covered with one-cell treasures."""
    state = game.state
    state.deck.clear()
    state.bag.clear()
    state.fields.cats.clear()
    for p in state.players:
        p.fish = 0
        p.baskets = p.baskets_used = 0
        p.private_lessons.clear()
        p.anywhere = True
        boat = p.boat
        free = boat.layout.cells_mask & ~boat.occupied
        for i in range(free.bit_length()):
            if free >> i & 1:
                boat.place(Tile("common_treasure", None, "monomino_1", 1 << i))
    game.state_changed()


@pytest.mark.parametrize(("mode", "seats", "options"), GAMES,
                         ids=[f"{m}-{s}" for m, s, _ in GAMES])
def test_every_hand_passed_at_once_is_the_turn_frames_pass(mode, seats, options):
    """The rule's cases, one by one: every card of the game alone in the hand of every seat
    (every Oshax and treasure card, every kind of anytime card, every other card) and the
    empty hand, on an open table (fish, an empty boat, cards and cats to draw) and on a
    closed one (every anytime precondition false, nothing fits). ``pass_at_once`` may
    decline a turn the frame would pass anyway, never the other way round: where it passes,
    the turn frame's legal actions are only ``pass`` and the frame's pass logs the same
    events; where it declines, it changes nothing."""
    seen = Counter()
    for closed in (False, True):
        base = new_game(mode, seats, 5, options)
        if closed:
            _closed(base)
        for seat in range(seats):
            for card_id in (None, *sorted(base_cards())):
                fast, slow = base.clone(), base.clone()
                for game in (fast, slow):
                    p = game.state.players[seat]
                    for c in list(p.hand):
                        p.remove_card(c)
                    if card_id is not None:
                        p.add_card(card_id)
                    game.state_changed()
                start = len(base.events)
                fast_phase = RareFindsPhaseFrame(fast.state.turn_order)
                at_once = fast_phase.pass_at_once(fast, seat)
                slow_phase = RareFindsPhaseFrame(slow.state.turn_order)
                turn = RareFindsTurnFrame(slow_phase, seat)
                legal = list(turn.legal(slow, seat))
                turn.progress(slow)
                case = (closed, seat, card_id)
                if at_once:
                    assert legal == [Action("pass")], case
                    assert turn.done, case
                    assert fast.events[start:] == slow.events[start:], case
                    assert fast_phase.passed == slow_phase.passed == [seat], case
                    seen["passed at once"] += 1
                else:
                    assert fast.events[start:] == [] and fast_phase.passed == [], case
                    seen["frame passes" if turn.done else "frame asks"] += 1
    # each outcome was met: passed at once; declined, the frame asking; declined, a rare
    # card held that the frame finds unusable and passes
    assert set(seen) == {"passed at once", "frame asks", "frame passes"}, seen
