"""Actions: small hashable values with one JSON codec for every mode.

An action is a tuple ``(kind, field1, field2, ...)``. Each mode declares a
catalogue of ``ActionSpec`` (kind + typed fields); the codec turns actions
into compact JSON objects such as ``{"kind": "place", "cells": [[3, 4], ...]}``
and back, and gives the text form ``place cells=3,4;4,4;...``. Bots in any
language produce the JSON form (or the index of a legal action).

Field types: ``int``; ``str``; ``colour`` (one of the five cat colours);
``cells`` (a placement mask inside the engine, ``[[x, y], ...]`` in JSON);
``ints`` (a tuple of ints, a JSON list).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .boat import COLOURS, cells_of
from .errors import MalformedAction
from .shapes import mask_from_cells

FIELD_TYPES = ("int", "str", "colour", "cells", "ints")


class Action(tuple):
    """``Action("pick", 12)`` is the tuple ``("pick", 12)`` with a ``kind``."""

    __slots__ = ()

    def __new__(cls, kind: str, *fields: Any) -> Action:
        return tuple.__new__(cls, (kind, *fields))

    @property
    def kind(self) -> str:
        return self[0]

    def __repr__(self) -> str:
        return f"Action{tuple.__repr__(self)}"


@dataclass(frozen=True)
class ActionSpec:
    kind: str
    fields: tuple[tuple[str, str], ...] = ()
    doc: str = ""

    def __post_init__(self) -> None:
        for _, ftype in self.fields:
            if ftype not in FIELD_TYPES:
                raise ValueError(f"unknown field type {ftype}")


def _encode_field(ftype: str, value: Any) -> Any:
    if ftype == "cells":
        return cells_of(value)
    if ftype == "ints":
        return list(value)
    return value


def _decode_field(kind: str, name: str, ftype: str, value: Any) -> Any:
    where = f"field {name!r} of a {kind!r} action"
    if ftype == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise MalformedAction(f"{where} must be an integer")
        return value
    if ftype == "str":
        if not isinstance(value, str):
            raise MalformedAction(f"{where} must be a string")
        return value
    if ftype == "colour":
        if value not in COLOURS:
            raise MalformedAction(f"{where} must be one of {', '.join(COLOURS)}")
        return value
    if ftype == "ints":
        if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            raise MalformedAction(f"{where} must be a list of integers")
        return tuple(value)
    # cells
    if not isinstance(value, list) or not value:
        raise MalformedAction(f"{where} must be a non-empty list of [x, y] pairs")
    try:
        return mask_from_cells(value)
    except (ValueError, TypeError) as exc:
        raise MalformedAction(f"{where}: {exc}") from None


class ActionCodec:
    """Encode/decode the actions of one mode's catalogue."""

    def __init__(self, specs: Iterable[ActionSpec]) -> None:
        self.specs = {s.kind: s for s in specs}

    def encode(self, action: Action) -> dict[str, Any]:
        spec = self.specs[action[0]]
        out: dict[str, Any] = {"kind": action[0]}
        for (name, ftype), value in zip(spec.fields, action[1:], strict=True):
            out[name] = _encode_field(ftype, value)
        return out

    def decode(self, obj: Any) -> Action:
        if not isinstance(obj, Mapping):
            raise MalformedAction("an action must be a JSON object with a 'kind'")
        kind = obj.get("kind")
        spec = self.specs.get(kind) if isinstance(kind, str) else None
        if spec is None:
            known = ", ".join(sorted(self.specs))
            raise MalformedAction(f"unknown action kind {kind!r}; this mode knows: {known}")
        extra = set(obj) - {"kind"} - {n for n, _ in spec.fields}
        if extra:
            raise MalformedAction(f"unexpected field(s) {sorted(extra)} in a {kind!r} action")
        values = []
        for name, ftype in spec.fields:
            if name not in obj:
                raise MalformedAction(f"a {kind!r} action needs the field {name!r}")
            values.append(_decode_field(kind, name, ftype, obj[name]))
        return Action(kind, *values)

    def text(self, action: Action) -> str:
        """Readable one-line form, e.g. ``buy card=12`` or ``place cells=3,4;4,4``."""
        spec = self.specs[action[0]]
        parts = [action[0]]
        for (name, ftype), value in zip(spec.fields, action[1:], strict=True):
            if ftype == "cells":
                value = ";".join(f"{x},{y}" for x, y in cells_of(value))
            elif ftype == "ints":
                value = ",".join(map(str, value))
            parts.append(f"{name}={value}")
        return " ".join(parts)

    def catalogue(self) -> list[dict[str, Any]]:
        """The catalogue as data, for docs and the bot protocol's ``start`` message."""
        return [
            {"kind": s.kind, "fields": {n: t for n, t in s.fields}, "doc": s.doc}
            for s in self.specs.values()
        ]
