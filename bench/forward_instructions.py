"""Random playouts counted in machine instructions, beside the baseline engine at commit b9df4f5.

    python bench/forward_instructions.py [--playouts 100] [--mode standard|duel] [--json]

``bench/forward.py`` times the playouts in CPU-seconds, and on a shared virtual machine
that figure moves by 10-15% from one minute to the next with the same code (docs/engine.md,
"Forward-model speed"). The number of instructions a playout executes does not: valgrind's
callgrind counts them (``Ir``), the same on every run of the same code and interpreter
(``PYTHONHASHSEED`` is fixed). It is a proxy for time, not time: a cache miss costs more
than an add. Per mode, each engine builds ``bench/forward.py``'s eight mid-game states and
plays ``--playouts`` of its clone-and-playout loop; the same run with no playout is taken
off, and what is left is divided by the count. Needs valgrind (Debian's ``valgrind``);
takes about a minute per mode.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.engine import _extract_baseline  # noqa: E402
from bench.forward import BASELINE_COMMIT, CASES, MID_GAMES  # noqa: E402

# One side: the engine's folder, the mode, the seat count and how many playouts.
_SIDE = r"""
import sys
sys.path.insert(0, sys.argv[1])
from engine import new_game
from engine.bots.random_bot import RandomBot
mode, seats, count = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
""" + MID_GAMES + r"""
states = mid_games(mode, seats, 8)
for i in range(count):
    game = states[i % 8].clone()
    bot = RandomBot(0, i)
    if hasattr(game, "playout"):
        game.playout(bot.rng)
        continue
    while not game.is_over():
        s = game.pending()[0]
        game.apply_unchecked(s, bot.act(game, s))
"""


def _instructions(engine_root: Path, mode: str, seats: int, count: int) -> int:
    """Instructions of one process that builds the states and plays ``count`` playouts."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, "-c", _SIDE, str(engine_root), mode, str(seats), str(count)],
        capture_output=True, text=True, cwd=engine_root, check=False, timeout=1800,
        env={**os.environ, "PYTHONHASHSEED": "0"})
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"a counting process failed: {done.stderr[-500:]}")
    return int(found.group(1))


def per_playout(engine_root: Path, mode: str, seats: int, count: int) -> float:
    return (_instructions(engine_root, mode, seats, count)
            - _instructions(engine_root, mode, seats, 0)) / count


def run(count: int, modes: list[str]) -> dict[str, Any]:
    report: dict[str, Any] = {"baseline_commit": BASELINE_COMMIT, "playouts": count}
    with tempfile.TemporaryDirectory(prefix="isle-bench-instructions-") as tmp:
        reason = _extract_baseline(BASELINE_COMMIT, Path(tmp))
        if reason:
            raise RuntimeError(f"no baseline engine: {reason}")
        for mode, seats in CASES:
            if mode in modes:
                now = per_playout(ROOT, mode, seats, count)
                before = per_playout(Path(tmp), mode, seats, count)
                report[f"{mode}-{seats}"] = {"now": now, "before": before,
                                             "ratio": before / now}
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=100)
    parser.add_argument("--mode", choices=[m for m, _ in CASES], action="append")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    report = run(args.playouts, args.mode or [m for m, _ in CASES])
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    for case, figures in report.items():
        if isinstance(figures, dict):
            print(f"random playouts from mid-game, {case}: {figures['now'] / 1e6:.2f} million "
                  f"instructions each (engine at {BASELINE_COMMIT[:12]}: "
                  f"{figures['before'] / 1e6:.2f} million), {figures['ratio']:.2f}x fewer")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
