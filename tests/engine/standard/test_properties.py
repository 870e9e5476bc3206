"""Hundreds of seeded games at 2, 3 and 4 players, random and greedy bots, finish without
error, with the invariants checked after every action: no overlap, every tile and every card
in exactly one place, fish never negative, legal actions for every pending seat. Part of the
random actions go through the checked ``apply`` in their JSON form, as a bot's would."""

from __future__ import annotations

import json

import pytest

from engine.bots import make_bot
from engine.rng import Rng

from .helpers import check_invariants, game

RANDOM_GAMES_PER_SEAT_COUNT = 100


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_keep_the_invariants(seats: int) -> None:
    for seed in range(RANDOM_GAMES_PER_SEAT_COUNT):
        g = game(seats, 1000 + seed)
        rng = Rng(seed, "property")
        checked = seed % 4 == 0  # a quarter of the games go through the checked path
        steps = 0
        while not g.is_over():
            pending = g.pending()
            seat = pending[rng.randbelow(len(pending))]
            legal = g.legal_actions(seat)
            action = legal[rng.randbelow(len(legal))]
            if checked:
                g.apply(seat, json.loads(json.dumps(g.encode_action(action))))
            else:
                g.apply_unchecked(seat, action)
            check_invariants(g)
            steps += 1
        assert steps > 20 * seats
        result = g.result()
        assert sorted(result["ranks"])[0] == 1 and len(result["scores"]) == seats


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_greedy_and_random_games_keep_the_invariants(seats: int) -> None:
    for seed in range(4):
        g = game(seats, 2000 + seed)
        names = ["greedy" if (i + seed) % 2 == 0 else "random" for i in range(seats)]
        bots = [make_bot(n, "standard", i, seed) for i, n in enumerate(names)]
        while not g.is_over():
            seat = g.pending()[0]
            g.apply(seat, bots[seat].act(g, seat))
            check_invariants(g)
        assert g.result()["winners"]


@pytest.mark.parametrize(("mode", "seats"), [("standard", 2), ("standard", 4), ("family", 3),
                                             ("solo", 1)])
def test_a_frame_s_precise_reason_never_refuses_a_legal_action(mode: str, seats: int) -> None:
    """``illegal_reason`` accepts what ``legal_actions`` lists without asking the frame (its
    reason only explains a refusal), so the frame must agree: none of its reasons may name
    a legal action illegal."""
    from engine import new_game

    checked = 0
    for seed in range(4):
        g = new_game(mode, seats, 300 + seed)
        rng = Rng(seed, "reasons")
        while not g.is_over():
            pending = g.pending()
            seat = pending[rng.randbelow(len(pending))]
            legal = g.legal_actions(seat)
            sample = [legal[rng.randbelow(len(legal))] for _ in range(4)]
            for action in sample:
                assert g.frames[-1].reason(g, seat, action) is None, (action, g.frames[-1].name)
                assert g.illegal_reason(seat, action) is None
                checked += 1
            g.apply_unchecked(seat, sample[0])
    assert checked > 500
