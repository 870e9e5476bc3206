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

import itertools
from collections import Counter

import engine.modes.standard.game as game_module
import engine.modes.standard.playout as playout_module
from engine import new_game
from engine.boat import Tile, iter_bits
from engine.modes.standard.game import StandardGame, Step
from engine.modes.standard.phases.rescue import RescueTurnFrame
from engine.modes.standard.phases.turns import others_may_play
from engine.modes.standard.placement import shape_of
from engine.modes.standard.playout import plays_rescue_turns, rescue_turns
from engine.modes.standard.state import CAT
from engine.rng import Rng
from engine.shapes import legal_placements
from tests.engine.standard.helpers import empty_hands, game, give, jump, set_fields, to_pile


def _loop(game, rng):
    while not game.is_over():
        seat = game.pending()[0]
        legal = game.legal_actions(seat)
        game.apply_unchecked(seat, legal[rng.randbelow(len(legal))])


def _rescue_events(game, since: int, in_rescue: bool = False) -> Counter:
    """What happened in the rescue phases after event ``since`` (``in_rescue``: that event
    is in one): the hand-back cases."""
    seen: Counter = Counter()
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


# --- the rule's cases, built one by one ----------------------------------------------------------

_FULL_BASKET, _HALF_BASKETS = (43,), (15, 16)  # revealed rescue cards
_FISH_CARDS = (90, 91)  # anytime, gain fish per colour: playable in any window


def _map_boat(g, seat: int, tile: int) -> None:
    """The seat's boat covered with one-cell treasures but for one placement of ``tile``
    over the map of its colour: its only placement, which earns the map reward."""
    boat = g.state.players[seat].boat
    info = g.state.tiles[tile]
    the_map = boat.layout.maps[info.colour]
    mask = next(m for m in legal_placements(shape_of(info.shape), boat.layout, 0)
                if m & the_map)
    for i, cell in enumerate(iter_bits(boat.layout.cells_mask & ~mask)):
        boat.place(Tile("common_treasure", None, "monomino_1", 1 << cell, -1 - i))


def _scenario(seats: int, basket: str, fish: int, extra: int, holds_card: bool,
              others: str, fields: str) -> StandardGame:
    """The last day's rescue phase, as the first seat in turn order starts it: its basket
    (a permanent one, a revealed full-basket card, two half-basket cards, none), its fish,
    whether a card 80-82 lets it rescue one more cat and whether it holds an anytime card it
    may play; the other seats passing at once (no fish, no basket) or rescuing, one of them
    holding an anytime card it may play; the fields with many cats, with one, or with one
    whose only placement covers the map of its colour."""
    g = game(seats, 7 * seats + fish + extra)
    g.state.day = g.rules.days
    empty_hands(g)
    first, *rest = g.state.turn_order
    for p in g.state.players:
        p.baskets = p.baskets_used = p.extra_cats = 0
        p.fish = 0 if others == "passing" else 10
    for s in rest:
        if others != "passing":
            g.state.players[s].baskets = 1
    if others == "holding a card":
        give(g, rest[0], _FISH_CARDS[1])
    p = g.state.players[first]
    p.fish, p.extra_cats = fish, extra
    if basket == "permanent":
        p.baskets = 1 + extra
    elif basket == "full":
        to_pile(g, first, "revealed_rescue", *_FULL_BASKET)
    elif basket == "half":
        to_pile(g, first, "revealed_rescue", *_HALF_BASKETS)
    if holds_card:
        give(g, first, _FISH_CARDS[0])
    cats = [t.id for t in g.state.tiles if t.kind == CAT and t.id in g.state.bag]
    if fields == "many":
        set_fields(g, left=cats[:4], right=cats[4:8])
    else:
        set_fields(g, left=cats[:1])
        if fields == "one on the map":
            _map_boat(g, first, cats[0])
    g.state_changed()
    jump(g, Step.RESCUE)
    return g


def _scenarios():
    for basket, fish, extra, holds_card in itertools.product(
            ("permanent", "full", "half", "none"), (0, 3, 20), (0, 1), (False, True)):
        yield 4, basket, fish, extra, holds_card, "passing", "many"
        yield 2, basket, fish, extra, holds_card, "rescuing", "many"
    for others, fields in itertools.product(("passing", "rescuing", "holding a card"),
                                            ("one", "one on the map", "many")):
        for seats in (2, 4):
            yield seats, "permanent", 20, 0, False, others, fields


def test_each_way_of_the_rescue_loop_plays_the_frames_game(monkeypatch):
    """Every basket, fish, extra-cat and anytime-card case of the seat that starts the phase,
    the other seats passing, rescuing or holding an anytime card, the fields with many cats,
    one, or one whose placement earns the map reward: from each, playouts and the frames'
    loop make the same game, and the loop took each of its ways (each hand-back to the
    frames, and its own next turn, an anytime round asked of another seat included)."""
    asked_round = []

    def spy(game, order, seat):
        found = others_may_play(game, order, seat)
        asked_round.append(found)
        return found

    entered = []

    def loop_spy(game, turn, randbelow):
        entered.append(turn.seat)
        return rescue_turns(game, turn, randbelow)

    monkeypatch.setattr(playout_module, "others_may_play", spy)
    monkeypatch.setattr(game_module, "rescue_turns", loop_spy)
    seen: Counter = Counter()
    for case in _scenarios():
        root = _scenario(*case)
        for seed in range(2):
            fast, slow = root.clone(), root.clone()
            fast_rng, slow_rng = Rng(seed, "test:rescue-cases"), Rng(seed, "test:rescue-cases")
            fast.playout(fast_rng)
            _loop(slow, slow_rng)
            assert fast.history == slow.history, case
            assert fast.seat_steps == slow.seat_steps, case
            assert fast.events == slow.events, case
            assert fast.state_hash() == slow.state_hash(), case
            assert fast_rng.getstate() == slow_rng.getstate(), case
            seen += _rescue_events(fast, len(root.events), in_rescue=True)
    assert len(entered) > 2 * 114  # the loop took over, more than once a playout on average
    assert True in asked_round and False in asked_round  # a round asked, and none
    for way in ("phase_over", "second_cat", "passed", "map_reward", "card_played", "auto"):
        assert seen[way] > 0, (way, seen)
