"""Replay benchmark: size of a replay per mode, encode/decode/verify times, frames payload.

    python bench/replays.py [--games 100] [--modes standard,family] [--json]

For every available mode, plays ``--games`` seeded games with random bots at the mode's
largest table, and reports medians: steps, replay bytes, encode, decode and verify times,
and the viewer's frames payload (JSON and gzip bytes, build time).
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgpack  # noqa: E402

from engine import available_modes, mode_class  # noqa: E402
from replays.format import decode, document_from_game, encode  # noqa: E402
from replays.frames import build_frames  # noqa: E402
from replays.recording import header_for_bots, play_recorded  # noqa: E402
from replays.verify import verify_document  # noqa: E402

FRAMES_SAMPLE = 10  # frames are built for this many games per mode (the slow part)


def _timed(fn: Any, *args: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - started


def bench_mode(mode: str, games: int) -> dict[str, Any]:
    seats = mode_class(mode).game_type.max_seats
    rows: dict[str, list[float]] = {k: [] for k in (
        "steps", "bytes", "msgpack_bytes", "encode_ms", "decode_ms", "verify_ms",
        "frames_ms", "frames_json_bytes", "frames_gzip_bytes")}
    for seed in range(games):
        game, steps = play_recorded(mode, seats, seed)
        doc = document_from_game(game, steps, header_for_bots(seats))
        data, t_enc = _timed(encode, doc)
        decoded, t_dec = _timed(decode, data)
        verdict, t_ver = _timed(verify_document, decoded)
        if not verdict.ok:
            raise SystemExit(f"{mode} seed {seed}: {verdict.message}")
        rows["steps"].append(len(steps))
        rows["bytes"].append(len(data))
        rows["msgpack_bytes"].append(len(msgpack.packb(doc)))
        rows["encode_ms"].append(t_enc * 1000)
        rows["decode_ms"].append(t_dec * 1000)
        rows["verify_ms"].append(t_ver * 1000)
        if seed < FRAMES_SAMPLE:
            payload, t_fr = _timed(build_frames, decoded)
            body = json.dumps(payload, separators=(",", ":")).encode()
            rows["frames_ms"].append(t_fr * 1000)
            rows["frames_json_bytes"].append(len(body))
            rows["frames_gzip_bytes"].append(len(gzip.compress(body, 6)))
    out: dict[str, Any] = {"mode": mode, "seats": seats, "games": games}
    for key, values in rows.items():
        out[key] = round(statistics.median(values), 2)
    out["bytes_max"] = max(rows["bytes"])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--modes", default="", help="comma-separated (default: all available)")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m] or available_modes()
    header = ("mode", "seats", "games", "steps", "bytes", "bytes_max", "msgpack_bytes",
              "encode_ms", "decode_ms", "verify_ms", "frames_ms", "frames_json_bytes",
              "frames_gzip_bytes")
    if not args.json:
        print(" ".join(f"{h:>17}" if i else f"{h:<9}" for i, h in enumerate(header)))
    for mode in modes:
        row = bench_mode(mode, args.games)
        if args.json:
            print(json.dumps(row))
        else:
            print(" ".join(f"{row[h]!s:>17}" if i else f"{row[h]:<9}"
                           for i, h in enumerate(header)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
