"""The replay file format: a zstd-compressed msgpack document (see docs/replay-format.md).

Pure: no Django import, so ``python -m arena verify`` and the workers can use it. One
document holds the header (format and engine versions, mode, options, seed, seats, time
limits, start and end times), the action log, the faults, the final result and the final
state hash. Actions are stored positionally (``[kind, field, ...]``, cells as cell
indices ``y * 23 + x``) and the header carries the mode's action catalogue, so any msgpack
reader can rebuild the JSON form of every action without our code.

Old decoders are kept: ``DECODERS`` maps every format version ever written to the function
that upgrades its document to the current in-memory shape.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgpack
import zstandard

from engine.boat import STRIDE
from engine.game import Game
from engine.version import ENGINE_VERSION

FORMAT_VERSION = 1
MAGIC = "isle-arena-replay"
ZSTD_LEVEL = 19
MAX_DECOMPRESSED = 64 * 1024 * 1024  # a replay is kilobytes; refuse decompression bombs


class ReplayError(ValueError):
    """The bytes are not a replay we can read (garbage, truncated, unknown version)."""


# --- actions ------------------------------------------------------------------------------


def catalogue_of(game: Game) -> dict[str, list[list[str]]]:
    """``kind -> [[field, type], ...]``: what a reader needs to name positional fields."""
    return {kind: [list(f) for f in spec.fields] for kind, spec in game.codec.specs.items()}


def compact_action(action_json: Mapping[str, Any], catalogue: Mapping[str, Any]) -> list[Any]:
    """JSON form -> ``[kind, field, ...]`` with cells as cell indices."""
    kind = action_json["kind"]
    fields = catalogue.get(kind)
    if fields is None:
        raise ReplayError(f"action kind {kind!r} is not in the mode's catalogue")
    out: list[Any] = [kind]
    for name, ftype in fields:
        value = action_json[name]
        if ftype == "cells":
            value = [y * STRIDE + x for x, y in value]
        out.append(value)
    return out


def expand_action(compact: Sequence[Any], catalogue: Mapping[str, Any]) -> dict[str, Any]:
    """``[kind, field, ...]`` -> the JSON form the engine's codec decodes."""
    if not compact or not isinstance(compact[0], str):
        raise ReplayError(f"malformed action {compact!r}")
    kind = compact[0]
    fields = catalogue.get(kind)
    if fields is None or len(fields) != len(compact) - 1:
        raise ReplayError(f"action {list(compact)!r} does not match the catalogue")
    out: dict[str, Any] = {"kind": kind}
    for (name, ftype), value in zip(fields, compact[1:], strict=True):
        if ftype == "cells":
            value = [[i % STRIDE, i // STRIDE] for i in value]
        out[name] = value
    return out


# --- documents ----------------------------------------------------------------------------


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def document_from_game(
    game: Game,
    steps: Sequence[Mapping[str, Any]],
    header_extra: Mapping[str, Any] | None = None,
    *,
    faults: Sequence[Mapping[str, Any]] | None = None,
    result: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The replay document of a played game.

    ``steps`` are ``{"seat", "action" (JSON form), "seconds", "note", "cpu"}`` in play order (the
    runner's action log). ``header_extra`` adds or overrides header keys: ``players``
    (``[{"seat", "bot", "version", "sha256"}]``), ``time_limits``, ``started_at``,
    ``ended_at``, ``match_id``... ``result`` overrides ``game.result()`` when the match
    ended outside the rules (a forfeit); it defaults to the game's result, or None when the
    game is unfinished.
    """
    catalogue = catalogue_of(game)
    header: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "engine_version": ENGINE_VERSION,
        "mode": game.mode,
        "seats": game.seats,
        "seed": game.seed,
        "options": dict(game.options),
        "players": [{"seat": s, "bot": None, "version": None, "sha256": None}
                    for s in range(game.seats)],
        "time_limits": {},
        "started_at": None,
        "ended_at": _now(),
        "actions": catalogue,
    }
    header.update(dict(header_extra or {}))
    log = []
    for step in steps:
        seconds = step.get("seconds")
        micros = None if seconds is None else round(float(seconds) * 1_000_000)
        row = [int(step["seat"]), compact_action(step["action"], catalogue), micros]
        note, cpu = step.get("note"), step.get("cpu")
        if note or cpu is not None:
            row.append(str(note) if note else None)
        if cpu is not None:  # the CPU time charged: a fifth element, so v1 readers still read
            row.append(round(float(cpu) * 1_000_000))
        log.append(row)
    if result is None and game.is_over():
        result = game.result()
    return {
        "magic": MAGIC,
        "format_version": FORMAT_VERSION,
        "header": header,
        "steps": log,
        "faults": [dict(f) for f in faults or ()],
        "result": dict(result) if result is not None else None,
        "state_hash": game.state_hash(),
    }


def steps_of(doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The log as ``{"seat", "action" (JSON form), "seconds", "note", "cpu"}`` dicts."""
    catalogue = doc["header"]["actions"]
    out = []
    for row in doc["steps"]:
        micros = row[2]
        step = {
            "seat": row[0],
            "action": expand_action(row[1], catalogue),
            "seconds": None if micros is None else micros / 1_000_000,
            "note": row[3] if len(row) > 3 else None,
        }
        if len(row) > 4 and row[4] is not None:
            step["cpu"] = row[4] / 1_000_000
        out.append(step)
    return out


# --- bytes --------------------------------------------------------------------------------


def encode(doc: Mapping[str, Any]) -> bytes:
    """Document -> compressed bytes. Deterministic for a given document."""
    packed = msgpack.packb(doc, use_bin_type=True)
    return zstandard.ZstdCompressor(level=ZSTD_LEVEL).compress(packed)


def _decode_v1(doc: dict[str, Any]) -> dict[str, Any]:
    for key in ("header", "steps", "faults", "result", "state_hash"):
        if key not in doc:
            raise ReplayError(f"the replay has no {key!r} section")
    header = doc["header"]
    if not isinstance(header, dict) or not isinstance(doc["steps"], list):
        raise ReplayError("the replay's header or steps have the wrong type")
    for key in ("mode", "seats", "seed", "options", "actions"):
        if key not in header:
            raise ReplayError(f"the replay header has no {key!r}")
    for i, row in enumerate(doc["steps"]):
        if not isinstance(row, list) or len(row) < 3 or not isinstance(row[1], list):
            raise ReplayError(f"step {i} of the replay is malformed")
    return doc


# format version -> upgrade of a decoded document to the current shape. Never remove one.
DECODERS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _decode_v1}


def decode(data: bytes) -> dict[str, Any]:
    """Compressed bytes -> document; ``ReplayError`` with a clear reason on bad input."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ReplayError("a replay is bytes")
    try:
        packed = zstandard.ZstdDecompressor().decompress(
            bytes(data), max_output_size=MAX_DECOMPRESSED
        )
    except zstandard.ZstdError as exc:
        raise ReplayError(f"not a zstd-compressed replay ({exc})") from None
    try:
        doc = msgpack.unpackb(packed, raw=False, strict_map_key=False)
    except (msgpack.UnpackException, ValueError) as exc:
        raise ReplayError(f"the replay is not valid msgpack ({exc})") from None
    if not isinstance(doc, dict) or doc.get("magic") != MAGIC:
        raise ReplayError("not an Isle Arena replay (no magic marker)")
    version = doc.get("format_version")
    decoder = DECODERS.get(version) if isinstance(version, int) else None
    if decoder is None:
        known = ", ".join(map(str, sorted(DECODERS)))
        raise ReplayError(f"unknown replay format version {version!r} (this build reads {known})")
    return decoder(doc)


def write_replay(
    path: str | os.PathLike[str],
    game: Game,
    steps: Sequence[Mapping[str, Any]],
    header_extra: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> bytes:
    """Write the replay of ``game`` to ``path``; returns the bytes written."""
    data = encode(document_from_game(game, steps, header_extra, **kwargs))
    Path(path).write_bytes(data)
    return data


def read_replay(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and decode a replay file (``OSError`` if unreadable, ``ReplayError`` if garbage)."""
    return decode(Path(path).read_bytes())
