"""The bot protocol, version 1: JSON lines over the bot's stdin and stdout.

One bot process per seat lives for the whole match. We send ``start`` (the
bot answers ``{"ready": true}``), then one ``decide`` per decision (the bot
answers with one action), then ``end``. stderr is the bot's log. Every
message is one JSON object on one line. docs/bot-protocol.md is the reference;
this module builds our messages and parses the bot's, and nothing else.

Legal actions can be thousands of placements, so their JSON form is cached
per action for the whole match and joined into the message as text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import ENGINE_VERSION, Action, ActionCodec, Game, MalformedAction
from engine.actions import PlacementActions
from engine.boat import STRIDE, iter_bits

from .faults import BotFault, FaultKind
from .limits import Limits

PROTOCOL_VERSION = 1

# the engine builds messages from plain trees (no cycles), so the encoder skips its cycle
# check: 15% faster on an observation.
_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False).encode
_CACHE_LIMIT = 500_000  # encoded actions kept per match before the cache is reset


def dumps_line(message: dict[str, Any]) -> bytes:
    """One protocol line: compact JSON and a newline."""
    return (_dumps(message) + "\n").encode()


_CELL_ROWS = 64  # rows of cell texts precomputed; taller boards fall back to formatting


def _cell_texts() -> list[str]:
    """``[x,y]`` of every cell index of the board (``y * STRIDE + x``), for fast encoding."""
    return [f"[{i % STRIDE},{i // STRIDE}]" for i in range(STRIDE * _CELL_ROWS)]


_CELL_TEXT = _cell_texts()


_OFFSETS: dict[int, list[int]] = {}  # a mask shifted to bit 0 -> its set bits' indices
_OFFSETS_LIMIT = 4096  # distinct shapes kept (a game has a few hundred orientations)


def _cells_text(mask: int) -> str:
    """``[[x,y],...]`` of a mask. A placement is a shape's orientation shifted to its anchor,
    so the bit positions of the shifted-down mask are looked up once per orientation and the
    texts come from the table: no bit scan of the long board-sized integer per placement."""
    if not mask:
        return "[]"
    base = (mask & -mask).bit_length() - 1
    norm = mask >> base
    offsets = _OFFSETS.get(norm)
    if offsets is None:
        if len(_OFFSETS) >= _OFFSETS_LIMIT:
            _OFFSETS.clear()
        offsets = _OFFSETS[norm] = list(iter_bits(norm))
    table = _CELL_TEXT
    try:
        return "[" + ",".join([table[base + o] for o in offsets]) + "]"
    except IndexError:  # a board taller than the table
        return "[" + ",".join(f"[{i % STRIDE},{i // STRIDE}]" for i in iter_bits(mask)) + "]"


_FIELD_TEXT: dict[str, Callable[[Any], str]] = {
    "int": str,
    "str": _dumps,
    "colour": _dumps,
    "cells": _cells_text,
    "ints": lambda values: "[" + ",".join(map(str, values)) + "]",
}


def _kind_encoder(kind: str, fields: Sequence[tuple[str, str]]) -> Callable[[Action], str]:
    """The text builder of one action kind: its constant parts joined once, here."""
    head = _dumps({"kind": kind})[:-1]
    if not fields:
        text = head + "}"
        return lambda action: text
    if len(fields) == 1:  # most actions: one field (a card, a placement's cells)
        (name, ftype), = fields
        prefix, encode = f'{head},"{name}":', _FIELD_TEXT[ftype]
        return lambda action: prefix + encode(action[1]) + "}"
    labels = [(f',"{name}":', _FIELD_TEXT[ftype]) for name, ftype in fields]

    def encode_many(action: Action) -> str:
        parts = [head]
        for (label, encode), value in zip(labels, action[1:], strict=True):
            parts.append(label)
            parts.append(encode(value))
        parts.append("}")
        return "".join(parts)

    return encode_many


class LegalEncoder:
    """Encodes lists of legal actions to a JSON array, caching each action's text.

    Each action's JSON text is built directly (a placement's cells from a table of cell
    texts, by a builder made once per action kind) and cached for the match, since actions
    recur from one decision to the next. The text is exactly
    ``json.dumps(codec.encode(action))`` without spaces.
    """

    def __init__(self, codec: ActionCodec) -> None:
        self.codec = codec
        self._cache: dict[Action, str] = {}
        self._kinds = {kind: _kind_encoder(kind, spec.fields) for kind, spec in codec.specs.items()}
        self._cell_heads = {  # kinds whose one field is a placement's cells
            kind: _dumps({"kind": kind})[:-1] + f',"{spec.fields[0][0]}":'
            for kind, spec in codec.specs.items()
            if len(spec.fields) == 1 and spec.fields[0][1] == "cells"
        }

    def encode_one(self, action: Action) -> str:
        text = self._cache.get(action)
        if text is None:
            if len(self._cache) >= _CACHE_LIMIT:
                self._cache.clear()
            text = self._cache[action] = self._kinds[action[0]](action)
        return text

    def encode_list(self, legal: Sequence[Action]) -> str:
        if isinstance(legal, PlacementActions) and legal.kind in self._cell_heads:
            return self._encode_placements(legal)
        return self._encode_actions(legal)

    def _encode_placements(self, legal: PlacementActions) -> str:
        """Placements straight from their masks: no Action objects, no cache (a placement
        seldom recurs), the same text."""
        head = self._cell_heads[legal.kind]
        parts = [head + _cells_text(mask) + "}" for mask in legal.masks()]
        before, after = self._encode_actions(legal.before), self._encode_actions(legal.after)
        return "[" + ",".join(x for x in (before[1:-1], ",".join(parts), after[1:-1]) if x) + "]"

    def _encode_actions(self, legal: Sequence[Action]) -> str:
        cache = self._cache
        if len(cache) + len(legal) > _CACHE_LIMIT:
            cache.clear()
        kinds = self._kinds
        parts = []
        append = parts.append
        for action in legal:
            text = cache.get(action)
            if text is None:
                text = cache[action] = kinds[action[0]](action)
            append(text)
        return "[" + ",".join(parts) + "]"


def start_message(game: Game, seat: int, limits: Limits) -> dict[str, Any]:
    return {
        "type": "start",
        "protocol": PROTOCOL_VERSION,
        "engine_version": ENGINE_VERSION,
        "mode": game.mode,
        "seat": seat,
        "seats": game.seats,
        "options": dict(game.options),
        "limits": limits.protocol_view(),
        "catalogue": game.codec.catalogue(),
    }


def decide_line(
    step: int, seat: int, observation: dict[str, Any], legal_json: str, limit: float, bank: float
) -> bytes:
    """The ``decide`` message as bytes; ``legal_json`` comes from ``LegalEncoder``."""
    head = _dumps(
        {
            "type": "decide",
            "step": step,
            "seat": seat,
            "time": {"limit": round(limit, 6), "bank": round(max(bank, 0.0), 6)},
        }
    )
    return (
        head[:-1] + ',"observation":' + _dumps(observation) + ',"legal":' + legal_json + "}\n"
    ).encode()


def decide_for(
    game: Game, seat: int, legal: Sequence[Action], encoder: LegalEncoder, limit: float,
    bank: float,
) -> bytes:
    """The ``decide`` line the runner sends ``seat`` now (``legal`` is the seat's legal
    actions). Everything in it is what the seat may know: its observation, its legal actions
    and ``step``, the number of decisions it has taken itself (``Game.seat_step``; the number
    of all actions would count other seats' hidden answers)."""
    return decide_line(game.seat_step(seat), seat, game.observation(seat),
                       encoder.encode_list(legal), limit, bank)


def end_message(seat: int, result: dict[str, Any]) -> dict[str, Any]:
    return {"type": "end", "seat": seat, "result": result}


def _load_object(line: bytes, what: str) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except (ValueError, UnicodeDecodeError) as exc:
        preview = line[:80].decode("utf-8", "replace")
        raise BotFault(FaultKind.BAD_OUTPUT, f"{what} is not JSON ({exc}): {preview!r}") from None
    if not isinstance(value, dict):
        raise BotFault(FaultKind.BAD_OUTPUT, f"{what} must be a JSON object, not {value!r:.80}")
    return value


def parse_ready(line: bytes) -> str | None:
    """Check the answer to ``start``; returns the name the bot gives itself, if any."""
    obj = _load_object(line, "the answer to start")
    if obj.get("ready") is not True:
        raise BotFault(FaultKind.BAD_OUTPUT, 'the answer to start must be {"ready": true}')
    name = obj.get("name")
    return name[:80] if isinstance(name, str) else None


@dataclass(frozen=True)
class Reply:
    """A parsed answer to ``decide``: exactly one of ``index`` or ``action`` is set."""

    index: int | None
    action: Action | None
    debug: str | None


def parse_reply(line: bytes, codec: ActionCodec, debug_chars: int) -> Reply:
    """Parse a reply: ``{"index": i}`` or an action object, either with an optional
    ``debug`` string. A malformed reply is ``bad_output``; legality is checked by the caller."""
    obj = _load_object(line, "the reply")
    debug = obj.pop("debug", None)
    if debug is not None and not isinstance(debug, str):
        raise BotFault(FaultKind.BAD_OUTPUT, "debug must be a string")
    if debug is not None:
        debug = debug[:debug_chars]
    # An action object is recognised by its "kind": some actions have a field named "index"
    # (rescue: the cat's place in its field), so "index" alone does not make an index reply.
    if "index" in obj and "kind" not in obj:
        index = obj.pop("index")
        if obj:
            raise BotFault(FaultKind.BAD_OUTPUT, f"unexpected key(s) {sorted(obj)} next to index")
        if isinstance(index, bool) or not isinstance(index, int):
            raise BotFault(FaultKind.BAD_OUTPUT, f"index must be an integer, not {index!r:.40}")
        return Reply(index, None, debug)
    if "kind" not in obj:
        raise BotFault(
            FaultKind.BAD_OUTPUT, 'a reply is an action object (with "kind") or {"index": i}'
        )
    try:
        action = codec.decode(obj)
    except MalformedAction as exc:
        raise BotFault(FaultKind.BAD_OUTPUT, f"malformed action: {exc.reason}") from None
    return Reply(None, action, debug)
