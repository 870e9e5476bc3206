"""Replay benchmark: size of a replay per mode, encode/decode/verify times, frames payload.

    python bench/replays.py [--games 100] [--modes standard,family] [--json] [--no-viewer]

For every available mode, plays ``--games`` seeded games with random bots at the mode's
largest table, and reports medians: steps, replay bytes, encode, decode and verify times,
and the viewer's frames payload (JSON and gzip bytes, build time).

Then the viewer as a spectator meets it (bench/replays_viewer.py): the server time of the
first view of a finished 4-player standard replay and the p95 of a seek in headless Chromium,
printed next to the figures measured before frames were stored with the replay (``BEFORE``).

Then the server-drawn pictures and the win-chance analysis (bench/replays_images.py): the
render time and bytes of ``/matches/N/step/K.png`` and ``/matches/N/summary.gif`` of 4-player
standard matches, cold (drawn) and cached, and the analysis time of one match.

    python bench/replays.py --games 0 --no-viewer        # pictures and analysis only
    python bench/replays.py --no-images --no-analysis    # as before
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
from replayfile.format import decode, document_from_game, encode  # noqa: E402
from replayfile.frames import build_frames  # noqa: E402
from replayfile.recording import header_for_bots, play_recorded  # noqa: E402
from replayfile.verify import verify_document  # noqa: E402

FRAMES_SAMPLE = 10  # frames are built for this many games per mode (the slow part)
# The viewer at commit 646f005 (frames built by the first request of every web
# process, the debugger-like viewer), measured with bench/replays_viewer.py on this machine:
# 5 greedy 4-player standard games (~790 steps), 300 random seeks, load average ~1.
BEFORE = {"first_view_ms_median": 371.4, "first_view_ms_max": 405.8, "seek_ms_p95": 24.1,
          "seek_ms_median": 10.2}


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
    parser.add_argument("--no-viewer", action="store_true",
                        help="skip the viewer's first-view and seek figures")
    parser.add_argument("--viewer-games", type=int, default=5)
    parser.add_argument("--no-images", action="store_true",
                        help="skip the PNG/GIF render times and sizes")
    parser.add_argument("--no-analysis", action="store_true",
                        help="skip the win-chance analysis time")
    parser.add_argument("--image-games", type=int, default=2,
                        help="4-player standard matches drawn (default 2)")
    parser.add_argument("--playouts", type=int, default=400,
                        help="analysis playouts per point (ANALYSIS_PLAYOUTS; default 400)")
    parser.add_argument("--before-root", metavar="DIR",
                        help="measure 'before' now, on this checkout of the old code "
                             "(git archive 646f005 | tar -x -C DIR), instead of BEFORE")
    args = parser.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m] or available_modes()
    header = ("mode", "seats", "games", "steps", "bytes", "bytes_max", "msgpack_bytes",
              "encode_ms", "decode_ms", "verify_ms", "frames_ms", "frames_json_bytes",
              "frames_gzip_bytes")
    if not args.json and args.games > 0:
        print(" ".join(f"{h:>17}" if i else f"{h:<9}" for i, h in enumerate(header)))
    for mode in modes if args.games > 0 else ():
        row = bench_mode(mode, args.games)
        if args.json:
            print(json.dumps(row))
        else:
            print(" ".join(f"{row[h]!s:>17}" if i else f"{row[h]:<9}"
                           for i, h in enumerate(header)))
    if not args.no_viewer:
        viewer(args.viewer_games, args.json, args.before_root)
    if not (args.no_images and args.no_analysis):
        images(args.image_games, args.playouts, not args.no_images, not args.no_analysis,
               args.json)
    return 0


def images(games: int, playouts: int, with_pictures: bool, with_analysis: bool,
           as_json: bool) -> None:
    """The match pictures' render time and size, and one match's analysis time."""
    import importlib.util
    import os

    spec = importlib.util.spec_from_file_location(
        "replays_images", Path(__file__).resolve().parent / "replays_images.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures = module.run(games, playouts, with_pictures, with_analysis)
    load = round(os.getloadavg()[0], 1)
    if as_json:
        print(json.dumps({"images": figures, "load_average": load}))
        return
    pics = figures.get("pictures")
    if pics:
        print(f"\npictures: {pics['matches']} greedy 4-player standard matches "
              f"(median {pics['steps']:.0f} steps), {pics['pngs']} PNGs at 1200x630 and "
              f"{pics['matches']} GIFs at 800x420 ({pics['gif_frames']:.0f} frames); "
              f"load average now {load}")
        print(f"{'(medians)':<26}{'cold ms':>10}{'cold CPU ms':>13}{'cold max':>10}"
              f"{'cached ms':>11}{'bytes':>10}")
        for kind, url in (("png", "/matches/N/step/K.png"), ("gif", "/matches/N/summary.gif")):
            print(f"{url:<26}{pics[kind + '_cold_ms']:>10}{pics[kind + '_cold_cpu_ms']:>13}"
                  f"{pics[kind + '_cold_ms_max']:>10}{pics[kind + '_cached_ms']:>11}"
                  f"{pics[kind + '_bytes']:>10.0f}")
    found = figures.get("analysis")
    if found:
        print(f"\nanalysis of one greedy 4-player standard match ({found['steps']} steps): "
              f"{found['points']} points, {found['playouts_per_point']} playouts per point "
              f"({found['playouts']} playouts): {found['wall_s']} s wall clock, "
              f"{found['cpu_s']} s CPU; load average now {load}")


def viewer(games: int, as_json: bool, before_root: str | None = None) -> None:
    """The viewer's first view and seek, now and before (recorded, or measured now on an old
    checkout in a subprocess, so both face the same machine load)."""
    import importlib.util
    import os
    import subprocess

    # bench/ is not a package (and bench/engine.py would shadow the engine): load by path.
    spec = importlib.util.spec_from_file_location(
        "replays_viewer", Path(__file__).resolve().parent / "replays_viewer.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    before = BEFORE
    column = "before"
    if before_root:
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve().parent / "replays_viewer.py"),
             "--root", before_root, "--games", str(games)],
            capture_output=True, text=True, check=True)
        before = json.loads(done.stdout.strip().splitlines()[-1])
        column = "before*"
    now = module.run(games)
    load = round(os.getloadavg()[0], 1)
    if as_json:
        print(json.dumps({"viewer": now, "before": before, "load_average": load}))
        return
    print(f"\nviewer: {games} greedy 4-player standard games; load average now {load}"
          + ("; before* measured now on " + before_root if before_root else ""))
    print(f"{'':<34}{column:>10}{'now':>10}")
    for key, label in (("first_view_ms_median", "first view, server ms (median)"),
                       ("first_view_ms_max", "first view, server ms (max)"),
                       ("seek_ms_median", "seek in Chromium, ms (median)"),
                       ("seek_ms_p95", "seek in Chromium, ms (p95)")):
        print(f"{label:<34}{before[key]!s:>10}{now[key]!s:>10}")


if __name__ == "__main__":
    raise SystemExit(main())
