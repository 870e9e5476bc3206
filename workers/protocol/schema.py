"""JSON Schema (draft 2020-12) of every message of the bot protocol, for every mode.

The envelopes (``start``, ``decide``, ``end`` and the bot's ``ready`` and reply) are declared
here, beside the code that builds them (workers/protocol/wire.py); what they carry (observations,
decisions, actions, results) comes from the engine's description (engine/protocol_spec.py).
``protocol_schema(mode)`` is what ``GET /api/v1/protocol/schema`` serves and what
``docs/protocol-schema/`` holds (scripts/protocol_docs.py writes it).
"""

from __future__ import annotations

import copy
from typing import Any

from engine.game_data import GAME_DATA_MODES, game_data_defs
from engine.modes import available_modes
from engine.protocol_spec import SCHEMA_DIALECT, mode_defs, type_schema
from engine.protocol_v2 import PROTOCOLS

from .marks import marks_schema
from .wire import JSON_PATCH, PROTOCOL_VERSION

SCHEMA_BASE = "https://isle-arena.invalid/protocol/v{version}/{mode}.schema.json"

# key -> (type in the notation of engine/data/protocol/types.json, meaning)
_LIMITS = {
    "decision_seconds": ("number", "free seconds of one decision"),
    "bank_seconds": ("number", "the match's time bank"),
    "startup_seconds": ("number", "seconds from launch to the ready reply"),
    "memory_mb": ("int", "memory limit of the bot's processes"),
    "cpu_seconds": ("number", "CPU seconds for the whole match"),
    "reply_bytes": ("int", "longest reply line"),
    "debug_chars": ("int", "longest debug note kept"),
}


def _type(type_: str) -> dict[str, Any]:
    return {"type": "number"} if type_ == "number" else type_schema(type_)


def _obj(props: dict[str, tuple[Any, str]], *, optional: tuple[str, ...] = (),
         doc: str = "", open_: bool = False) -> dict[str, Any]:
    """An object schema from ``{key: (type or schema, meaning)}``."""
    properties = {}
    for key, (type_, meaning) in props.items():
        schema = _type(type_) if isinstance(type_, str) else dict(type_)
        properties[key] = {**schema, "description": meaning}
    out: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": [k for k in props if k not in optional],
        "additionalProperties": open_,
    }
    if doc:
        out["description"] = doc
    return out


def _catalogue_entry() -> dict[str, Any]:
    return _obj({
        "kind": ("str", "the action kind"),
        "fields": ({"type": "object", "additionalProperties": {
            "enum": ["int", "str", "colour", "cells", "ints"]}}, "field name -> field type"),
        "doc": ("str", "what the action does"),
    })


# an RFC 6901 JSON Pointer below the root: "/" and a member name or index, repeated
_POINTER = {"type": "string", "pattern": "^(/([^/~]|~[01])*)+$"}


def _patch_operation() -> dict[str, Any]:
    """One operation of an observation patch: RFC 6902's add, remove or replace."""
    value = ({}, "the new value (any JSON)")
    path = (_POINTER, "where: an RFC 6901 pointer; the last segment of an add to an array "
                      "may be - (append)")
    return {"oneOf": [
        _obj({"op": ({"enum": ["add", "replace"]}, "the operation"), "path": path,
              "value": value}),
        _obj({"op": ({"const": "remove"}, "the operation"), "path": path}),
    ]}


def message_defs(mode: str) -> dict[str, Any]:
    """The message schemas of one mode (they refer to the mode's ``$defs``)."""
    defs = {
        "start": _obj({
            "type": ({"const": "start"}, "the message type"),
            "protocol": ({"const": PROTOCOL_VERSION}, "the protocol version spoken unless "
                         "you choose another in ready"),
            "protocols": ({"type": "array", "items": {"enum": list(PROTOCOLS)}},
                          "every protocol version this server speaks; answer ready with "
                          '"protocol": 2 for the observation shape shared by every mode'),
            "engine_version": ("str", "the rules engine's version"),
            "mode": ({"const": mode}, "the mode"),
            "seat": ("int", "your seat"),
            "seats": ("int", "the number of seats"),
            "options": ({"type": "object"}, "the mode's options for this match"),
            "limits": (_obj({k: v for k, v in _LIMITS.items()}), "the match's limits"),
            "catalogue": ({"type": "array", "items": _catalogue_entry()},
                          "the mode's action kinds"),
            "game_data": ({"$ref": f"#/$defs/game_data_{mode}"},
                          "the game's data: every card, boat and shape of the mode (and the "
                          "Duel's island); docs/bot-protocol.md, \"The game's data\""),
        }, doc="Sent once, at launch. Answer with a ready message."),
        "ready": _obj({
            "ready": ({"const": True}, "always true"),
            "name": ({"type": "string", "maxLength": 80}, "a name shown in match records"),
            "deltas": ({"oneOf": [{"type": "boolean"}, {"const": JSON_PATCH}]},
                       "true: send each observation after the first as observation_delta; "
                       f'"{JSON_PATCH}": as observation_patch (default false: whole '
                       "observations)"),
            "protocol": ({"enum": list(PROTOCOLS)},
                         "the protocol version you speak (default 1); 2: every observation "
                         "has seat, you (your own player) and decision (what is asked)"),
        }, optional=("name", "deltas", "protocol"), doc="The bot's answer to start.",
           open_=True),
        "decide": _obj({
            "type": ({"const": "decide"}, "the message type"),
            "step": ("int", "decisions your seat has taken so far (your own actions only)"),
            "seat": ("int", "your seat"),
            "time": (_obj({"limit": ("number", "free seconds of this decision"),
                           "bank": ("number", "seconds left in your bank")}),
                     "your clock"),
            "observation": ({"$ref": "#/$defs/observation"}, "what your player may know now"),
            "observation_delta": (_obj({
                "set": ({"type": "object"}, "top-level observation keys whose value changed "
                        "or is new, with their new values"),
                "remove": ({"type": "array", "items": {"type": "string"}},
                           "top-level keys no longer in the observation"),
            }), "only when you asked for deltas (true), after your first decide: the "
                "observation as its change from the previous one you were sent"),
            "observation_patch": ({"type": "array", "items": _patch_operation()},
                                  f'only when you asked for deltas "{JSON_PATCH}", after your '
                                  "first decide: the RFC 6902 JSON Patch that turns the "
                                  "previous observation you were sent into this one"),
            "legal": ({"type": "array", "items": {"$ref": "#/$defs/action"}, "minItems": 1},
                      "every legal action, in the engine's order"),
        }, optional=("observation", "observation_delta", "observation_patch"),
           doc="Sent for each of your decisions. Answer with a reply."),
        "reply": {
            "description": "The bot's answer to decide: the index of a legal action, or the "
                           "action itself; either may carry a debug note.",
            "oneOf": [
                _obj({"index": ({"type": "integer", "minimum": 0}, "index into legal"),
                      "debug": ("str", "a short note kept in the replay"),
                      "marks": (marks_schema(), "annotations of your own boat")},
                     optional=("debug", "marks")),
                {"$ref": "#/$defs/reply_action"},
            ],
        },
        "end": _obj({
            "type": ({"const": "end"}, "the message type"),
            "seat": ("int", "your seat"),
            "result": ({"$ref": "#/$defs/result"}, "the engine's result"),
        }, doc="Sent once the game is over. No answer is expected."),
    }
    if mode not in GAME_DATA_MODES:  # a mode without game data (a test's toy mode) is sent none
        del defs["start"]["properties"]["game_data"]
        defs["start"]["required"].remove("game_data")
    # a decide carries exactly one of the three forms of the observation
    defs["decide"]["oneOf"] = [{"required": ["observation"]},
                               {"required": ["observation_delta"]},
                               {"required": ["observation_patch"]}]  # fmt: skip
    # protocol 2's decide: the same, with the observation in the shape shared by every mode
    decide_v2 = copy.deepcopy(defs["decide"])
    decide_v2["properties"]["observation"]["$ref"] = "#/$defs/observation_v2"
    decide_v2["description"] = ("Sent for each of your decisions when you chose protocol 2 "
                                "in ready. Answer with a reply.")
    defs["decide_v2"] = decide_v2
    return defs


def protocol_schema(mode: str) -> dict[str, Any]:
    """One self-contained schema document for ``mode``: every message, the observation,
    each decision and each action kind under ``$defs``. Validate a message against
    ``{"$ref": "#/$defs/<message>"}`` inside this document."""
    defs = mode_defs(mode)
    for name, schema in defs.items():  # an action sent back may carry marks, as an index may
        if name.startswith("reply_action_"):
            schema["properties"]["marks"] = marks_schema()
    defs.update(message_defs(mode))
    if mode in GAME_DATA_MODES:
        defs.update(game_data_defs(mode))
    return {
        "$schema": SCHEMA_DIALECT,
        "$id": SCHEMA_BASE.format(version=PROTOCOL_VERSION, mode=mode),
        "title": f"Isle Arena bot protocol v{PROTOCOL_VERSION}: {mode}",
        "description": "Messages are JSON lines: we send start, decide and end; the bot "
                       "answers ready and reply. docs/bot-protocol.md explains them.",
        # a decide of a mode whose observation is the same in both protocols is both
        "anyOf": [{"$ref": f"#/$defs/{m}"} for m in ("start", "decide", "decide_v2", "end")],
        "$defs": defs,
    }


def all_schemas() -> dict[str, dict[str, Any]]:
    """Every mode's schema, keyed by mode."""
    return {mode: protocol_schema(mode) for mode in available_modes()}
