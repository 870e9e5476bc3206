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

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

from .boat import COLOURS, cells_of
from .errors import MalformedAction
from .shapes import Placements, mask_from_cells

FIELD_TYPES = ("int", "str", "colour", "cells", "ints")


class Action(tuple):
    """``Action("pick", 12)`` is the tuple ``("pick", 12)`` with a ``kind``."""

    __slots__ = ()

    def __new__(cls, kind: str, *fields: Any) -> Action:
        return tuple.__new__(cls, (kind, *fields))

    def __getnewargs__(self) -> tuple[Any, ...]:
        # copy and pickle rebuild a tuple subclass as ``cls(*args)``: the default args
        # (the tuple itself, as one argument) would give Action(("pick", 12))
        return tuple(self)

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Action:
        return self  # immutable: copies of a game share their actions

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


class PlacementActions(Sequence[Action]):
    """Legal actions of a placement decision, without building them.

    ``before`` actions, then ``Action(kind, mask)`` for every mask of one or
    more ``Placements`` (a cat's shape, or every treasure shape in the
    supply), then ``after`` actions. Length, indexing, iteration and ``in``
    go straight to the placement bitmasks, so a decision with thousands of
    placements costs a few big-integer operations until someone iterates it.
    """

    __slots__ = ("after", "before", "kind", "parts", "_len")

    def __init__(
        self,
        parts: Placements | Sequence[Placements],
        *,
        before: Sequence[Action] = (),
        after: Sequence[Action] = (),
        kind: str = "place",
    ) -> None:
        if isinstance(parts, Placements):
            parts = (parts,)
        self.parts = tuple(p for p in parts if p)
        self.before = tuple(before)
        self.after = tuple(after)
        self.kind = kind
        self._len = len(self.before) + sum(len(p) for p in self.parts) + len(self.after)

    @property
    def extra(self) -> tuple[Action, ...]:
        """The non-placement actions offered beside the placements."""
        return self.before + self.after

    def masks(self) -> Iterator[int]:
        """The placement masks alone (bots that score cells need no Action objects)."""
        for part in self.parts:
            yield from part

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("action index out of range")
        if index < len(self.before):
            return self.before[index]
        index -= len(self.before)
        for part in self.parts:
            n = len(part)
            if index < n:
                return Action(self.kind, part[index])
            index -= n
        return self.after[index]

    def __iter__(self) -> Iterator[Action]:
        yield from self.before
        kind = self.kind
        for part in self.parts:
            for mask in part:
                yield Action(kind, mask)
        yield from self.after

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, tuple):
            return False
        if action in self.before or action in self.after:
            return True
        if len(action) != 2 or action[0] != self.kind:
            return False
        return any(action[1] in part for part in self.parts)

    def __repr__(self) -> str:
        return f"<PlacementActions {self._len}>"
