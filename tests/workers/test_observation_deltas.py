"""Observation deltas: a bot that answers ``{"ready": true, "deltas": true}`` gets
each observation after its first as ``observation_delta``; a real sandboxed bot rebuilds the
full observations from them and they match the engine's. Without the flag nothing changes."""

from __future__ import annotations

import json

import pytest

from competition.faults import BotFault
from competition.limits import Limits
from engine import new_game
from engine.bots.random_bot import RandomBot
from engine.jsontext import JSONText
from workers.agents import ProgramAgent
from workers.protocol.wire import (
    ObservationEncoder,
    _dumps,
    apply_observation_delta,
    parse_ready_reply,
)

from .rebuilt_observations import rebuilt_notes

# Rebuilds each observation and answers with the sha256 of its canonical JSON (as the debug
# note), and with how the observation came: "full" or "delta".
DELTA_BOT = b"""
import hashlib, json, sys
out = sys.stdout
sys.stdin.readline()
out.write(json.dumps({"ready": True, "deltas": DELTAS}) + "\\n")
out.flush()
obs = None
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "decide":
        break
    if "observation" in msg:
        obs, how = msg["observation"], "full"
    else:
        delta, how = msg["observation_delta"], "delta"
        obs = {**obs, **delta["set"]}
        for key in delta["remove"]:
            del obs[key]
    digest = hashlib.sha256(json.dumps(obs, sort_keys=True).encode()).hexdigest()
    out.write(json.dumps({"index": 0, "debug": how + " " + digest}) + "\\n")
    out.flush()
"""


@pytest.mark.parametrize("deltas", [True, False])
def test_a_bot_rebuilds_every_observation_from_deltas(deltas: bool) -> None:
    game = new_game("standard", 2, 5)
    other = RandomBot(1, 5)
    source = DELTA_BOT.replace(b"DELTAS", b"True" if deltas else b"False")
    agent = ProgramAgent(0, source, "delta_bot.py", limits=Limits(end_grace_seconds=0))
    hows = rebuilt_notes(game, agent, [None, other])
    assert len(hows) > 20
    assert hows[0] == "full"
    assert set(hows[1:]) == ({"delta"} if deltas else {"full"})


def test_the_encoder_sends_what_changed_and_the_same_text_in_full() -> None:
    game = new_game("standard", 4, 2)
    bots = [RandomBot(s, 2) for s in range(4)]
    full, delta = ObservationEncoder(), ObservationEncoder(deltas=True)
    rebuilt, sizes = None, []
    while not game.is_over():
        seat = game.pending()[0]
        if seat == 0:
            observation = game.observation(0)
            key, text = full.encode(observation)
            assert key == "observation" and text == _dumps(observation)
            key, text = delta.encode(observation)
            if rebuilt is None:
                assert key == "observation"
                rebuilt = json.loads(text)
            else:
                assert key == "observation_delta"
                body = json.loads(text)
                assert set(body) == {"set", "remove"}
                rebuilt = apply_observation_delta(rebuilt, body)
                sizes.append((len(text), len(_dumps(observation))))
            assert rebuilt == json.loads(_dumps(observation))
        game.apply_unchecked(seat, bots[seat].act(game, seat))
    assert sum(d for d, _ in sizes) < 0.75 * sum(f for _, f in sizes)


@pytest.mark.parametrize(("mode", "seats"), [("standard", 4), ("family", 3), ("solo", 1),
                                             ("duel", 2)])
def test_protocol_observations_encode_to_the_observation_every_seat_every_step(
    mode: str, seats: int
) -> None:
    """What ``decide_for`` encodes (``protocol_observation``, with texts built ahead) is the
    observation byte for byte, whole or rebuilt from deltas."""
    game = new_game(mode, seats, 6)
    bots = [RandomBot(s, 6) for s in range(seats)]
    full = [ObservationEncoder() for _ in range(seats)]
    delta = [ObservationEncoder(deltas=True) for _ in range(seats)]
    rebuilt: list[dict | None] = [None] * seats
    while not game.is_over():
        for seat in range(seats):
            expected = _dumps(game.observation(seat))
            assert full[seat].encode(game.protocol_observation(seat)) == ("observation", expected)
            key, text = delta[seat].encode(game.protocol_observation(seat))
            body = json.loads(text)
            rebuilt[seat] = body if key == "observation" else apply_observation_delta(
                rebuilt[seat], body)  # type: ignore[arg-type]
            assert _dumps(rebuilt[seat]) == expected
        seat = game.pending()[0]
        game.apply_unchecked(seat, bots[seat].act(game, seat))


def test_text_values_are_sent_when_their_text_changes() -> None:
    encoder = ObservationEncoder(deltas=True)
    encoder.encode({"a": JSONText('[1,{"b":2}]'), "c": 1})
    assert encoder.encode({"a": JSONText('[1,{"b":2}]'), "c": 2}) == (
        "observation_delta", '{"set":{"c":2},"remove":[]}')
    key, text = encoder.encode({"a": JSONText("[1]"), "c": 2})
    assert json.loads(text) == {"set": {"a": [1]}, "remove": []}
    key, text = encoder.encode({"a": [1], "c": 2})  # the same JSON as a value: sent again
    assert json.loads(text) == {"set": {"a": [1]}, "remove": []}
    with pytest.raises(TypeError):
        _dumps({"a": JSONText("[1]")})  # a consumer that does not know texts fails loudly


def test_removed_keys_are_listed() -> None:
    encoder = ObservationEncoder(deltas=True)
    encoder.encode({"a": 1, "b": [1, 2]})
    key, text = encoder.encode({"a": 1, "c": {"x": 1}})
    assert key == "observation_delta"
    assert json.loads(text) == {"set": {"c": {"x": 1}}, "remove": ["b"]}


def test_the_ready_answer_may_ask_for_deltas() -> None:
    assert parse_ready_reply(b'{"ready": true}').deltas is False
    ready = parse_ready_reply(b'{"ready": true, "deltas": true, "name": "d"}')
    assert ready.deltas is True and ready.name == "d"
    with pytest.raises(BotFault, match="deltas"):
        parse_ready_reply(b'{"ready": true, "deltas": "yes"}')


def test_the_delta_example_bot_plays_a_whole_match_through_the_runner() -> None:
    from pathlib import Path

    from workers.runner import MatchSpec, SeatSpec, run_match

    bot = str(Path(__file__).resolve().parents[2] / "examples" / "bots" / "delta_random_bot.py")
    spec = MatchSpec(mode="standard", seats=(SeatSpec(bundle_path=bot), SeatSpec(bundle_path=bot),
                     SeatSpec(builtin="random")), seed=4, replay=False)  # fmt: skip
    outcome = run_match(spec)
    assert outcome.faults == []
    assert [p.get("self_name") for p in outcome.players[:2]] == ["random starter (deltas)"] * 2
    assert len(outcome.actions) > 50
