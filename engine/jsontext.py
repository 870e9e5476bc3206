"""JSON text built once and reused: the compact form the bot protocol sends, and a marker for
values already encoded in it.

A bot is sent its observation at every decision, and most of it (the boats above all) is the
same as at its last decision. Placed tiles never change, so their JSON text is kept with them
(``Tile.json_text``, ``Boat.tiles_text``) and an observation for the protocol
(``Game.protocol_observation``) can hand over such parts as ``JSONText`` instead of dicts
that would be encoded, or compared, again. ``compact`` is the one formatting both sides use,
so the text of a part is exactly what encoding its value would give.

A ``JSONText`` may also carry its ``parts``: the items of the array or the members of the
object it is, each a ``JSONText`` again or a plain value. Whoever compares two observations
(``workers.protocol.json_patch``: observation patches) then compares parts, texts first, and
descends
only into those that differ, without decoding any text. Parts are built and kept with the
text they belong to, so they cost nothing while the text is reused.
"""

from __future__ import annotations

import json
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)
# ``JSONEncoder.encode`` makes a new C encoder at every call, about 0.7 µs, more than encoding
# a small value costs; this one is made once, with the same settings (no cycle check: the
# messages are plain trees).
_C_ENCODE = (
    c_make_encoder(None, _ENCODER.default, encode_basestring, None, ":", ",", False, False, True)
    if c_make_encoder is not None else None
)


def compact(value: Any) -> str:
    """Compact JSON (no spaces, UTF-8 kept): the form of every protocol message; the same
    text as ``json.dumps(value, separators=(",", ":"), ensure_ascii=False)``."""
    if type(value) is str:
        return encode_basestring(value)
    if _C_ENCODE is None:  # an interpreter without the C accelerator
        return _ENCODER.encode(value)
    return "".join(_C_ENCODE(value, 0))


class JSONText:
    """A value given as its ``compact`` JSON text, in a protocol observation.

    It is not a ``str`` on purpose: ``json.dumps`` refuses it instead of quoting it, so a
    consumer that does not know it fails loudly rather than sending a string in its place.
    ``parts``, when given, is the structure of the text: a list (the text is an array of the
    parts' texts) or a dict (an object of those members, in that order), each part a
    ``JSONText`` or a plain value. Equality is the text's alone.
    """

    __slots__ = ("text", "parts")

    def __init__(self, text: str, parts: list[Any] | dict[str, Any] | None = None) -> None:
        self.text = text
        self.parts = parts

    def __eq__(self, other: object) -> bool:
        return type(other) is JSONText and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"JSONText({self.text[:60]!r}{'...' if len(self.text) > 60 else ''})"

    def value(self) -> Any:
        """The value the text stands for (tests and tools; the protocol sends the text)."""
        return json.loads(self.text)


def text_of(value: Any) -> str:
    """The compact JSON text of a part: its own text, or its value encoded."""
    return value.text if type(value) is JSONText else compact(value)


def array_text(parts: list[Any]) -> JSONText:
    """An array of ``parts`` (``JSONText`` or plain values), as text with its parts."""
    return JSONText("[" + ",".join([text_of(p) for p in parts]) + "]", parts)


def plain(view: dict[str, Any]) -> dict[str, Any]:
    """A protocol observation with its ``JSONText`` values decoded: the observation itself."""
    return {k: v.value() if type(v) is JSONText else v for k, v in view.items()}
