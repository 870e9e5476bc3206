"""Properties of the replay file that hold for any legal game, found by hypothesis.

A game is driven by a drawn list of choices (each picks one of the legal actions of the seat
to act), in any mode and seat count, and stopped after a drawn number of steps, so replays of
unfinished games, of simultaneous steps and of every mode's rarer decisions are drawn too, not
only the games the built-in bots happen to play.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, new_game
from replayfile.format import decode, document_from_game, encode, expand_action
from replayfile.verify import verify_document

CONFIGS = [("standard", 2), ("standard", 3), ("standard", 4), ("family", 2), ("family", 4),
           ("solo", 1), ("duel", 2)]  # fmt: skip


def played(mode: str, seats: int, seed: int, choices: list[int], length: int
           ) -> tuple[Game, list[dict[str, Any]]]:
    """The game after at most ``length`` steps, each the drawn choice among the legal actions
    of the first seat to act (choices are reused in turn), and its step log."""
    game = new_game(mode, seats, seed)
    steps: list[dict[str, Any]] = []
    for i in range(length):
        if game.is_over():
            break
        seat = game.pending()[0]
        legal = game.legal_actions(seat)
        action = legal[choices[i % len(choices)] % len(legal)]
        steps.append({"seat": seat, "action": game.encode_action(action)})
        game.apply(seat, action)
    return game, steps


games = st.tuples(
    st.sampled_from(CONFIGS),
    st.integers(min_value=0, max_value=2**64 - 1),
    st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=40),
    st.integers(min_value=0, max_value=400),
)


@settings(max_examples=25, deadline=None)
@given(games)
def test_any_legal_sequence_re_simulates_to_the_same_state_hash(drawn) -> None:
    (mode, seats), seed, choices, length = drawn
    game, steps = played(mode, seats, seed, choices, length)
    doc = decode(encode(document_from_game(game, steps)))
    verdict = verify_document(doc)
    assert verdict.ok, verdict.message
    assert doc["state_hash"] == game.state_hash()


@settings(max_examples=25, deadline=None)
@given(games)
def test_a_replay_encodes_and_decodes_to_the_same_steps_and_events(drawn) -> None:
    (mode, seats), seed, choices, length = drawn
    game, steps = played(mode, seats, seed, choices, length)
    doc = document_from_game(game, steps)
    back = decode(encode(doc))
    assert back["steps"] == doc["steps"] and back["header"] == doc["header"]
    # the decoded log, played again, logs the very events the game logged
    again = new_game(mode, seats, seed)
    for step in back["steps"]:
        again.apply(step[0], expand_action(step[1], back["header"]["actions"]))
    assert again.events == game.events

