"""The forward model (``engine.forward.determinize``): from one seat's messages, a game.

* Over 1,000 determinizations from games of every mode, each rebuilt game shows the seat
  exactly the observation it was sent (JSON for JSON) and offers the same legal actions.
* The twin test: two games that differ only in another seat's hidden choice send the seat the
  same observation, and give the same determinization for the same rng seed (so the same
  distribution): nothing hidden leaks through.
* A game played on from a determinization is legal to its end (every action checked).
* Bad input raises ``DeterminizeError`` naming the problem.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from engine import Action, DeterminizeError, Game, new_game
from engine.bots import make_bot
from engine.forward import determinize
from engine.rng import Rng

CASES = [("standard", 2), ("standard", 3), ("standard", 4), ("family", 2), ("family", 4),
         ("solo", 1), ("duel", 2)]
PER_CASE = 160  # determinizations per case (7 cases: over 1,000 in all)


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def start_message(game: Game, seat: int) -> dict[str, Any]:
    """The fields of ``start`` that determinize reads (workers.protocol.wire.start_message)."""
    return {"type": "start", "mode": game.mode, "seat": seat, "seats": game.seats,
            "options": dict(game.options)}


def decisions(mode: str, seats: int, seed: int) -> Iterator[tuple[Game, int]]:
    """Every (game, seat asked) of one game between greedy and random bots."""
    options = {"difficulty": "easy"} if mode == "solo" else {}
    game = new_game(mode, seats, seed, options)
    bots = [make_bot("greedy" if s % 2 == 0 else "random", mode, s, seed) for s in range(seats)]
    while not game.is_over():
        for seat in game.asked_together():
            yield game, seat
        seat = game.pending()[0]
        game.apply_unchecked(seat, bots[seat].act(game, seat))


def _play_out(game: Game, rng: Rng) -> None:
    """Random play to the end through the checked ``apply``: any illegal step raises."""
    steps = 0
    while not game.is_over():
        seat = game.pending()[0]
        legal = game.legal_actions(seat)
        assert legal, f"seat {seat} is pending with no legal action"
        game.apply(seat, legal[rng.randbelow(len(legal))])
        steps += 1
        assert steps < 20_000
    assert game.result()["scores"]


@pytest.mark.parametrize(("mode", "seats"), CASES)
def test_determinizations_reproduce_the_observation(mode: str, seats: int) -> None:
    checked = played = 0
    seed = 0
    while checked < PER_CASE:
        for game, seat in decisions(mode, seats, seed):
            if checked >= PER_CASE:
                break
            observation = _json(game.observation(seat))
            decide = {"type": "decide", "step": game.seat_step(seat), "observation": observation}
            world = determinize(start_message(game, seat), decide, Rng(checked, "test"))
            assert _json(world.observation(seat)) == observation, (mode, seed, checked)
            assert list(world.legal_actions(seat)) == list(game.legal_actions(seat))
            assert world.mode == mode and world.seats == seats
            if checked % 8 == 0:  # played on to the end, every action checked
                _play_out(world.clone(), Rng(checked, "play"))
                played += 1
            checked += 1
        seed += 1
    assert played >= PER_CASE // 8


def test_the_hidden_parts_differ_between_samples() -> None:
    """Determinizations of one observation sample the hidden parts: other seats' cards and
    the deck's order vary with the rng seed, the public table does not."""
    game, seat = next((g, s) for g, s in decisions("standard", 3, 4)
                      if g.state.day == 2 and g.frames[-1].name == "buy")  # type: ignore[attr-defined]
    obs = _json(game.observation(seat))
    start = start_message(game, seat)
    worlds = [determinize(start, obs, Rng(i, "t")) for i in range(6)]
    other = (seat + 1) % 3
    hands = {tuple(sorted(w.state.players[other].hand + w.state.players[other].kept))  # type: ignore[attr-defined]
             for w in worlds}
    decks = {tuple(w.state.deck) for w in worlds}  # type: ignore[attr-defined]
    assert len(hands) > 1 and len(decks) > 1
    assert all(_json(w.observation(seat)) == obs for w in worlds)


def _twins(mode: str, seats: int, seed: int, frame: str, chooser: int,
           observer: int = 0) -> tuple[Game, Game]:
    """Two copies of a game at the first ``frame`` step where ``chooser`` has a hidden choice
    to make while ``observer`` is still to choose, each with a different one of the chooser's
    legal actions applied."""
    game = new_game(mode, seats, seed)
    rng = Rng(seed, "twins")
    while not game.is_over():
        top = game.frames[-1]  # type: ignore[attr-defined]
        if top.name == frame and chooser in top.waiting and observer in top.waiting:
            legal = game.legal_actions(chooser)
            if len(legal) >= 2:
                a, b = game.clone(), game.clone()
                a.apply(chooser, legal[0])
                b.apply(chooser, legal[-1])
                if all(t.frames[-1].name == frame  # type: ignore[attr-defined]
                       and observer in t.pending() for t in (a, b)):
                    return a, b
        seat = game.pending()[0]
        legal = game.legal_actions(seat)
        game.apply_unchecked(seat, legal[rng.randbelow(len(legal))])
    raise AssertionError(f"no {frame} step with a choice for seat {chooser}")


@pytest.mark.parametrize(("mode", "seats", "frame"), [
    ("standard", 3, "draft"), ("standard", 4, "buy"), ("standard", 2, "choose_rescue"),
    ("family", 3, "keep_lessons"),
])
def test_twins_give_the_same_determinizations(mode: str, seats: int, frame: str) -> None:
    """Another seat's hidden choice changes neither what the observer is sent nor the games
    determinize builds from it."""
    observer, chooser = 0, 1
    a, b = _twins(mode, seats, 7, frame, chooser)
    assert a.state_hash() != b.state_hash()  # the twins really differ
    assert observer in a.pending() and observer in b.pending()
    obs_a, obs_b = _json(a.observation(observer)), _json(b.observation(observer))
    assert obs_a == obs_b
    start = start_message(a, observer)
    for i in range(5):
        da = determinize(start, obs_a, Rng(i, "twin"))
        db = determinize(start, obs_b, Rng(i, "twin"))
        assert da.state_hash() == db.state_hash()


def test_twins_after_a_hidden_step() -> None:
    """Family twins that kept different lessons, then played the same public moves: the
    observer's later observations and determinizations still agree."""
    a, b = _twins("family", 3, 11, "keep_lessons", 1)
    moves = Rng(3, "moves")
    checked = 0
    while not a.is_over() and checked < 40:
        seat = a.pending()[0]
        assert b.pending()[0] == seat
        if seat == 0 and a.frames[-1].name != "keep_lessons":  # type: ignore[attr-defined]
            obs = _json(a.observation(0))
            assert obs == _json(b.observation(0))
            start = start_message(a, 0)
            assert (determinize(start, obs, Rng(checked, "t")).state_hash()
                    == determinize(start, obs, Rng(checked, "t")).state_hash())
            checked += 1
        legal = a.legal_actions(seat)
        assert list(legal) == list(b.legal_actions(seat))
        action = legal[moves.randbelow(len(legal))]
        a.apply(seat, action)
        b.apply(seat, action)
    assert checked >= 10


def _a_decision(mode: str, seats: int) -> tuple[dict[str, Any], dict[str, Any]]:
    game = new_game(mode, seats, 3)
    seat = game.pending()[0]
    return start_message(game, seat), {"type": "decide", "observation": _json(
        game.observation(seat))}


@pytest.mark.parametrize(("start_mode", "obs_mode"), [("duel", "standard"),
                                                      ("standard", "duel")])
def test_a_message_of_another_mode_is_refused(start_mode: str, obs_mode: str) -> None:
    start, _ = _a_decision(start_mode, 2)
    _, decide = _a_decision(obs_mode, 2)
    with pytest.raises(DeterminizeError, match=f"mode '{obs_mode}'.*mode '{start_mode}'"):
        determinize(start, decide, 1)


@pytest.mark.parametrize(("mode", "seats"), [("standard", 2), ("duel", 2)])
def test_malformed_messages_are_refused(mode: str, seats: int) -> None:
    start, decide = _a_decision(mode, seats)
    with pytest.raises(DeterminizeError, match="delta"):
        determinize(start, {"type": "decide", "observation_delta": {}}, 1)
    with pytest.raises(DeterminizeError, match="JSON object"):
        determinize(start, ["not", "a", "message"], 1)  # type: ignore[arg-type]
    with pytest.raises(DeterminizeError, match="start message"):
        determinize(decide, decide, 1)
    with pytest.raises(DeterminizeError, match="seat"):
        determinize({**start, "seat": 9}, decide, 1)
    broken = json.loads(json.dumps(decide))
    del broken["observation"]["players"]
    with pytest.raises(DeterminizeError, match=f"malformed {mode} observation.*players"):
        determinize(start, broken, 1)
    with pytest.raises(DeterminizeError, match="rng"):
        determinize(start, decide, "seed")  # type: ignore[arg-type]


def test_a_determinization_is_a_game_with_the_decision_api() -> None:
    start, decide = _a_decision("standard", 4)
    world = determinize(start, decide, 5)
    twin = world.clone()
    seat = world.pending()[0]
    action: Action = world.legal_actions(seat)[0]
    world.apply(seat, action)
    assert twin.state_hash() != world.state_hash()  # the clone is independent
    assert not world.is_over() and world.scores()  # type: ignore[attr-defined]
