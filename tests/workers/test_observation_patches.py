"""Observation patches: a bot that answers ``{"ready": true, "deltas": "json-patch"}``
gets each observation after its first as ``observation_patch``, an RFC 6902 JSON Patch of
``add``, ``remove`` and ``replace`` operations. Applied in order to the first observation, the
patches give every later observation of every seat of every mode; a real sandboxed bot
rebuilds them and they match the engine's."""

from __future__ import annotations

import ast
import importlib.util
import json
import random
import statistics
from pathlib import Path
from typing import Any

import pytest

from competition.faults import BotFault
from competition.limits import Limits
from engine import available_modes, mode_class, new_game
from engine.bots.random_bot import RandomBot
from engine.jsontext import JSONText
from workers.agents import ProgramAgent
from workers.protocol.json_patch import PatchError, apply_patch, observation_patch
from workers.protocol.wire import JSON_PATCH, ObservationEncoder, _dumps, parse_ready_reply

from .rebuilt_observations import rebuilt_notes

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bots" / "patch_random_bot.py"


def _seat_counts(mode: str) -> range:
    game_type = mode_class(mode).game_type
    return range(game_type.min_seats, game_type.max_seats + 1)


CASES = [(mode, seats) for mode in available_modes() for seats in _seat_counts(mode)]


def _check_operations(patch: list[dict[str, Any]]) -> None:
    """Only add, remove and replace, each with exactly its members and an RFC 6901 path."""
    for op in patch:
        assert op["op"] in ("add", "remove", "replace"), op
        assert set(op) == ({"op", "path"} if op["op"] == "remove" else {"op", "path", "value"})
        path = op["path"]
        assert path.startswith("/"), op
        for segment in path[1:].split("/"):
            assert "~" not in segment.replace("~0", "").replace("~1", ""), op
            if segment == "-":
                assert op["op"] == "add" and path.endswith("/-"), op


@pytest.mark.parametrize(("mode", "seats"), CASES)
def test_patches_rebuild_every_observation_of_every_seat(mode: str, seats: int) -> None:
    """Every seat's encoder sees every decision of the game (not only its own), and the
    patches applied in order give ``game.observation(seat)`` each time."""
    for seed in (1, 2):
        game = new_game(mode, seats, seed)
        bots = [RandomBot(s, seed) for s in range(seats)]
        encoders = [ObservationEncoder(deltas=JSON_PATCH) for _ in range(seats)]
        rebuilt: list[Any] = [None] * seats
        patches = 0
        while True:
            for seat in range(seats):
                key, text = encoders[seat].encode(game.protocol_observation(seat))
                if rebuilt[seat] is None:
                    assert key == "observation"
                    rebuilt[seat] = json.loads(text)
                else:
                    assert key == "observation_patch"
                    patch = json.loads(text)
                    _check_operations(patch)
                    rebuilt[seat] = apply_patch(rebuilt[seat], patch)
                    patches += 1
                assert rebuilt[seat] == game.observation(seat), (mode, seats, seed, seat)
            if game.is_over():
                break
            seat = game.pending()[0]
            game.apply_unchecked(seat, bots[seat].act(game, seat))
        assert patches > 20


def test_a_patch_follows_the_jsonpatch_library() -> None:
    """An implementation of RFC 6902 of its own (the ``jsonpatch`` package, when installed)
    applies our patches to the same observations."""
    jsonpatch = pytest.importorskip("jsonpatch")
    game = new_game("standard", 4, 3)
    bots = [RandomBot(s, 3) for s in range(4)]
    encoder = ObservationEncoder(deltas=JSON_PATCH)
    rebuilt = json.loads(encoder.encode(game.protocol_observation(0))[1])
    for _ in range(200):
        seat = game.pending()[0]
        game.apply_unchecked(seat, bots[seat].act(game, seat))
        rebuilt = jsonpatch.apply_patch(rebuilt, json.loads(
            encoder.encode(game.protocol_observation(0))[1]))
        assert rebuilt == game.observation(0)


def test_a_tile_put_on_a_boat_is_one_add_and_a_number_one_replace() -> None:
    tile = '{"id":%d}'
    tiles = [JSONText(tile % i) for i in range(3)]

    def player(n: int, fish: int) -> JSONText:
        boat = JSONText("[" + ",".join(t.text for t in tiles[:n]) + "]", tiles[:n])
        return JSONText(f'{{"tiles":{boat.text},"fish":{fish}}}', {"tiles": boat, "fish": fish})

    def view(n: int, fish: int, other: JSONText) -> dict[str, Any]:
        players = [other, player(n, fish)]
        return {"players": JSONText("[" + ",".join(p.text for p in players) + "]", players),
                "day": 1}

    other = player(1, 9)
    before, after = view(1, 3, other), view(2, 3, other)
    assert json.loads(observation_patch(before, after)) == [
        {"op": "add", "path": "/players/1/tiles/-", "value": {"id": 1}}]
    assert json.loads(observation_patch(after, view(2, 5, other))) == [
        {"op": "replace", "path": "/players/1/fish", "value": 5}]
    assert observation_patch(after, view(2, 3, other)) == "[]"


LONG = "a long text that is not sent again"


@pytest.mark.parametrize(("old", "new", "ops"), [
    ([1, 2, 3, 4], [1, 3, 4], [{"op": "remove", "path": "/a/1"}]),
    ([1, 2, 3, 4], [1, 2, 9, 3, 4], [{"op": "add", "path": "/a/2", "value": 9}]),
    ([LONG, LONG], [LONG, LONG, 3, 4], [{"op": "add", "path": "/a/-", "value": 3},
                                        {"op": "add", "path": "/a/-", "value": 4}]),
    ([LONG, LONG, 3, 4, 5], [LONG, LONG], [{"op": "remove", "path": "/a/4"},
                                           {"op": "remove", "path": "/a/3"},
                                           {"op": "remove", "path": "/a/2"}]),
    ([1, 2], [1, 2, 3, 4], [{"op": "replace", "path": "/a", "value": [1, 2, 3, 4]}]),
    ([0, 1, 2, 3], [1, 2, 3, 0], [{"op": "replace", "path": "/a", "value": [1, 2, 3, 0]}]),
    ({"x": LONG, "y": 2}, {"x": LONG, "z": 2}, [{"op": "add", "path": "/a/z", "value": 2},
                                                {"op": "remove", "path": "/a/y"}]),
    ({"a/b": 1, "~": 2}, {"a/b": 3, "~": 2}, [{"op": "replace", "path": "/a/a~1b", "value": 3}]),
    ([{"k": 1, "n": LONG}], [{"k": "1", "n": LONG}],
     [{"op": "replace", "path": "/a/0/k", "value": "1"}]),
])  # fmt: skip
def test_plain_values_get_a_minimal_patch(old: Any, new: Any, ops: list[Any]) -> None:
    patch = json.loads(observation_patch({"a": old}, {"a": new}))
    assert patch == ops
    assert apply_patch({"a": json.loads(json.dumps(old))}, patch) == {"a": new}


def test_random_plain_documents_patch_into_each_other() -> None:
    rng = random.Random(7)

    def value(depth: int = 0) -> Any:
        roll = rng.random()
        if depth > 3 or roll < 0.4:
            return rng.choice([0, 1, 2, "a", "b/c", "~x", None, False, 1.5])
        if roll < 0.7:
            return [value(depth + 1) for _ in range(rng.randrange(5))]
        return {rng.choice("abcd/~"): value(depth + 1) for _ in range(rng.randrange(5))}

    def mutate(v: Any, depth: int = 0) -> Any:
        if isinstance(v, list):
            v = list(v)
            for _ in range(rng.randrange(3)):
                roll = rng.random()
                if roll < 0.3 and v:
                    v.pop(rng.randrange(len(v)))
                elif roll < 0.6:
                    v.insert(rng.randrange(len(v) + 1), value(depth + 1))
                elif v:
                    i = rng.randrange(len(v))
                    v[i] = mutate(v[i], depth + 1)
            return v
        if isinstance(v, dict):
            v = dict(v)
            for _ in range(rng.randrange(3)):
                key = rng.choice("abcde/~")
                if rng.random() < 0.3:
                    v.pop(key, None)
                else:
                    v[key] = mutate(v.get(key, 0), depth + 1)
            return v
        return value(depth) if rng.random() < 0.5 else v

    for _ in range(3000):
        old = {k: value() for k in "xyz"}
        new = mutate(old)
        patch = json.loads(observation_patch(old, new))
        _check_operations(patch)
        assert apply_patch(json.loads(_dumps(old)), patch) == new


@pytest.mark.parametrize("patch", [
    [{"op": "move", "from": "/a", "path": "/b"}],
    [{"op": "replace", "path": "/nope", "value": 1}],
    [{"op": "remove", "path": "/a/3"}],
    [{"op": "add", "path": "/a/01", "value": 1}],
    [{"op": "add", "path": "a", "value": 1}],
    [{"op": "remove", "path": "/a/0", "value": 1}],
])  # fmt: skip
def test_the_reference_apply_refuses_what_the_rfc_refuses(patch: list[Any]) -> None:
    with pytest.raises(PatchError):
        apply_patch({"a": [1, 2]}, patch)


def test_the_ready_answer_may_ask_for_json_patches() -> None:
    assert parse_ready_reply(b'{"ready": true, "deltas": "json-patch"}').deltas == JSON_PATCH
    assert parse_ready_reply(b'{"ready": true, "deltas": true}').deltas is True
    for bad in (b'"yes"', b'"json_patch"', b"1", b"null", b"[]"):
        with pytest.raises(BotFault, match='"deltas" in the answer to start is true, false or'):
            parse_ready_reply(b'{"ready": true, "deltas": ' + bad + b"}")
    with pytest.raises(ValueError):
        ObservationEncoder(deltas="yes")


# Rebuilds each observation from the patches with the example bot's own ``apply_patch`` (the
# RFC's three operations) and answers with the sha256 of its canonical JSON (as the debug
# note), and how it came: "full" or "patch".
def _example_apply_patch() -> str:
    source = EXAMPLE.read_text()
    node = next(n for n in ast.parse(source).body
                if isinstance(n, ast.FunctionDef) and n.name == "apply_patch")
    segment = ast.get_source_segment(source, node)
    assert segment is not None
    return segment


PATCH_BOT = ("""
import hashlib, json, sys
out = sys.stdout
sys.stdin.readline()
out.write(json.dumps({"ready": True, "deltas": "json-patch"}) + "\\n")
out.flush()

""" + _example_apply_patch() + """

obs = None
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "decide":
        break
    if "observation" in msg:
        obs, how = msg["observation"], "full"
    else:
        apply_patch(obs, msg["observation_patch"])
        how = "patch"
    digest = hashlib.sha256(json.dumps(obs, sort_keys=True).encode()).hexdigest()
    out.write(json.dumps({"index": 0, "debug": how + " " + digest}) + "\\n")
    out.flush()
""").encode()


@pytest.mark.parametrize(("mode", "seats"), [("standard", 3), ("duel", 2)])
def test_a_sandboxed_bot_rebuilds_every_observation_from_patches(mode: str, seats: int) -> None:
    game = new_game(mode, seats, 5)
    others = [RandomBot(s, 5) for s in range(seats)]
    agent = ProgramAgent(0, PATCH_BOT, "patch_bot.py", limits=Limits(end_grace_seconds=0))
    hows = rebuilt_notes(game, agent, others)
    assert len(hows) > 10
    assert hows[0] == "full" and set(hows[1:]) == {"patch"}


def test_patches_are_much_shorter_than_deltas_and_observations() -> None:
    game = new_game("standard", 4, 2)
    bots = [RandomBot(s, 2) for s in range(4)]
    delta, patch = ObservationEncoder(deltas=True), ObservationEncoder(deltas=JSON_PATCH)
    sizes = []
    while not game.is_over():
        seat = game.pending()[0]
        if seat == 0:
            view = game.protocol_observation(0)
            deltas, patches = delta.encode(view)[1], patch.encode(view)[1]
            sizes.append((len(patches), len(deltas), len(_dumps(game.observation(0)))))
        game.apply_unchecked(seat, bots[seat].act(game, seat))
    patches, deltas, wholes = (statistics.median(column) for column in zip(*sizes[1:], strict=True))
    assert patches < 0.5 * deltas < wholes


def test_the_patch_example_bot_plays_a_whole_match_through_the_runner() -> None:
    from workers.runner import MatchSpec, SeatSpec, run_match

    bot = str(EXAMPLE)
    spec = MatchSpec(mode="standard", seats=(SeatSpec(bundle_path=bot), SeatSpec(bundle_path=bot),
                     SeatSpec(builtin="random")), seed=4, replay=False)  # fmt: skip
    outcome = run_match(spec)
    assert outcome.faults == []
    assert [p.get("self_name") for p in outcome.players[:2]] == ["random starter (patches)"] * 2
    assert len(outcome.actions) > 50


def test_the_example_bots_apply_patch_rebuilds_the_observations() -> None:
    spec = importlib.util.spec_from_file_location("patch_random_bot", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    for mode, seats in (("standard", 4), ("solo", 1), ("duel", 2)):
        game = new_game(mode, seats, 8)
        bots = [RandomBot(s, 8) for s in range(seats)]
        encoder = ObservationEncoder(deltas=JSON_PATCH)
        rebuilt = json.loads(encoder.encode(game.protocol_observation(0))[1])
        while not game.is_over():
            seat = game.pending()[0]
            game.apply_unchecked(seat, bots[seat].act(game, seat))
            patch = json.loads(encoder.encode(game.protocol_observation(0))[1])
            rebuilt = example.apply_patch(rebuilt, patch)
            assert rebuilt == game.observation(0)


def test_patch_decides_and_the_ready_answer_validate_against_the_schema() -> None:
    from jsonschema import Draft202012Validator

    from workers.protocol.schema import protocol_schema
    from workers.protocol.wire import LegalEncoder, decide_for

    schema = protocol_schema("standard")

    def check(message: str) -> Draft202012Validator:
        return Draft202012Validator({"$schema": schema["$schema"], "$defs": schema["$defs"],
                                     "$ref": f"#/$defs/{message}"})

    decide, ready = check("decide"), check("ready")
    assert ready.is_valid({"ready": True, "deltas": "json-patch"})
    assert ready.is_valid({"ready": True, "deltas": True})
    assert not ready.is_valid({"ready": True, "deltas": "yes"})
    game = new_game("standard", 2, 4)
    bots = [RandomBot(s, 4) for s in range(2)]
    encoder, legal = ObservationEncoder(deltas=JSON_PATCH), LegalEncoder(game.codec)
    keys, operations = [], set()
    while not game.is_over():
        seat = game.pending()[0]
        if seat == 0:
            message = json.loads(decide_for(game, 0, game.legal_actions(0), legal, 1.0, 30.0,
                                            encoder))
            decide.validate(message)
            keys.append("observation_patch" in message)
            operations |= {op["op"] for op in message.get("observation_patch", [])}
        game.apply_unchecked(seat, bots[seat].act(game, seat))
    assert keys[0] is False and all(keys[1:])
    assert operations == {"add", "remove", "replace"}
    message["observation"] = {}  # both forms at once
    assert not decide.is_valid(message)
    del message["observation"]
    message["observation_patch"] = [{"op": "move", "from": "/a", "path": "/b"}]
    assert not decide.is_valid(message)
    message["observation_patch"] = [{"op": "add", "path": "a", "value": 1}]
    assert not decide.is_valid(message)
