"""The typed description of what a bot is shown: every mode's observation fields, its
decisions and its action kinds, as JSON Schema (draft 2020-12) and as documentation rows.

One source: the observation fields and decisions are described once, in the data files of
``engine/data/protocol/`` (``types.json`` says the notation), and the action kinds come from
each mode's action catalogue (``ActionSpec``). The schema published to bot authors, the tables
of docs/bot-protocol.md and the environment's flat encoding are all made from here, and the
tests validate real observations against the schema, so the description cannot drift from the
engine without a test failing. Pure: reads only the engine's own data files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .actions import ActionSpec
from .boat import COLOURS
from .modes import mode_class

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
_DATA = Path(__file__).resolve().parent / "data" / "protocol"


@dataclass(frozen=True)
class Field:
    """One key of an object: its type in the notation of types.json, and what it means."""

    name: str
    type: str
    doc: str
    optional: bool = False


@dataclass(frozen=True)
class ObjectType:
    """An object with known keys (a type, a decision, the observation itself)."""

    name: str
    doc: str
    fields: tuple[Field, ...]
    actions: tuple[str, ...] = ()  # decisions: the action kinds they may offer
    open: bool = False  # more keys than these may appear (mode-specific details)


@dataclass(frozen=True)
class ModeSpec:
    mode: str
    doc: str
    observation: ObjectType
    types: dict[str, ObjectType]
    decisions: dict[str, ObjectType] = field(default_factory=dict)  # keyed by "decision"
    phases: dict[str, ObjectType] = field(default_factory=dict)  # Duel: what each phase asks
    actions: tuple[ActionSpec, ...] = ()


def _fields(raw: dict[str, list[str]]) -> tuple[Field, ...]:
    out = []
    for name, entry in raw.items():
        type_, doc, *flags = entry
        out.append(Field(name, type_, doc, optional="optional" in flags))
    return tuple(out)


def _object(name: str, raw: dict[str, Any]) -> ObjectType:
    return ObjectType(name, raw.get("doc", ""), _fields(raw.get("fields", {})),
                      tuple(raw.get("actions", ())), bool(raw.get("open")))


def _read(name: str) -> dict[str, Any]:
    return json.loads((_DATA / f"{name}.json").read_text())


@cache
def _shared_types() -> dict[str, ObjectType]:
    raw = _read("types")["types"]
    types: dict[str, ObjectType] = {}
    for name, body in raw.items():
        obj = _object(name, body)
        base = body.get("extends")
        if base:
            obj = ObjectType(name, obj.doc, types[base].fields + obj.fields)
        types[name] = obj
    return types


@cache
def mode_spec(mode: str) -> ModeSpec:
    """The description of ``mode``; raises KeyError for a mode without one."""
    path = _DATA / f"{mode}.json"
    if not path.exists():
        raise KeyError(f"mode {mode!r} has no protocol description")
    raw = _read(mode)
    base = mode_spec(raw["extends"]) if raw.get("extends") else None
    obs_fields = {f.name: f for f in base.observation.fields} if base else {}
    obs_fields.update({f.name: f for f in _fields(raw["observation"])})
    types = dict(_shared_types())
    if base:
        types.update(base.types)
    types.update({n: _object(n, body) for n, body in raw.get("types", {}).items()})
    decisions: dict[str, ObjectType] = {}
    if base:
        for name in raw.get("decisions_from_base", ()):
            decisions[name] = base.decisions[name]
    decisions.update({n: _object(n, body) for n, body in raw.get("decisions", {}).items()})
    phases = {n: ObjectType(n, body["doc"], (), tuple(body["actions"]))
              for n, body in raw.get("phases", {}).items()}
    codec = mode_class(mode).codec
    return ModeSpec(
        mode=mode,
        doc=raw.get("_doc", ""),
        observation=ObjectType("observation", raw.get("_doc", ""), tuple(obs_fields.values())),
        types=types,
        decisions=decisions,
        phases=phases,
        actions=tuple(codec.specs.values()),
    )


# --- JSON Schema ------------------------------------------------------------------------------

_SCALARS: dict[str, dict[str, Any]] = {
    "int": {"type": "integer"},
    "bool": {"type": "boolean"},
    "str": {"type": "string"},
    "colour": {"enum": list(COLOURS)},
    "cells": {
        "type": "array",
        "items": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "integer"}],
                  "items": False, "minItems": 2},
    },
}


def type_schema(type_: str) -> dict[str, Any]:
    """The JSON Schema of a type written in the notation of types.json."""
    if type_.endswith("?"):
        return {"anyOf": [type_schema(type_[:-1]), {"type": "null"}]}
    if type_.startswith("[") and type_.endswith("]"):
        return {"type": "array", "items": type_schema(type_[1:-1])}
    if type_.startswith("{") and type_.endswith("}"):
        return {"type": "object", "additionalProperties": type_schema(type_[1:-1])}
    if type_.startswith("enum:"):
        return {"enum": type_[5:].split(",")}
    if type_ in _SCALARS:
        return dict(_SCALARS[type_])
    return {"$ref": f"#/$defs/{type_}"}


def _object_schema(obj: ObjectType, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    props = {f.name: {**type_schema(f.type), "description": f.doc} for f in obj.fields}
    required = [f.name for f in obj.fields if not f.optional]
    if extra:
        props.update(extra)
        required = [*required, *extra]
    out: dict[str, Any] = {"type": "object", "properties": props, "required": required,
                           "additionalProperties": obj.open}
    if obj.doc:
        out["description"] = obj.doc
    return out


def action_schema(spec: ActionSpec, *, debug: bool = False) -> dict[str, Any]:
    """One action kind as found in ``legal``; with ``debug``, as a bot may send it back
    (with its optional ``debug`` note)."""
    props: dict[str, Any] = {"kind": {"const": spec.kind}}
    props.update({name: type_schema("[int]" if ftype == "ints" else ftype)
                  for name, ftype in spec.fields})
    if debug:
        props["debug"] = {"type": "string", "description": "a short note kept in the replay"}
    return {"type": "object", "description": spec.doc, "properties": props,
            "required": ["kind", *(name for name, _ in spec.fields)],
            "additionalProperties": False}


def mode_defs(mode: str) -> dict[str, Any]:
    """``$defs`` of a mode: its types, decisions, observation and action kinds."""
    spec = mode_spec(mode)
    defs: dict[str, Any] = {name: _object_schema(t) for name, t in spec.types.items()}
    if spec.decisions:
        for name, dec in spec.decisions.items():
            defs[f"decision_{name}"] = _object_schema(
                dec, {"decision": {"const": name, "description": "the decision's name"}})
        defs["decision"] = {"oneOf": [{"$ref": f"#/$defs/decision_{n}"} for n in spec.decisions]}
    defs["observation"] = _object_schema(spec.observation)
    for a in spec.actions:
        defs[f"action_{a.kind}"] = action_schema(a)
        defs[f"reply_action_{a.kind}"] = action_schema(a, debug=True)
    defs["action"] = {"oneOf": [{"$ref": f"#/$defs/action_{a.kind}"} for a in spec.actions]}
    defs["reply_action"] = {
        "oneOf": [{"$ref": f"#/$defs/reply_action_{a.kind}"} for a in spec.actions]}
    defs["result"] = _object_schema(_shared_types()["result"])
    v2 = observation_v2_type(mode)
    if v2 is None:  # the mode's observation already has protocol 2's shared keys
        defs["observation_v2"] = {"$ref": "#/$defs/observation"}
    else:
        defs["observation_v2"] = _object_schema(v2)
        defs["decision"] = _object_schema(ObjectType("decision", _V2_DECISION_DOC, (
            Field("decision", _field(spec, "phase").type,
                  "what is asked now: the phase (see the phases table)"),)))
    return defs


_V2_DECISION_DOC = "What you are asked now (protocol 2; the Duel: its phase)."


def _field(spec: ModeSpec, name: str) -> Field:
    return next(f for f in spec.observation.fields if f.name == name)


def observation_v2_type(mode: str) -> ObjectType | None:
    """The observation of protocol 2 (engine/protocol_v2.py) where it differs from protocol
    1's: ``you`` the seat number becomes ``seat``, ``you`` is the own player (the type of
    ``players``' items) and ``decision`` names the question (the phase). None for a mode
    whose observation already has those keys."""
    spec = mode_spec(mode)
    names = {f.name: f for f in spec.observation.fields}
    if "you" not in names or names["you"].type != "int":
        return None
    player = names["players"].type[1:-1]
    fields: list[Field] = []
    for f in spec.observation.fields:
        if f.name == "you":
            fields += [Field("seat", "int", "your seat"),
                       Field("you", player, "your own player (the same as players[seat])"),
                       Field("decision", "decision", "what you are asked now")]
        else:
            fields.append(f)
    return ObjectType("observation_v2", spec.observation.doc, tuple(fields))

