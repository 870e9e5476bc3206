"""Decisions per seat in random games of each mode: the data behind a match's worst case.

    python bench/decisions.py [--games 40] [--factor 2] [--write]

Plays ``games`` seeded games of every mode at every table size with random bots (random bots
make the longest games: they rarely end a phase early), and counts each seat's decisions.
Prints the largest count per mode and, with ``--write``, stores ``ceil(max x factor)`` in
``competition/data/decisions.json``, which ``competition.limits.match_worst_case_seconds`` reads.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import new_game  # noqa: E402
from engine.bots import make_bot  # noqa: E402
from engine.modes import available_modes, mode_class  # noqa: E402
from engine.play import play_game  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "competition" / "data" / "decisions.json"


def max_decisions(mode: str, games: int) -> dict[str, int]:
    """The largest number of decisions one seat made, per table size, over ``games`` seeds."""
    gt = mode_class(mode).game_type
    out = {}
    for seats in range(gt.min_seats, gt.max_seats + 1):
        worst = 0
        for seed in range(games):
            game = new_game(mode, seats, seed)
            counts: Counter[int] = Counter()

            def count(_game: object, seat: int, *_: object) -> None:
                counts[seat] += 1  # noqa: B023 - one game at a time

            bots = [make_bot("random", mode, s, seed * 31 + s) for s in range(seats)]
            play_game(game, bots, on_step=count)
            worst = max(worst, *counts.values())
        out[str(seats)] = worst
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--factor", type=float, default=2.0)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    measured = {mode: max_decisions(mode, args.games) for mode in available_modes()}
    bound = {mode: math.ceil(max(m.values()) * args.factor) for mode, m in measured.items()}
    for mode, per_table in measured.items():
        print(f"{mode:9} max decisions per seat {per_table}  bound {bound[mode]}")
    if args.write:
        data = {
            "about": (
                "Upper bound of one seat's decisions in a match, per mode: the largest count "
                f"in {args.games} random games per table size, times {args.factor} "
                "(bench/decisions.py --write)."
            ),
            "measured": measured,
            "factor": args.factor,
            "decisions": bound,
        }
        DATA.write_text(json.dumps(data, indent=2) + "\n")
        print(f"wrote {DATA}")


if __name__ == "__main__":
    main()
