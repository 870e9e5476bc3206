"""The typed protocol: real messages of every mode and every decision kind validate against
the published JSON Schema, the schema is strict enough to catch drift, and the committed
documents (docs/protocol-schema/, the tables of docs/bot-protocol.md) are up to date."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from competition.limits import Limits
from engine import available_modes, new_game
from engine.protocol_spec import mode_spec
from scripts import protocol_docs
from workers.protocol.schema import all_schemas, protocol_schema
from workers.protocol.wire import LegalEncoder, decide_line, end_message, start_line, start_message

SEATS = {"standard": (2, 3, 4), "family": (2, 4), "solo": (1,), "duel": (2,)}
OPTIONS = {"solo": ({"difficulty": "easy"}, {"difficulty": "expert"})}
SAMPLES_PER_KIND = 2  # full decide messages validated per (decision, legal kinds)


def validator(schema: dict[str, Any], message: str) -> Draft202012Validator:
    """A validator of one message type, inside the mode's schema document."""
    return Draft202012Validator(
        {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": f"#/$defs/{message}"})


def decision_name(observation: dict[str, Any]) -> str:
    decision = observation.get("decision")
    if isinstance(decision, dict):
        return decision["decision"]
    return observation["phase"]


def play_and_collect(mode: str) -> dict[str, Any]:
    """Random games of ``mode``: sampled decide messages per decision kind, every start and
    end, and the decision and action kinds seen."""
    seen_kinds: dict[str, set[str]] = defaultdict(set)
    decides: dict[tuple[str, frozenset[str]], list[bytes]] = defaultdict(list)
    starts, ends, replies = [], [], []
    options_list = OPTIONS.get(mode, ({},))
    for seats in SEATS.get(mode, (2,)):
        for options in options_list:
            for seed in range(10 if mode == "standard" else 6):
                game = new_game(mode, seats=seats, seed=seed, options=options)
                rng = random.Random(seed)
                encoder = LegalEncoder(game.codec)
                if seed == 0:  # a start per seat of each table: other seeds differ in values only
                    starts += [json.loads(start_line(game, s, Limits())) for s in range(seats)]
                while not game.is_over():
                    seat = game.pending()[0]
                    obs = game.observation(seat)
                    legal = game.legal_actions(seat)
                    kinds = frozenset(a.kind for a in legal)
                    name = decision_name(obs)
                    seen_kinds[name] |= kinds
                    bucket = decides[(name, kinds)]
                    action = rng.choice(list(legal))
                    if len(bucket) < SAMPLES_PER_KIND:
                        bucket.append(decide_line(len(game.history), seat, obs,
                                                  encoder.encode_list(legal), 1.0, 30.0))
                        replies.append({"index": legal.index(action), "debug": "why"})
                        replies.append({**game.encode_action(action), "debug": "why"})
                        replies.append(game.encode_action(action))
                    game.apply(seat, action)
                ends += [end_message(s, game.result()) for s in range(seats)]
    return {"kinds": seen_kinds, "decides": decides, "starts": starts, "ends": ends,
            "replies": replies}


@pytest.fixture(scope="module", params=available_modes())
def mode_messages(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    return request.param, play_and_collect(request.param)


def test_real_messages_of_every_mode_validate(mode_messages: tuple[str, dict]) -> None:
    mode, collected = mode_messages
    schema = protocol_schema(mode)
    Draft202012Validator.check_schema(schema)
    for message, items in (("start", collected["starts"]), ("end", collected["ends"]),
                           ("reply", collected["replies"])):
        check = validator(schema, message)
        for item in items:
            check.validate(item)
    check = validator(schema, "decide")
    count = 0
    for lines in collected["decides"].values():
        for line in lines:
            check.validate(json.loads(line))
            count += 1
    assert count >= len(collected["decides"])


def test_every_declared_decision_occurs_and_offers_only_declared_kinds(
    mode_messages: tuple[str, dict],
) -> None:
    mode, collected = mode_messages
    spec = mode_spec(mode)
    declared = spec.decisions or spec.phases
    seen = collected["kinds"]
    assert set(seen) <= set(declared), f"undeclared decisions: {set(seen) - set(declared)}"
    assert set(declared) == set(seen), f"never seen in play: {set(declared) - set(seen)}"
    for name, kinds in seen.items():
        assert kinds <= set(declared[name].actions), (name, kinds)
    offered = set().union(*seen.values())
    declared_kinds = {k for d in declared.values() for k in d.actions}
    assert offered == declared_kinds, f"never offered: {declared_kinds - offered}"
    assert offered <= {a.kind for a in spec.actions}


def test_start_carries_the_modes_game_data_and_the_schema_checks_it(
    mode_messages: tuple[str, dict],
) -> None:
    """Every start message validated above carries ``game_data`` (the schema requires it); the
    schema also refuses another mode's data and a card without its cost."""
    mode, collected = mode_messages
    check = validator(protocol_schema(mode), "start")
    start = collected["starts"][0]
    assert start["game_data"]["mode"] == mode and start["game_data"]["cards"]
    assert start == start_message(new_game(mode, seats=start["seats"], seed=0,
                                           options=start["options"]), start["seat"], Limits())
    other = next(m for m in available_modes() if m != mode)
    assert not check.is_valid({**start, "game_data": start_message(
        new_game(other, seats=2 if other != "solo" else 1, seed=0), 0, Limits())["game_data"]})
    broken = json.loads(json.dumps(start))
    del broken["game_data"]["cards"][0]["cost"]
    assert not check.is_valid(broken)
    del broken["game_data"]
    assert not check.is_valid(broken)


def test_schema_rejects_what_the_engine_never_sends() -> None:
    game = new_game("standard", seats=2, seed=3)
    seat = game.pending()[0]
    schema = protocol_schema("standard")
    encoder = LegalEncoder(game.codec)
    good = json.loads(decide_line(0, seat, game.observation(seat),
                                  encoder.encode_list(game.legal_actions(seat)), 1.0, 30.0))
    check = validator(schema, "decide")
    check.validate(good)
    broken = json.loads(json.dumps(good))
    broken["observation"]["surprise"] = 1  # a key the description does not know
    assert not check.is_valid(broken)
    broken = json.loads(json.dumps(good))
    broken["observation"]["you"]["fish"] = "3"  # a wrong type
    assert not check.is_valid(broken)
    broken = json.loads(json.dumps(good))
    broken["legal"][0]["kind"] = "teleport"  # an action kind the mode does not have
    assert not check.is_valid(broken)
    reply = validator(schema, "reply")
    assert reply.is_valid({"index": 0})
    assert not reply.is_valid({"index": 0, "kind": "keep"})
    assert not reply.is_valid({"kind": "keep", "cards": "1,2"})


def test_committed_documents_are_up_to_date() -> None:
    stale = [str(p) for p, text in protocol_docs.expected_files().items()
             if not p.exists() or p.read_text() != text]
    assert not stale, f"run python scripts/protocol_docs.py: stale {stale}"


def test_every_mode_has_a_schema() -> None:
    assert set(all_schemas()) == set(available_modes())
