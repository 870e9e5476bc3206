"""Simulation speed: random playouts and greedy games per CPU-second, against
the engine of ``BASELINE_COMMIT``.

    python bench/simulation_speed.py [--seconds 10] [--only playout:standard] [--json]

A search bot's strength is the number of games it can play out per second, so four rows
are measured, for Duel and 4-player standard:

- ``playout``: from a mid-game state (a seeded random game stopped after ``MID[mode]``
  decisions), ``PLAYOUTS_PER_STATE`` times: ``clone()`` the state and play uniformly random
  moves to the end, then read ``result()``. Only the clones and playouts are timed.
- ``greedy``: a whole game with the built-in ``greedy`` bot in every seat.

Each row is compared side by side with the engine of ``BASELINE_COMMIT`` (b9df4f5, before
the playout speed work) the way ``bench/engine.py`` compares with its baseline: the old
``engine`` package is extracted from git into a temporary folder (``_extract_baseline``),
one live process runs it and another runs this checkout's engine, and they play the same
seeds in alternating blocks (which side goes first alternates too), so both see the same
games and the same machine load. Figures are per CPU-second of each side's own process.
Each side also answers with a digest of every final result (scores, breakdown, boats and
the state hash); the two digests must match, which checks on the way that the faster
engine plays exactly the same games.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.engine import _extract_baseline  # noqa: E402

BASELINE_COMMIT = "b9df4f5"
TARGET_SPEEDUP = 3.0

# (task, mode, games or mid-game states per block)
ROWS: list[tuple[str, str, int]] = [
    ("playout", "duel", 6),
    ("playout", "standard", 4),
    ("greedy", "duel", 3),
    ("greedy", "standard", 1),
]
LABELS = {
    ("playout", "duel"): "Duel, random playouts from mid-game",
    ("playout", "standard"): "standard 4 players, random playouts from mid-game",
    ("greedy", "duel"): "Duel, greedy games",
    ("greedy", "standard"): "standard 4 players, greedy games",
}

# One side, run as ``python -c`` with the engine's folder as argv[1]. Each input line is
# ``task mode first count``; the answer is ``cpu_seconds units digest``.
_SIDE = """
import hashlib, json, sys, time
sys.path.insert(0, sys.argv[1])
from engine import new_game
from engine.bots import make_bot
from engine.rng import Rng

SEATS = {"standard": 4, "duel": 2}
MID = {"standard": 140, "duel": 50}
PLAYOUTS_PER_STATE = 4


def random_move(game, rng):
    seat = game.pending()[0]
    legal = game.legal_actions(seat)
    game.apply_unchecked(seat, legal[rng.randbelow(len(legal))])


def digest(result, into):
    into.update(json.dumps(result, sort_keys=True, default=str).encode())


for line in sys.stdin:
    task, mode, first, count = line.split()
    first, count = int(first), int(count)
    seats = SEATS[mode]
    cpu, units, hashed = 0.0, 0, hashlib.sha256()
    for seed in range(first, first + count):
        if task == "playout":
            root = new_game(mode, seats, seed, {})
            rng = Rng(seed, "bench:mid-game")
            while len(root.history) < MID[mode] and not root.is_over():
                random_move(root, rng)
            rngs = [Rng(seed, f"bench:playout:{k}") for k in range(PLAYOUTS_PER_STATE)]
            results = []
            started = time.process_time()
            for rng in rngs:
                game = root.clone()
                if hasattr(game, "playout"):  # the engine's own loop: the same draws and moves
                    game.playout(rng)
                while not game.is_over():
                    random_move(game, rng)
                results.append(game.result())
            cpu += time.process_time() - started
            units += PLAYOUTS_PER_STATE
            for result in results:
                digest(result, hashed)
        else:
            started = time.process_time()
            game = new_game(mode, seats, seed, {})
            bots = [make_bot("greedy", mode, s, seed) for s in range(seats)]
            while not game.is_over():
                seat = game.pending()[0]
                game.apply_unchecked(seat, bots[seat].act(game, seat))
            result = game.result()
            cpu += time.process_time() - started
            units += 1
            digest(result, hashed)
    print(cpu, units, hashed.hexdigest(), flush=True)
"""


class _Side:
    """A fresh process running ``_SIDE`` on one engine, driven block by block."""

    def __init__(self, engine_root: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.process = subprocess.Popen(
            [sys.executable, "-c", _SIDE, str(engine_root)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, env=env, cwd=engine_root)

    def run(self, task: str, mode: str, first: int, count: int) -> tuple[float, int, str]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{task} {mode} {first} {count}\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("a benchmark process died (see its stderr above)")
        cpu, units, digest = line.split()
        return float(cpu), int(units), digest

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def compare_row(sides: dict[str, _Side], task: str, mode: str, block: int,
                seconds: float) -> dict[str, Any]:
    """One row: both sides take turns by blocks of ``block`` seeds for about
    ``2 * seconds`` in all; per-side units per CPU-second and whether the games agree."""
    for side in sides.values():
        side.run(task, mode, 10**6, 1)  # warm-up: imports, caches, tables (not counted)
    cpu = dict.fromkeys(sides, 0.0)
    units = dict.fromkeys(sides, 0)
    same = True
    started, first = time.perf_counter(), 0
    while time.perf_counter() - started < 2 * seconds or first == 0:
        order = list(sides) if (first // block) % 2 == 0 else list(sides)[::-1]
        digests = set()
        for name in order:
            spent, done, digest = sides[name].run(task, mode, first, block)
            cpu[name] += spent
            units[name] += done
            digests.add(digest)
        same = same and len(digests) == 1
        first += block
    before = units["baseline"] / max(cpu["baseline"], 1e-9)
    after = units["current"] / max(cpu["current"], 1e-9)
    return {"task": task, "mode": mode, "label": LABELS[(task, mode)], "seeds": first,
            "units": units["current"], "baseline_per_cpu_second": before,
            "per_cpu_second": after, "speedup": after / before, "same_games": same}


def run(seconds: float, only: set[str] | None = None,
        commit: str = BASELINE_COMMIT) -> dict[str, Any]:
    rows = [r for r in ROWS if only is None or f"{r[0]}:{r[1]}" in only]
    with tempfile.TemporaryDirectory(prefix="isle-bench-sim-") as tmp:
        reason = _extract_baseline(commit, Path(tmp))
        if reason is not None:
            return {"skipped": reason, "baseline_commit": commit}
        sides = {"baseline": _Side(Path(tmp)), "current": _Side(ROOT)}
        try:
            out = [compare_row(sides, task, mode, block, seconds)
                   for task, mode, block in rows]
        finally:
            for side in sides.values():
                side.close()
    return {"baseline_commit": commit, "rows": out, "target_speedup": TARGET_SPEEDUP}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="time each side spends on each row (default 10)")
    parser.add_argument("--only", action="append",
                        help="run only this row, as task:mode (playout:duel, greedy:standard, "
                             "...); may be repeated")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    report = run(args.seconds, set(args.only) if args.only else None)
    if args.json:
        print(json.dumps(report, sort_keys=True))
        return 0
    if "skipped" in report:
        print(f"skipped: {report['skipped']}")
        return 1
    print(f"against the engine of commit {report['baseline_commit']} (target >= "
          f"{report['target_speedup']:.0f}x), per CPU-second of each process:")
    for row in report["rows"]:
        unit = "playouts" if row["task"] == "playout" else "games"
        print(f"  {row['label']}: {row['per_cpu_second']:.1f} {unit}/s now, "
              f"{row['baseline_per_cpu_second']:.1f} before, {row['speedup']:.2f}x "
              f"({row['units']} {unit} each side, "
              f"{'the same games' if row['same_games'] else 'GAMES DIFFER'})")
    return 0 if all(r["same_games"] for r in report["rows"]) else 1


if __name__ == "__main__":
    sys.exit(main())
