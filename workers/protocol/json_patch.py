"""Observation patches: the RFC 6902 JSON Patch that turns a seat's last observation into
its next one, as the text we send (``"observation_patch"``, docs/bot-protocol.md).

Only three operations are used: ``add`` (``-`` as the last path segment appends to an
array), ``remove`` and ``replace``; paths are RFC 6901 pointers. The patch is minimal where
that is cheap to find: a tile put on a boat is one ``add`` at ``/players/2/tiles/-``, a
changed number one ``replace``, a card leaving a hand one ``remove``; items of an array are
matched by position after its equal head and tail, and a container whose operations would
be longer than its whole text is replaced whole.

The diff never decodes a text. A protocol observation (``Game.protocol_observation``) holds
``JSONText`` values that carry their parts (``JSONText.parts``); two texts are equal when
they are the same object or the same string, and only where they differ does the diff
descend into their parts. Plain values (every value of a mode whose protocol observation
is plain, such as the Duel) are compared by type and value and descended the same way.
"""

from __future__ import annotations

from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any

from engine.jsontext import JSONText, compact, text_of

_MISSING = object()
_SEGMENTS: dict[str, str] = {}  # object key -> "/" and its RFC 6901 escaped form
_SEGMENTS_LIMIT = 10_000


def _segment(key: str) -> str:
    segment = _SEGMENTS.get(key)
    if segment is None:
        if len(_SEGMENTS) >= _SEGMENTS_LIMIT:
            _SEGMENTS.clear()
        segment = _SEGMENTS[key] = "/" + key.replace("~", "~0").replace("/", "~1")
    return segment


_REPLACE_CHARS = len('{"op":"replace","path":"","value":}')  # (a path without escapes)


def _replace(path: str, text: str) -> str:
    return f'{{"op":"replace","path":{encode_basestring(path)},"value":{text}}}'


def _add(path: str, text: str) -> str:
    return f'{{"op":"add","path":{encode_basestring(path)},"value":{text}}}'


def _remove(path: str) -> str:
    return f'{{"op":"remove","path":{encode_basestring(path)}}}'


def _same(a: Any, b: Any) -> bool:
    """Equal JSON, as far as a cheap check tells: texts by their strings (identity first),
    plain values by type and value (inside plain containers Python's ``==`` holds ``1``,
    ``1.0`` and ``True`` equal; an observation never swaps one for another in one place)."""
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is JSONText:
        return a.text == b.text
    return a == b


def observation_patch(old: dict[str, Any], new: dict[str, Any]) -> str:
    """The JSON text of the patch from observation ``old`` to ``new`` (protocol
    observations: top-level values plain or ``JSONText``)."""
    ops: list[str] = []
    _diff_object(old, new, "", ops)
    return "[" + ",".join(ops) + "]"


def _diff(old: Any, new: Any, path: str, out: list[str]) -> None:
    """Append to ``out`` the operations that turn ``old`` into ``new`` at ``path``."""
    if old is new:
        return
    kind = type(new)
    if kind is JSONText:
        if type(old) is not JSONText:
            out.append(_replace(path, new.text))
            return
        if old.text == new.text:
            return
        parts, old_parts = new.parts, old.parts
        if parts is None or old_parts is None or type(parts) is not type(old_parts):
            out.append(_replace(path, new.text))
            return
        _descend(old_parts, parts, path, out, new.text)
        return
    if kind is not type(old):
        out.append(_replace(path, text_of(new)))
    elif kind is list or kind is dict:
        if old != new:
            _descend(old, new, path, out, None)
    elif old != new:
        out.append(_replace(path, compact(new)))


def _descend(old: Any, new: Any, path: str, out: list[str], text: str | None) -> None:
    """The operations inside a container (``text``: its new text, when known), or one
    ``replace`` of the whole when that is shorter."""
    ops: list[str] = []
    if type(new) is list:
        _diff_array(old, new, path, ops)
    else:
        _diff_object(old, new, path, ops)
    if len(ops) > 1:
        if text is None:
            text = compact(new)
        if len(text) + len(path) + _REPLACE_CHARS <= sum(map(len, ops)):
            out.append(_replace(path, text))
            return
    out.extend(ops)


def _diff_object(old: dict[str, Any], new: dict[str, Any], path: str, out: list[str]) -> None:
    added = 0
    get = old.get
    for key, value in new.items():  # ``_same`` inlined: most members are equal
        before = get(key, _MISSING)
        if before is value:
            continue
        kind = type(value)
        if kind is type(before):
            if kind is JSONText:
                if before.text == value.text:
                    continue
            elif before == value:
                continue
        elif before is _MISSING:
            added += 1
            out.append(_add(path + _segment(key), text_of(value)))
            continue
        _diff(before, value, path + _segment(key), out)
    if len(old) > len(new) - added:  # some keys of old are gone
        out.extend(_remove(path + _segment(key)) for key in old if key not in new)


def _diff_array(old: list[Any], new: list[Any], path: str, out: list[str]) -> None:
    """Items matched by position after the equal head and tail: the middle of the new array
    replaces the middle of the old one item by item, and what is left of the longer middle is
    added (appended with ``-`` when there is no tail) or removed (last index first)."""
    n, m = len(old), len(new)
    short = min(n, m)
    head = 0
    while head < short:  # the same objects (a boat's tiles) are told apart without a call
        a, b = old[head], new[head]
        if a is not b and not _same(a, b):
            break
        head += 1
    tail = 0
    while tail < short - head:
        a, b = old[n - 1 - tail], new[m - 1 - tail]
        if a is not b and not _same(a, b):
            break
        tail += 1
    common = short - tail  # the end of the items matched by position
    for k in range(head, common):
        if not _same(old[k], new[k]):
            _diff(old[k], new[k], f"{path}/{k}", out)
    if m > n:
        if tail == 0:
            out.extend(_add(path + "/-", text_of(new[k])) for k in range(common, m))
        else:
            out.extend(_add(f"{path}/{k}", text_of(new[k])) for k in range(common, m - tail))
    elif n > m:
        out.extend(_remove(f"{path}/{k}") for k in range(n - tail - 1, common - 1, -1))


class PatchError(ValueError):
    """A patch that does not apply: an unknown operation or a path to nowhere."""


def _unescape(segment: str) -> str:
    return segment.replace("~1", "/").replace("~0", "~")


def apply_patch(document: Any, patch: list[dict[str, Any]]) -> Any:
    """Apply a patch of ``add``, ``remove`` and ``replace`` operations the way RFC 6902 says,
    checking every path (the tests' and tools' reference; ``document`` is changed in place
    and returned, a new one when the root is replaced). What a bot does, in full."""
    for op in patch:
        kind, path = op.get("op"), op.get("path")
        if kind not in ("add", "remove", "replace") or not isinstance(path, str):
            raise PatchError(f"not an add, remove or replace operation: {op!r:.80}")
        if set(op) != ({"op", "path"} if kind == "remove" else {"op", "path", "value"}):
            raise PatchError(f"unexpected members in {op!r:.80}")
        if path == "":
            if kind == "remove":
                raise PatchError("the root cannot be removed")
            document = op["value"]
            continue
        if not path.startswith("/"):
            raise PatchError(f"a path starts with '/': {path!r}")
        *parents, last = [_unescape(s) for s in path[1:].split("/")]
        target = document
        for segment in parents:
            target = _child(target, segment, path)
        if isinstance(target, list):
            size = len(target)
            if kind == "add" and last == "-":
                target.append(op["value"])
                continue
            index = _index(last, path)
            if index > size or (kind != "add" and index == size):
                raise PatchError(f"index out of range: {path!r}")
            if kind == "add":
                target.insert(index, op["value"])
            elif kind == "remove":
                del target[index]
            else:
                target[index] = op["value"]
        elif isinstance(target, dict):
            if kind != "add" and last not in target:
                raise PatchError(f"no member {last!r}: {path!r}")
            if kind == "remove":
                del target[last]
            else:
                target[last] = op["value"]
        else:
            raise PatchError(f"{path!r} goes inside a value that is not a container")
    return document


def _index(segment: str, path: str) -> int:
    leading_zero = segment != "0" and segment.startswith("0")
    if not (segment.isascii() and segment.isdigit()) or leading_zero:
        raise PatchError(f"not an array index: {segment!r} in {path!r}")
    return int(segment)


def _child(target: Any, segment: str, path: str) -> Any:
    if isinstance(target, list):
        index = _index(segment, path)
        if index >= len(target):
            raise PatchError(f"index out of range: {path!r}")
        return target[index]
    if isinstance(target, dict) and segment in target:
        return target[segment]
    raise PatchError(f"no such place: {path!r}")
