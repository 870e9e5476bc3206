"""The bot protocol, versions 1 and 2: JSON lines over the bot's stdin and stdout.

One bot process per seat lives for the whole match. We send ``start`` (the
bot answers ``{"ready": true}``), then one ``decide`` per decision (the bot
answers with one action), then ``end``. ``start`` says ``"protocol": 1`` and
lists the versions the server speaks in ``protocols``; a bot that answers
``"protocol": 2`` in ``ready`` is sent every observation in protocol 2's shape
(``engine.protocol_v2``: ``seat``, ``you`` and ``decision`` mean the same in
every mode); any other bot gets protocol 1's messages, unchanged. stderr is the bot's log. Every
message is one JSON object on one line. docs/bot-protocol.md is the reference;
this module builds our messages and parses the bot's, and nothing else.

Legal actions can be thousands of placements, so their JSON form is cached
(per action for the whole match; placements for the process) and joined into
the message as text. Observations are encoded from texts the engine keeps
(``Game.protocol_observation``) and from the last decision's texts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from competition.faults import BotFault, FaultKind
from competition.limits import Limits
from engine import ENGINE_VERSION, Action, ActionCodec, Game, MalformedAction
from engine.actions import PlacementActions
from engine.boat import STRIDE, iter_bits
from engine.game_data import GAME_DATA_MODES, game_data, game_data_text
from engine.jsontext import JSONText, compact
from engine.protocol_v2 import PROTOCOLS, observation_v2

from .json_patch import observation_patch
from .marks import MarksError, parse_marks

PROTOCOL_VERSION = 1  # what start says, and what a bot that does not choose is spoken
JSON_PATCH = "json-patch"  # "deltas" of a ready answer asking for observation patches

# compact JSON without the cycle check (messages are plain trees): the engine's form, so the
# texts it builds ahead (``JSONText``) are exactly what encoding their values would give.
_dumps = compact
_CACHE_LIMIT = 500_000  # encoded actions kept per match before the cache is reset


def dumps_line(message: dict[str, Any]) -> bytes:
    """One protocol line: compact JSON and a newline."""
    return (_dumps(message) + "\n").encode()


_CELL_ROWS = 64  # rows of cell texts precomputed; taller boards fall back to formatting


def _cell_texts() -> list[str]:
    """``[x,y]`` of every cell index of the board (``y * STRIDE + x``), for fast encoding."""
    return [f"[{i % STRIDE},{i // STRIDE}]" for i in range(STRIDE * _CELL_ROWS)]


_CELL_TEXT = _cell_texts()


_PLACEMENT_TEXTS: dict[str, dict[int, str]] = {}  # kind -> placement mask -> action text
_PLACEMENT_TEXTS_LIMIT = 100_000  # per kind; the base game's boats have about 15,000
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
        """Placements straight from their masks: no Action objects, the same text. A seat
        seldom sees a placement twice in a match, but every boat of a mode has the same
        outline, so all matches of a process draw from one table of a few ten thousand
        placements: their texts are kept for the process (``_PLACEMENT_TEXTS``), and after
        a few matches nearly every placement is found there."""
        head = self._cell_heads[legal.kind]
        texts = _PLACEMENT_TEXTS.setdefault(legal.kind, {})
        if len(texts) + len(legal) > _PLACEMENT_TEXTS_LIMIT:
            texts.clear()
        parts = []
        append = parts.append
        for mask in legal.masks():
            text = texts.get(mask)
            if text is None:
                text = texts[mask] = head + _cells_text(mask) + "}"
            append(text)
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


def _start_head(game: Game, seat: int, limits: Limits) -> dict[str, Any]:
    return {
        "type": "start",
        "protocol": PROTOCOL_VERSION,
        "protocols": list(PROTOCOLS),
        "engine_version": ENGINE_VERSION,
        "mode": game.mode,
        "seat": seat,
        "seats": game.seats,
        "options": dict(game.options),
        "limits": limits.protocol_view(),
        "catalogue": game.codec.catalogue(),
    }


def start_message(game: Game, seat: int, limits: Limits) -> dict[str, Any]:
    """The ``start`` message, with the mode's ``game_data`` (``engine.game_data``: cards,
    boats, shapes, the Duel's island) last; a mode without game data (tests' toy modes) has
    none. The game data is shared by every match of the mode: do not change it."""
    message = _start_head(game, seat, limits)
    if game.mode in GAME_DATA_MODES:
        message["game_data"] = game_data(game.mode)
    return message


def start_line(game: Game, seat: int, limits: Limits) -> bytes:
    """``dumps_line(start_message(...))``, with the game data's text (about 100 KB, encoded
    once per mode and process: ``engine.game_data.game_data_text``) spliced in instead of
    encoded again at every launch."""
    text = _dumps(_start_head(game, seat, limits))
    if game.mode in GAME_DATA_MODES:
        text = f'{text[:-1]},"game_data":{game_data_text(game.mode)}}}'
    return (text + "\n").encode()


def decide_line(
    step: int, seat: int, observation: dict[str, Any], legal_json: str, limit: float, bank: float
) -> bytes:
    """The ``decide`` message as bytes; ``legal_json`` comes from ``LegalEncoder``."""
    return _decide_text(step, seat, "observation", _dumps(observation), legal_json, limit, bank)


def _decide_text(
    step: int, seat: int, key: str, observation_json: str, legal_json: str, limit: float,
    bank: float,
) -> bytes:
    """The line in one formatting pass: its few numbers encoded one by one (no dict to walk),
    the big texts copied once."""
    time_text = f'{{"limit":{_dumps(round(limit, 6))},"bank":{_dumps(round(max(bank, 0.0), 6))}}}'
    return (
        f'{{"type":"decide","step":{_dumps(step)},"seat":{_dumps(seat)},"time":{time_text},'
        f'"{key}":{observation_json},"legal":{legal_json}}}\n'
    ).encode()


_ITEMWISE_CHARS = 200  # a list or object whose last text was shorter is encoded whole


class ObservationEncoder:
    """One seat's successive observations as JSON text, for the whole match.

    The JSON text of each top-level value is kept with the value; when the next observation
    has an equal value under that key (most do: a decision changes a field, a boat or the
    supply, rarely all of them), its text is reused instead of encoded again, so the cost
    follows what changed. Values given as ``JSONText`` (``Game.protocol_observation``: the
    boats, the fields, the supply) are compared and sent as text. With ``deltas`` (the bot
    asked for them in its ``ready`` answer) every observation after the first is sent as its
    difference from the previous one, in the form docs/bot-protocol.md describes:
    ``{"set": {key: value, ...}, "remove": [key]}`` under ``observation_delta``, where ``set``
    holds the top-level keys whose value changed or is new and ``remove`` the keys that are
    gone. With ``deltas="json-patch"`` it is sent as an RFC 6902 JSON Patch under
    ``observation_patch`` (``workers.protocol.json_patch``), which descends into the values.
    """

    def __init__(self, deltas: bool | str = False) -> None:
        if deltas not in (False, True, JSON_PATCH):
            raise ValueError(f"deltas is true, false or {JSON_PATCH!r}, not {deltas!r}")
        self.deltas = deltas
        self._previous: dict[str, Any] | None = None  # the last observation (patches)
        self._kept: dict[str, tuple[Any, str]] = {}  # key -> (value, '"key":text')
        self._keys: dict[str, str] = {}  # key -> its JSON string
        self._items: dict[str, dict[Any, tuple[Any, str]]] = {}  # key -> item -> (value, text)
        self._sent = False

    def _key(self, key: str) -> str:
        text = self._keys.get(key)
        if text is None:
            text = self._keys[key] = _dumps(key)
        return text

    def _encode_value(self, key: str, value: Any, last: str | None) -> str:
        """A changed top-level value; in a big list or object (boats, the island: ``last``,
        the ``"key":text`` it was last sent as, was long), the items equal to the last ones
        keep their text. A small one is encoded whole, which costs half of reusing its items'
        texts."""
        if type(value) is JSONText:
            self._items.pop(key, None)
            return value.text
        if not isinstance(value, (list, dict)) or last is None or len(last) < _ITEMWISE_CHARS:
            self._items.pop(key, None)
            return _dumps(value)
        items = value.items() if isinstance(value, dict) else enumerate(value)
        cache = self._items.setdefault(key, {})
        fresh: dict[Any, tuple[Any, str]] = {}
        parts = []
        for sub, item in items:
            hit = cache.get(sub)
            if hit is not None and type(hit[0]) is type(item) and hit[0] == item:
                text = hit[1]
            else:
                text = _dumps(item)
            fresh[sub] = (item, text)
            parts.append(f"{self._key(sub)}:{text}" if isinstance(value, dict) else text)
        self._items[key] = fresh
        if isinstance(value, dict):
            return "{" + ",".join(parts) + "}"
        return "[" + ",".join(parts) + "]"

    def encode(self, observation: dict[str, Any]) -> tuple[str, str]:
        """(message key, JSON text): ``observation`` and the whole, or ``observation_delta``
        (``observation_patch``) and the difference from the previous call's observation. A
        value is unchanged when it has the type and the value it had (``JSONText``: the same
        text, a string comparison instead of a walk through the value)."""
        if self.deltas == JSON_PATCH:
            previous, self._previous = self._previous, observation
            if previous is not None:  # the caller hands a fresh observation each time
                return "observation_patch", observation_patch(previous, observation)
        kept = self._kept
        parts, changed = [], []
        for key, value in observation.items():
            old = kept.get(key)
            if old is not None and type(old[0]) is type(value) and old[0] == value:
                part = old[1]
            else:
                part = f"{self._key(key)}:{self._encode_value(key, value, old and old[1])}"
                kept[key] = (value, part)
                changed.append(part)
            parts.append(part)
        removed = [k for k in kept if k not in observation] if len(kept) > len(parts) else []
        for key in removed:
            del kept[key]
            self._items.pop(key, None)
        if not self.deltas or not self._sent:
            self._sent = True
            return "observation", "{" + ",".join(parts) + "}"
        gone = ",".join(self._key(k) for k in removed)
        return "observation_delta", '{"set":{' + ",".join(changed) + '},"remove":[' + gone + "]}"


def apply_observation_delta(previous: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """The observation a delta describes, from the previous one (what a bot does; used by the
    tests and the example bot's twin in docs/bot-protocol.md)."""
    current = {**previous, **delta["set"]}
    for key in delta["remove"]:
        current.pop(key, None)
    return current


def decide_for(
    game: Game, seat: int, legal: Sequence[Action], encoder: LegalEncoder, limit: float,
    bank: float, observations: ObservationEncoder | None = None, protocol: int = 1,
) -> bytes:
    """The ``decide`` line the runner sends ``seat`` now (``legal`` is the seat's legal
    actions). Everything in it is what the seat may know: its observation (whole, or as a
    delta or a patch through ``observations``), its legal actions and ``step``, the number of
    decisions it has taken itself (``Game.seat_step``; the number of all actions would count
    other seats' hidden answers). ``protocol``: the version the bot chose in ``ready``."""
    if observations is None:
        observation = game.observation(seat)
        if protocol == 2:
            observation = observation_v2(observation)
        key, text = "observation", _dumps(observation)
    else:
        observation = game.protocol_observation(seat)
        if protocol == 2:
            observation = observation_v2(observation)
        key, text = observations.encode(observation)
    return _decide_text(game.seat_step(seat), seat, key, text, encoder.encode_list(legal),
                        limit, bank)  # fmt: skip


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


@dataclass(frozen=True)
class Ready:
    """A parsed answer to ``start``: the name the bot gives itself, and the observation
    deltas it asked for: ``False`` (none), ``True`` (top-level ``observation_delta``) or
    ``JSON_PATCH`` (``observation_patch``), what ``ObservationEncoder`` takes; and the
    protocol version it chose (1 unless it said ``"protocol": 2``)."""

    name: str | None
    deltas: bool | str
    protocol: int = PROTOCOL_VERSION


def parse_ready_reply(line: bytes) -> Ready:
    """Check the answer to ``start``."""
    obj = _load_object(line, "the answer to start")
    if obj.get("ready") is not True:
        raise BotFault(FaultKind.BAD_OUTPUT, 'the answer to start must be {"ready": true}')
    deltas = obj.get("deltas", False)
    if not isinstance(deltas, bool) and deltas != JSON_PATCH:
        raise BotFault(FaultKind.BAD_OUTPUT,
                       f'"deltas" in the answer to start is true, false or "{JSON_PATCH}", '
                       f"not {deltas!r:.40}")  # fmt: skip
    protocol = obj.get("protocol", PROTOCOL_VERSION)
    if type(protocol) is not int or protocol not in PROTOCOLS:
        raise BotFault(FaultKind.BAD_OUTPUT,
                       f'"protocol" in the answer to start is one of '
                       f"{', '.join(map(str, PROTOCOLS))}, not {protocol!r:.40}")  # fmt: skip
    name = obj.get("name")
    return Ready(name[:80] if isinstance(name, str) else None, deltas, protocol)


def parse_ready(line: bytes) -> str | None:
    """Check the answer to ``start``; returns the name the bot gives itself, if any."""
    return parse_ready_reply(line).name


@dataclass(frozen=True)
class Reply:
    """A parsed answer to ``decide``: exactly one of ``index`` or ``action`` is set."""

    index: int | None
    action: Action | None
    debug: str | None
    marks: list[dict[str, Any]] | None = None  # workers/protocol/marks.py


# The most common reply, ``{"index": i}`` alone, in any JSON spacing: read without the JSON
# decoder (a third of the time). Anything else (a sign, leading zeros, a long number, other
# keys) goes the general way, which gives the same Reply for what this accepts.
_INDEX_ONLY = re.compile(rb'[ \t\n\r]*\{[ \t\n\r]*"index"[ \t\n\r]*:[ \t\n\r]*'
                         rb'(0|[1-9][0-9]{0,17})[ \t\n\r]*\}[ \t\n\r]*')


def parse_reply(line: bytes, codec: ActionCodec, debug_chars: int) -> Reply:
    """Parse a reply: ``{"index": i}`` or an action object, either with an optional
    ``debug`` string. A malformed reply is ``bad_output``; legality is checked by the caller."""
    index_only = _INDEX_ONLY.fullmatch(line)
    if index_only is not None:
        return Reply(int(index_only[1]), None, None)
    obj = _load_object(line, "the reply")
    debug = obj.pop("debug", None)
    if debug is not None and not isinstance(debug, str):
        raise BotFault(FaultKind.BAD_OUTPUT, "debug must be a string")
    if debug is not None:
        debug = debug[:debug_chars]
    marks = None
    if "marks" in obj:
        try:
            marks = parse_marks(obj.pop("marks"))
        except MarksError as exc:
            raise BotFault(FaultKind.BAD_OUTPUT, f"marks: {exc}") from None
    # An action object is recognised by its "kind": some actions have a field named "index"
    # (rescue: the cat's place in its field), so "index" alone does not make an index reply.
    if "index" in obj and "kind" not in obj:
        index = obj.pop("index")
        if obj:
            raise BotFault(FaultKind.BAD_OUTPUT, f"unexpected key(s) {sorted(obj)} next to index")
        if isinstance(index, bool) or not isinstance(index, int):
            raise BotFault(FaultKind.BAD_OUTPUT, f"index must be an integer, not {index!r:.40}")
        return Reply(index, None, debug, marks)
    if "kind" not in obj:
        raise BotFault(
            FaultKind.BAD_OUTPUT, 'a reply is an action object (with "kind") or {"index": i}'
        )
    try:
        action = codec.decode(obj)
    except MalformedAction as exc:
        raise BotFault(FaultKind.BAD_OUTPUT, f"malformed action: {exc.reason}") from None
    return Reply(None, action, debug, marks)
