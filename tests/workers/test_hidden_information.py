"""What the runner sends a bot holds nothing the seat may not know, byte for byte.

The messages are captured where the runner builds them (``ProgramAgent.act`` with a stand-in
for the bot process), so ``step``, ``pending``, the observation and the legal actions are all
covered. Two kinds of checks:

* for every mode, at many decision points of random games, a twin of the game in which
  everything the deciding seat may not know is scrambled (other seats' hidden cards, the bag
  and deck order, the solo sister's face-down cards) must produce the same ``decide`` bytes;
  the twin first redoes the automatic step that chose who is asked, since that choice may
  depend on the scrambled cards;
* two side channels, each checked on its own: a ``step`` that would count other seats'
  answers in anytime rounds (only seats holding a playable card are asked), and a ``pending``
  that would name who holds rescue cards or can afford a kept card (tests/engine/standard/
  test_observation.py covers the observation itself).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from competition.limits import Limits
from engine import Action, Game, new_game
from engine.modes.standard import StandardGame, Step
from engine.rng import Rng
from tests.engine.standard.helpers import (
    empty_hands,
    give,
    jump,
    run_until,
    to_pile,
    twin_with_other_secrets,
)
from workers.agents import ProgramAgent
from workers.protocol.wire import LegalEncoder


class CapturedProcess:
    """Stands in for a bot process: records each line sent and answers index 0."""

    def __init__(self) -> None:
        self.lines: list[bytes] = []
        self.last_cpu = self.last_wait = 0.0

    def begin(self, payload: bytes, timeout: float, *, cpu_limit: float | None = None) -> None:
        self.lines.append(payload)

    def finish(self, alongside: object = ()) -> tuple[bytes, float]:
        return b'{"index": 0}\n', 0.0

    def drain_stderr(self) -> None:
        pass

    def kill(self) -> None:  # pragma: no cover - only on a fault
        pass


def sent(game: Game, seat: int) -> bytes:
    """The ``decide`` line the runner's agent sends ``seat`` now."""
    agent = ProgramAgent(seat, b"", limits=Limits())
    agent._started = True
    agent._encoder = LegalEncoder(game.codec)
    process = CapturedProcess()
    agent.process = process  # type: ignore[assignment]
    agent.act(game, seat)
    assert agent.fault is None and len(process.lines) == 1
    return process.lines[0]


# --- scrambling what a seat may not know, per mode ---------------------------------------------


def _solo_twin(game: Any, seat: int, rng: Rng) -> Any:
    twin = copy.deepcopy(game)
    sister = twin.sister
    hidden_today = sister.today[1:] if not sister.played_today else sister.today
    for i in range(len(hidden_today)):  # her face-down cards swap with her deck
        if sister.deck:
            j = rng.randbelow(len(sister.deck))
            k = i + len(sister.today) - len(hidden_today)
            sister.today[k], sister.deck[j] = sister.deck[j], sister.today[k]
    for pile in (sister.deck, sister.colour_deck, twin.state.bag, twin.state.deck):
        rng.shuffle(pile)
    twin.state_changed()
    return twin


def _duel_twin(game: Any, seat: int, rng: Rng) -> Any:
    twin = game.clone()
    rng.shuffle(twin.bag)
    rng.shuffle(twin.deck)
    return twin


def twin_of(game: Game, seat: int, rng: Rng) -> Game:
    if game.mode == "duel":
        return _duel_twin(game, seat, rng)
    if game.mode == "solo":
        twin = _solo_twin(game, seat, rng)
    else:
        assert isinstance(game, StandardGame)
        twin = twin_with_other_secrets(game, seat, rng)
    # Redo the automatic step that chose who is asked: with other cards, other seats may
    # be asked (or not); ``seat`` is still asked, its own cards are unchanged.
    top = twin.frames[-1]
    top.progress(twin)
    assert twin.frames[-1] is top and seat in twin.pending()
    return twin


CASES = [("standard", 2), ("standard", 4), ("family", 3), ("solo", 1), ("duel", 2)]


@pytest.mark.parametrize(("mode", "seats"), CASES)
def test_scrambling_what_a_seat_may_not_know_keeps_its_messages_byte_identical(
        mode: str, seats: int) -> None:
    checked = asked_alone = 0
    for seed in (31, 32):
        game = new_game(mode, seats, seed, {"difficulty": "expert"} if mode == "solo" else {})
        rng = Rng(seed, "hidden-information-test")
        step = 0
        while not game.is_over():
            pending = game.pending()
            if step % 4 == 0 or (isinstance(game, StandardGame)
                                 and not game.frames[-1].public_waiting):
                for seat in pending:
                    message = sent(game, seat)
                    for _ in range(2):
                        assert sent(twin_of(game, seat, rng), seat) == message, (
                            f"{mode} seed {seed} step {step} seat {seat}")
                        checked += 1
                    asked_alone += len(pending) < seats
            seat = pending[0]
            legal = game.legal_actions(seat)
            game.apply_unchecked(seat, legal[rng.randbelow(len(legal))])
            step += 1
    assert checked > 100
    if seats > 1:
        assert asked_alone > 0


def test_the_twin_really_differs_where_the_seat_may_not_look() -> None:
    """So that the test above can fail: the twin's hidden cards and who the engine asks
    differ, while the seat's message does not."""
    game = new_game("standard", 3, 22)
    assert isinstance(game, StandardGame)
    empty_hands(game)
    give(game, 0, 7)
    give(game, 1, 9)
    jump(game, Step.CHOOSE)
    assert game.pending() == (0, 1)
    rng = Rng(5, "x")
    for _ in range(20):
        twin = twin_of(game, 0, rng)
        if twin.pending() != game.pending():
            break
    assert twin.state.players[1].hand != game.state.players[1].hand
    assert twin.pending() == (0,)
    assert sent(twin, 0) == sent(game, 0)


# --- the step number --------------------------------------------------------------------------


def _before_buy(anytime_card_of_seat_1: int) -> StandardGame:
    """3 seats, just before the anytime round before buying. Seat 1 holds one card: a
    gain-fish anytime card (90, always playable) or a lesson (113); seat 0 has a kept card
    it can afford, so it is asked in the buy step that follows."""
    game = new_game("standard", 3, 23)
    assert isinstance(game, StandardGame)
    run_until(game, Step.BUY)
    empty_hands(game)
    for p in game.state.players:
        game.state.discard.extend(p.kept)
        p.kept.clear()
    to_pile(game, 0, "kept", 114)
    give(game, 1, anytime_card_of_seat_1)
    jump(game, Step.BEFORE_BUY)
    return game


def test_the_step_does_not_count_other_seats_answers_in_anytime_rounds() -> None:
    """Seat 1 is asked in the anytime round only when it holds a playable card; it answers
    ``done``. Seat 0's next message (in the buy step) must not tell the difference."""
    holds, not_holds = _before_buy(90), _before_buy(113)
    assert holds.pending() == (1,) and holds.frames[-1].name == "anytime"
    holds.apply(1, Action("done"))
    for game in (holds, not_holds):
        assert game.step is Step.BUY and 0 in game.pending()
    assert len(holds.history) == len(not_holds.history) + 1
    assert sent(holds, 0) == sent(not_holds, 0)


def test_the_step_counts_the_seats_own_decisions() -> None:
    game = new_game("standard", 2, 24)
    seen: dict[int, list[int]] = {0: [], 1: []}
    for _ in range(40):
        seat = game.pending()[0]
        seen[seat].append(json.loads(sent(game, seat))["step"])
        game.apply_unchecked(seat, game.legal_actions(seat)[0])
    for steps in seen.values():
        assert steps == list(range(len(steps)))
