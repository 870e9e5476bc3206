"""API conformance of every mode: random playouts that check the decision API at every node.

One test for all modes (as OpenSpiel does): whatever a mode's rules, these
properties must hold for the CLI, the bot protocol, the workers and the replays
to work with it unchanged.
"""

from __future__ import annotations

import json

import pytest

from engine import Action, IllegalAction, MalformedAction, available_modes, mode_class, new_game
from engine.rng import Rng

RESULT_KEYS = {"mode", "seats", "seed", "scores", "ranks", "winners", "breakdown", "boats",
               "state_hash"}


def _seat_counts(mode: str) -> list[int]:
    gt = mode_class(mode).game_type
    return list(range(gt.min_seats, gt.max_seats + 1))


CASES = [(mode, seats) for mode in available_modes() for seats in _seat_counts(mode)]


def _play_checked(mode: str, seats: int, seed: int) -> None:
    game = new_game(mode, seats, seed)
    rng = Rng(seed, "conformance")
    steps = 0
    while not game.is_over():
        pending = game.pending()
        assert pending, "a running game must have a pending seat"
        assert len(set(pending)) == len(pending)
        for seat in range(seats):
            if seat not in pending:
                assert len(game.legal_actions(seat)) == 0
        seat = pending[rng.randbelow(len(pending))]
        legal = game.legal_actions(seat)
        assert len(legal) > 0, f"seat {seat} is pending with no legal action"
        action = legal[rng.randbelow(len(legal))]
        assert isinstance(action, Action)
        assert action in legal
        encoded = game.encode_action(action)
        wire = json.loads(json.dumps(encoded))
        assert game.decode_action(wire) == action
        assert isinstance(game.action_text(action), str)
        if steps % 7 == 0:
            json.dumps(game.observation(seat))
        if steps % 3 == 0:
            game.apply(seat, wire)  # the JSON path a bot takes
        elif steps % 3 == 1:
            game.apply(seat, list(legal).index(action) if len(legal) < 2000 else action)
        else:
            game.apply_unchecked(seat, action)
        steps += 1
        assert steps < 20_000
    assert game.pending() == ()
    with pytest.raises(IllegalAction):
        game.apply(0, 0)
    result = game.result()
    json.dumps(result)
    assert set(result) >= RESULT_KEYS, RESULT_KEYS - set(result)
    assert result["mode"] == mode and result["seed"] == seed
    assert len(result["scores"]) == len(result["ranks"]) == len(result["boats"])
    if mode != "solo":  # solo winners are decided against the sister
        assert result["winners"] == [i for i, r in enumerate(result["ranks"]) if r == 1]
    for i, score in enumerate(result["scores"]):
        better = sum(1 for s in result["scores"] if s > score)
        assert result["ranks"][i] >= better + 1
    assert result["state_hash"] == game.state_hash()
    json.dumps(game.spectator_view())


@pytest.mark.parametrize(("mode", "seats"), CASES)
def test_random_playouts_respect_the_api(mode: str, seats: int) -> None:
    for seed in (1, 2):
        _play_checked(mode, seats, seed)


@pytest.mark.parametrize(("mode", "seats"), CASES)
def test_same_seed_and_actions_give_same_hash(mode: str, seats: int) -> None:
    def run() -> tuple[str, list]:
        game = new_game(mode, seats, 99)
        rng = Rng(5, "det")
        while not game.is_over():
            seat = game.pending()[0]
            legal = game.legal_actions(seat)
            game.apply_unchecked(seat, legal[rng.randbelow(len(legal))])
        return game.state_hash(), game.result()["scores"]

    assert run() == run()


@pytest.mark.parametrize("mode", available_modes())
def test_bad_input_is_rejected_with_a_reason(mode: str) -> None:
    gt = mode_class(mode).game_type
    game = new_game(mode, gt.min_seats, 3)
    seat = game.pending()[0]
    for bad in ({"kind": "no_such_kind"}, "place", [1, 2], {"cells": []}):
        with pytest.raises(MalformedAction) as err:
            game.apply(seat, bad)
        assert err.value.reason
    with pytest.raises(IllegalAction):
        game.apply(seat, 10**6)
    others = [s for s in range(gt.min_seats) if s not in game.pending()]
    if others:
        with pytest.raises(IllegalAction):
            game.apply(others[0], game.legal_actions(seat)[0])


def test_every_registered_mode_is_available() -> None:
    """A mode in the registry that cannot be imported would silently drop out of every
    parametrised test above; this catches it."""
    from engine import MODES

    assert sorted(available_modes()) == sorted(MODES) == ["duel", "family", "solo", "standard"]
