"""Engine speed: random games per second on one core, and legal-placement enumeration time.

    python bench/engine.py [--seconds 5] [--json]      (or: python -m engine bench)

``GAMES_PER_SECOND`` lists the game-speed lines, ``(label, mode, seats, options)``; a mode
adds its line there. The
enumeration figure is the median time of one ``legal_placements`` call for a cat tile (all
17 shapes in turn) on an empty, a half-full and a nearly full boat; the time to list every
placement mask is shown beside it.

The forward model's figures (determinizations, ``clone()``, random playouts from mid-game
and greedy games per CPU-second, Duel and 4-player standard) come from bench/forward.py,
each beside the baseline engine at commit b9df4f5. The training environments' steps per
second (PettingZoo, Gymnasium, the vector runner) come from bench/envs.py, each beside the
environments at commit c4663de.

The standard 4-player line is also compared with the engine at commit 646f005, before the
double work of ``PlaceFrame.progress`` and ``BuyFrame.progress`` was removed: the
engine package of ``BASELINE_COMMIT`` is extracted from the git history into a temporary
folder; one process runs it and another runs this checkout's engine, and they play the
same seeds in alternating blocks of a few games, so both sides play the same games under
the same machine load. Each figure is games per CPU-second of its own process. Without git
or the commit the comparison is skipped with a reason (``--no-baseline`` skips it).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import new_game  # noqa: E402
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

# The last commit before PlaceFrame/BuyFrame stopped building legal actions twice.
BASELINE_COMMIT = "646f00593f70ff2198aaa72777e865e4539b2787"
TARGET_SPEEDUP = 1.2

# One side of the comparison, run as ``python -c`` with the engine's folder as argv[1]. It
# reads ``first count`` lines, plays 4-player standard games with random bots on the seeds
# first..first+count-1 (the loop of ``games_per_second``) and answers with the CPU seconds
# this process spent on them.
_COMPARE_SIDE = """
import sys, time
sys.path.insert(0, sys.argv[1])
from engine import new_game
from engine.bots.random_bot import RandomBot
for line in sys.stdin:
    first, count = map(int, line.split())
    cpu_started = time.process_time()
    for seed in range(first, first + count):
        game = new_game("standard", 4, seed, {})
        bots = [RandomBot(s, seed) for s in range(4)]
        while not game.is_over():
            seat = game.pending()[0]
            game.apply_unchecked(seat, bots[seat].act(game, seat))
        game.result()
    print(time.process_time() - cpu_started, flush=True)
"""


def games_per_second(mode: str, seats: int, options: dict[str, Any],
                     seconds: float) -> dict[str, Any]:
    """Play seeded games with random bots in this process until ``seconds`` have passed.

    The figure "on one core" divides by this process's CPU time, so other work on a busy
    machine does not lower it; the wall-clock rate is reported beside it."""
    games = steps = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    while time.perf_counter() - started < seconds or not games:  # one game at least
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


def _extract_baseline(commit: str, into: Path) -> str | None:
    """Write the ``engine`` package of ``commit`` under ``into``; a reason when impossible."""
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit,
                                  "engine"], capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"git is not available ({exc})"
    if archive.returncode != 0:
        return f"commit {commit[:12]} is not in this checkout's history"
    with tempfile.TemporaryFile() as buffer:
        buffer.write(archive.stdout)
        buffer.seek(0)
        with tarfile.open(fileobj=buffer) as tar:
            tar.extractall(into, filter="data")
    return None


class _Side:
    """A fresh process playing games on one engine, driven block by block."""

    def __init__(self, engine_root: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.process = subprocess.Popen(
            [sys.executable, "-c", _COMPARE_SIDE, str(engine_root)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, env=env, cwd=engine_root)
        self.cpu = 0.0

    def play(self, first: int, count: int) -> float:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{first} {count}\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("a benchmark process died (see its stderr above)")
        return float(line)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


def compare_with_baseline(seconds: float, block: int = 4,
                          commit: str = BASELINE_COMMIT) -> dict[str, Any]:
    """Random 4-player games per CPU-second on the baseline commit's engine and on this
    checkout's: two live processes play the same seeds in alternating blocks of ``block``
    games (which side goes first alternates too) for about ``2 * seconds`` in all, so both
    see the same games and the same machine load."""
    with tempfile.TemporaryDirectory(prefix="isle-bench-baseline-") as tmp:
        reason = _extract_baseline(commit, Path(tmp))
        if reason is not None:
            return {"skipped": reason, "baseline_commit": commit}
        sides = {"baseline": _Side(Path(tmp)), "current": _Side(ROOT)}
        cpu = dict.fromkeys(sides, 0.0)
        try:
            for side in sides.values():
                side.play(10**6, 2)  # warm-up: imports, caches, tables (not counted)
            started, first = time.perf_counter(), 0
            while time.perf_counter() - started < 2 * seconds or first == 0:
                order = list(sides) if (first // block) % 2 == 0 else list(sides)[::-1]
                for name in order:
                    cpu[name] += sides[name].play(first, block)
                first += block
        finally:
            for side in sides.values():
                side.close()
    before, after = first / max(cpu["baseline"], 1e-9), first / max(cpu["current"], 1e-9)
    return {"baseline_commit": commit, "games_per_side": first, "block": block,
            "baseline_games_per_second": before, "games_per_second": after,
            "speedup": after / before, "target_speedup": TARGET_SPEEDUP}


def run(seconds: float, compare: bool = True) -> dict[str, Any]:
    speed = []
    for label, mode, seats, options in GAMES_PER_SECOND:
        speed.append({"label": label, "mode": mode, "seats": seats,
                      **games_per_second(mode, seats, options, seconds)})
    baseline = compare_with_baseline(seconds) if compare else {"skipped": "--no-baseline"}
    from bench.envs import run as envs_run
    from bench.forward import run as forward_run

    return {"games_per_second": speed, "enumeration": enumeration_times(),
            "against_baseline": baseline, "forward": forward_run(min(seconds, 2.0), compare),
            "environments": envs_run(min(seconds, 3.0), compare),
            "targets": {"standard_4p_games_per_second": TARGET_GAMES_PER_SECOND,
                        "enumeration_us": TARGET_ENUMERATION_US}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="time spent on each games-per-second line (default 5)")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip the comparison with the engine at BASELINE_COMMIT (646f005)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    report = run(args.seconds, not args.no_baseline)
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
    base = report["against_baseline"]
    if "skipped" in base:
        print(f"against the baseline engine: skipped ({base['skipped']})")
    else:
        print(f"standard, 4 players, against the baseline engine (commit "
              f"{base['baseline_commit'][:12]}, whose PlaceFrame/BuyFrame built legal actions "
              f"twice): {base['games_per_second']:.1f} games/s on one core now, "
              f"{base['baseline_games_per_second']:.1f} before, "
              f"{base['speedup']:.2f}x (target >= {TARGET_SPEEDUP}x; the same "
              f"{base['games_per_side']} seeds on both engines, two live processes taking "
              f"turns by blocks of {base['block']} games)")
    from bench.forward import lines as forward_lines

    for text in forward_lines(report["forward"]):
        print(text)
    from bench.envs import lines as envs_lines

    for text in envs_lines(report["environments"]):
        print(text)
    print(f"targets: >= {TARGET_GAMES_PER_SECOND} standard 4-player games/s, "
          f"<= {TARGET_ENUMERATION_US} us per enumeration")
    return 0


if __name__ == "__main__":
    sys.exit(main())
