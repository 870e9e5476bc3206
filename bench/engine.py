"""Engine speed: random games per second on one core, and legal-placement enumeration time.

    python bench/engine.py [--seconds 5] [--json]      (or: python -m engine bench)

``GAMES_PER_SECOND`` lists the game-speed lines, ``(label, mode, seats, options)``; a mode
adds its line there, and lines whose mode is not available in this build are skipped. The
enumeration figure is the median time of one ``legal_placements`` call for a cat tile (all
17 shapes in turn) on an empty, a half-full and a nearly full boat; the time to list every
placement mask is shown beside it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import available_modes, new_game  # noqa: E402
from engine.boat import Boat, Tile, base_layouts  # noqa: E402
from engine.bots.random_bot import RandomBot  # noqa: E402
from engine.rng import Rng  # noqa: E402
from engine.shapes import base_shapes, legal_placements  # noqa: E402

GAMES_PER_SECOND: list[tuple[str, str, int, dict[str, Any]]] = [
    ("standard, 4 players, random bots", "standard", 4, {}),
    ("standard, 2 players, random bots", "standard", 2, {}),
    ("family, 4 players, random bots", "family", 4, {}),
    ("solo, expert, random bot", "solo", 1, {"difficulty": "expert"}),
    ("duel, 2 players, random bots", "duel", 2, {}),
]

TARGET_GAMES_PER_SECOND = 50  # standard, 4 players
TARGET_ENUMERATION_US = 40


def games_per_second(mode: str, seats: int, options: dict[str, Any],
                     seconds: float) -> dict[str, Any]:
    """Play seeded games with random bots in this process until ``seconds`` have passed.

    The figure "on one core" divides by this process's CPU time, so other work on a busy
    machine does not lower it; the wall-clock rate is reported beside it."""
    games = steps = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    while time.perf_counter() - started < seconds:
        game = new_game(mode, seats, games, options)
        bots = [RandomBot(s, games) for s in range(seats)]
        while not game.is_over():
            seat = game.pending()[0]
            game.apply_unchecked(seat, bots[seat].act(game, seat))
            steps += 1
        game.result()
        games += 1
    elapsed = time.perf_counter() - started
    cpu = max(time.process_time() - cpu_started, 1e-9)
    return {"games": games, "seconds": elapsed, "cpu_seconds": cpu,
            "games_per_second": games / cpu, "wall_games_per_second": games / elapsed,
            "steps_per_game": steps / games}


def filled_boat(fraction: float, seed: int = 1) -> Boat:
    """A boat covered by random legal cat placements up to ``fraction`` of its squares."""
    layout = base_layouts()["blue"]
    boat = Boat(layout)
    rng = Rng(seed, "bench-boat")
    cats = base_shapes().cats
    misses = 0
    while boat.occupied.bit_count() < fraction * layout.size and misses < 200:
        shape = cats[rng.randbelow(len(cats))]
        places = legal_placements(shape, layout, boat.occupied)
        if not places:
            misses += 1
            continue
        boat.place(Tile("cat", "red", shape.key, places[rng.randbelow(len(places))]))
    return boat


def enumeration_times(repeat: int = 300) -> dict[str, dict[str, float]]:
    """Median microseconds per enumeration (and per full listing) on three boats."""
    cats = base_shapes().cats
    out: dict[str, dict[str, float]] = {}
    for label, fraction in (("empty", 0.0), ("half-full", 0.5), ("nearly full", 0.9)):
        boat = filled_boat(fraction)
        layout, occupied = boat.layout, boat.occupied
        timings, listings = [], []
        for i in range(repeat):
            shape = cats[i % len(cats)]
            t0 = time.perf_counter()
            places = legal_placements(shape, layout, occupied)
            t1 = time.perf_counter()
            list(places)
            t2 = time.perf_counter()
            timings.append(t1 - t0)
            listings.append(t2 - t0)
        out[label] = {"filled": round(occupied.bit_count() / layout.size, 3),
                      "median_us": statistics.median(timings) * 1e6,
                      "median_listing_us": statistics.median(listings) * 1e6}
    return out


def run(seconds: float) -> dict[str, Any]:
    modes = set(available_modes())
    speed = []
    for label, mode, seats, options in GAMES_PER_SECOND:
        if mode not in modes:
            continue
        speed.append({"label": label, "mode": mode, "seats": seats,
                      **games_per_second(mode, seats, options, seconds)})
    return {"games_per_second": speed, "enumeration": enumeration_times(),
            "targets": {"standard_4p_games_per_second": TARGET_GAMES_PER_SECOND,
                        "enumeration_us": TARGET_ENUMERATION_US}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="time spent on each games-per-second line (default 5)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    report = run(args.seconds)
    if args.json:
        print(json.dumps(report, sort_keys=True))
        return 0
    for line in report["games_per_second"]:
        print(f"{line['label']}: {line['games_per_second']:.1f} games/s on one core "
              f"({line['games']} games, {line['steps_per_game']:.0f} decisions per game; "
              f"{line['wall_games_per_second']:.1f} games/s by the wall clock)")
    for label, fig in report["enumeration"].items():
        print(f"legal placements of a cat, {label} boat ({fig['filled']:.0%} covered): "
              f"median {fig['median_us']:.1f} us (listing every mask: "
              f"{fig['median_listing_us']:.1f} us)")
    print(f"targets: >= {TARGET_GAMES_PER_SECOND} standard 4-player games/s, "
          f"<= {TARGET_ENUMERATION_US} us per enumeration")
    return 0


if __name__ == "__main__":
    sys.exit(main())
