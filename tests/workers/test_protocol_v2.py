"""Protocol 2: one observation shape in every mode. `start` announces the versions the server
speaks, a bot chooses 2 in `ready`, and then `seat` (its seat), `you` (its own player) and
`decision.decision` (what is asked) mean the same in every mode; protocol 1's messages stay
as they were for the bots that do not choose. Real observations of every mode validate
against the schema's `observation_v2`, and a bot that relies on the shared keys plays every
mode through the sandbox."""

from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from competition.faults import BotFault
from competition.limits import Limits
from engine import available_modes, new_game
from engine.protocol_v2 import PROTOCOLS, observation_v1, observation_v2
from workers.protocol.schema import protocol_schema
from workers.protocol.wire import LegalEncoder, decide_for, parse_ready_reply, start_message

SEATS = {"standard": 3, "family": 2, "solo": 1, "duel": 2}
OPTIONS = {"solo": {"difficulty": "easy"}}


def _games(mode: str, seeds: int = 2) -> list[tuple[Any, int]]:
    """(game, seat) at every decision of a few random games of ``mode``."""
    out = []
    for seed in range(seeds):
        game = new_game(mode, seats=SEATS[mode], seed=seed, options=OPTIONS.get(mode, {}))
        rng = random.Random(seed)
        while not game.is_over():
            seat = game.pending()[0]
            out.append((game.observation(seat), seat))
            game.apply(seat, rng.choice(list(game.legal_actions(seat))))
    return out


def _validator(schema: dict[str, Any], name: str) -> Draft202012Validator:
    return Draft202012Validator(
        {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": f"#/$defs/{name}"})


@pytest.mark.parametrize("mode", available_modes())
def test_the_shared_keys_mean_the_same_in_every_mode(mode: str) -> None:
    schema = protocol_schema(mode)
    check = _validator(schema, "observation_v2")
    for observation, seat in _games(mode):
        shared = observation_v2(observation)
        assert shared["seat"] == seat
        assert isinstance(shared["you"], dict)
        assert isinstance(shared["decision"]["decision"], str)
        if mode == "duel":
            assert observation["you"] == seat  # protocol 1: the seat number
            assert shared["you"] == observation["players"][seat]
            assert shared["decision"] == {"decision": observation["phase"]}
            assert set(shared) == set(observation) | {"seat", "decision"}
        else:
            assert shared is observation  # already in the shared shape: nothing changes
        check.validate(shared)
        back = observation_v1(shared)  # the forward model's way back to the engine's shape
        assert back == observation and list(back) == list(observation)


def test_the_duels_protocol_1_observation_is_not_protocol_2s() -> None:
    """The schema tells the two shapes apart, so a bot author's validator catches a mix-up."""
    schema = protocol_schema("duel")
    observation, _ = _games("duel", seeds=1)[3]
    assert not _validator(schema, "observation_v2").is_valid(observation)
    assert not _validator(schema, "observation").is_valid(observation_v2(observation))
    assert _validator(schema, "observation").is_valid(observation)


@pytest.mark.parametrize("mode", available_modes())
def test_protocol_1_decides_are_unchanged_and_protocol_2_decides_validate(mode: str) -> None:
    schema = protocol_schema(mode)
    game = new_game(mode, seats=SEATS[mode], seed=5, options=OPTIONS.get(mode, {}))
    seat = game.pending()[0]
    legal = game.legal_actions(seat)
    encoder = LegalEncoder(game.codec)
    one = json.loads(decide_for(game, seat, legal, encoder, 1.0, 30.0))
    assert one == json.loads(decide_for(game, seat, legal, encoder, 1.0, 30.0, protocol=1))
    assert one["observation"] == game.observation(seat)  # protocol 1 as it always was
    two = json.loads(decide_for(game, seat, legal, encoder, 1.0, 30.0, protocol=2))
    assert two["observation"] == observation_v2(game.observation(seat))
    _validator(schema, "decide_v2").validate(two)
    _validator(schema, "decide").validate(one)
    start = start_message(game, seat, Limits())
    assert start["protocol"] == 1 and start["protocols"] == list(PROTOCOLS) == [1, 2]
    _validator(schema, "start").validate(start)


def test_ready_chooses_the_protocol_and_a_bad_choice_is_one_clear_fault() -> None:
    assert parse_ready_reply(b'{"ready": true}').protocol == 1
    assert parse_ready_reply(b'{"ready": true, "protocol": 1}').protocol == 1
    assert parse_ready_reply(b'{"ready": true, "protocol": 2, "deltas": true}').protocol == 2
    schema = protocol_schema("duel")
    _validator(schema, "ready").validate({"ready": True, "protocol": 2})
    assert not _validator(schema, "ready").is_valid({"ready": True, "protocol": 3})
    for bad in (b"3", b'"2"', b"true", b"2.0"):
        with pytest.raises(BotFault) as caught:
            parse_ready_reply(b'{"ready": true, "protocol": ' + bad + b"}")
        assert caught.value.kind == "bad_output"
        assert '"protocol" in the answer to start is one of 1, 2' in str(caught.value)


# A bot that trusts only the shared keys: it exits (a crash fault) as soon as one is missing.
SHARED_KEYS_BOT = textwrap.dedent('''
    import json, sys
    seat = None
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            assert 2 in message["protocols"], message.get("protocols")
            seat = message["seat"]
            print(json.dumps({"ready": True, "protocol": 2, "deltas": DELTAS}), flush=True)
        elif message["type"] == "decide":
            obs = message.get("observation")
            if obs is None:
                obs = {**obs_before, **message["observation_delta"]["set"]}
            obs_before = obs
            assert obs["seat"] == seat, obs.get("seat")
            assert isinstance(obs["you"], dict), obs["you"]
            asked = obs["decision"]["decision"]
            print(json.dumps({"index": 0, "debug": asked}), flush=True)
        elif message["type"] == "end":
            break
''')


@pytest.mark.slow
@pytest.mark.usefixtures("worker_guard")
@pytest.mark.parametrize("mode", available_modes())
@pytest.mark.parametrize("deltas", [False, True])
def test_a_protocol_2_bot_plays_every_mode_in_the_sandbox(
    mode: str, deltas: bool, tmp_path: Path
) -> None:
    from workers.runner import MatchSpec, SeatSpec, run_match

    bot = tmp_path / "shared_keys_bot.py"
    bot.write_text(SHARED_KEYS_BOT.replace("DELTAS", "True" if deltas else "False"))
    names = [str(bot), *["random"] * (SEATS[mode] - 1)]
    spec = MatchSpec(mode=mode, seats=tuple(SeatSpec.parse(n) for n in names), seed=3,
                     options=OPTIONS.get(mode, {}), limits=Limits(end_grace_seconds=0.2),
                     replay=False)  # fmt: skip
    outcome = run_match(spec)
    assert outcome.faults == [], [f.describe() for f in outcome.faults]
    assert outcome.players[0]["protocol"] == 2
    notes = [a.get("note") for a in outcome.actions if a["seat"] == 0]
    assert notes and all(notes)  # the question, read from decision.decision every time
