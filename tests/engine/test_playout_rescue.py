"""The standard playout's rescue loop (``engine/modes/standard/playout.py``) against the
frames, where it hands back to them.

``test_playout.py`` compares whole playouts at a few points of a few games. The rescue loop
plays rescue turns itself and hands back to the frames at the rarer events: an anytime card
played in a turn, an anytime round before another seat's turn, a second cat (cards 80-82),
a map reward, the end of the phase. Here many more playouts are compared, from the start of
each day's rescue phase, and the test checks that every one of those events happened in the
compared playouts, so that each way back to the frames was taken and gave the same game.
"""

from __future__ import annotations

from collections import Counter

from engine import new_game
from engine.modes.standard.game import Step
from engine.modes.standard.phases.rescue import RescueTurnFrame
from engine.modes.standard.playout import plays_rescue_turns
from engine.rng import Rng


def _loop(game, rng):
    while not game.is_over():
        seat = game.pending()[0]
        legal = game.legal_actions(seat)
        game.apply_unchecked(seat, legal[rng.randbelow(len(legal))])


def _rescue_events(game, since: int) -> Counter:
    """What happened in the rescue phases after event ``since``: the hand-back cases."""
    seen: Counter = Counter()
    in_rescue = False
    last_rescuer = None
    for event in game.events[since:]:
        kind = event["type"]
        if kind == "rescue_revealed":
            in_rescue, last_rescuer = True, None
        elif kind == "rescue_over":
            in_rescue = False
            seen["phase_over"] += 1
        elif not in_rescue:
            continue
        elif kind == "rescued":
            if last_rescuer == event["seat"]:
                seen["second_cat"] += 1
            last_rescuer = event["seat"]
        elif kind == "passed":
            last_rescuer = None
            seen["passed"] += 1
        elif kind in ("map_reward", "card_played", "auto"):
            seen[kind] += 1
    return seen


def test_rescue_loop_plays_the_same_games_as_the_frames_through_every_hand_back():
    seen: Counter = Counter()
    compared = 0
    for seats in (4, 3, 2):
        for seed in range(12):
            root = new_game("standard", seats, 500 + seed, {})
            walk = Rng(seed, "test:walk")
            while not root.is_over():
                top = root.frames[-1]
                if type(top) is RescueTurnFrame and root.step is Step.RESCUE:
                    assert plays_rescue_turns(root, top)
                    fast, slow = root.clone(), root.clone()
                    fast_rng = Rng(seed * 1000 + compared, "test:rescue")
                    slow_rng = Rng(seed * 1000 + compared, "test:rescue")
                    fast.playout(fast_rng)
                    _loop(slow, slow_rng)
                    assert fast.history == slow.history
                    assert fast.events == slow.events
                    assert fast.state_hash() == slow.state_hash()
                    assert fast_rng.randbelow(1 << 30) == slow_rng.randbelow(1 << 30)
                    seen += _rescue_events(fast, len(root.events))
                    compared += 1
                    # on past this rescue phase
                    while not root.is_over() and root.step is Step.RESCUE:
                        seat = root.pending()[0]
                        legal = root.legal_actions(seat)
                        root.apply_unchecked(seat, legal[walk.randbelow(len(legal))])
                    continue
                seat = root.pending()[0]
                legal = root.legal_actions(seat)
                root.apply_unchecked(seat, legal[walk.randbelow(len(legal))])
    assert compared >= 100
    for case in ("phase_over", "second_cat", "passed", "map_reward", "card_played", "auto"):
        assert seen[case] > 0, (case, seen)


def test_solo_and_family_rescues_stay_with_the_frames():
    """Solo's sister plays after each rescue turn and family rescues with frames of its
    own: the loop must not take over there."""
    for mode, seats, options in (("solo", 1, {"difficulty": "expert"}), ("family", 3, {})):
        game = new_game(mode, seats, 3, options)
        rng = Rng(3, "test:walk")
        asked = 0
        while not game.is_over():
            top = game.frames[-1]
            if isinstance(top, RescueTurnFrame) or type(top).__name__.endswith("TurnFrame"):
                assert not plays_rescue_turns(game, top)
                asked += 1
            seat = game.pending()[0]
            legal = game.legal_actions(seat)
            game.apply_unchecked(seat, legal[rng.randbelow(len(legal))])
        assert asked > 0
