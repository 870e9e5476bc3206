"""Decisions per seat in games of each mode: the data behind a match's worst case, and the
table a bot author budgets time with.

    python bench/decisions.py [--games 40] [--factor 2] [--write]
    python bench/decisions.py --table [--games 40]

Plays ``games`` seeded games of every mode at every table size with random bots (random bots
make the longest games: they rarely end a phase early), and counts each seat's decisions.
Prints the largest count per mode and, with ``--write``, stores ``ceil(max x factor)`` in
``competition/data/decisions.json``, which ``competition.limits.match_worst_case_seconds`` reads.

``--table`` prints, per mode and table size, the median and the largest number of decisions
one seat takes in a game (the ``decide`` messages it is sent), over ``games`` seeded games
with every seat ``greedy`` and as many with every seat ``random``: the Markdown table of
docs/search-bots.md.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
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


def seat_decisions(mode: str, seats: int, seed: int, bot: str) -> list[int]:
    """Each seat's decisions in one seeded game with ``bot`` in every seat."""
    game = new_game(mode, seats, seed)
    counts: Counter[int] = Counter()

    def count(_game: object, seat: int, *_: object) -> None:
        counts[seat] += 1

    play_game(game, [make_bot(bot, mode, s, seed * 31 + s) for s in range(seats)],
              on_step=count)
    return [counts[s] for s in range(seats)]


def decision_table(games: int) -> list[str]:
    """The Markdown rows of ``--table``: mode, seats, then median and max per seat for greedy
    and for random tables."""
    rows = ["| mode | seats | greedy: median | greedy: max | random: median | random: max |",
            "|---|---|---|---|---|---|"]
    for mode in available_modes():
        gt = mode_class(mode).game_type
        for seats in range(gt.min_seats, gt.max_seats + 1):
            cells = []
            for bot in ("greedy", "random"):
                per_seat = [n for seed in range(games)
                            for n in seat_decisions(mode, seats, seed, bot)]
                cells += [f"{statistics.median(per_seat):g}", str(max(per_seat))]
            rows.append(f"| {mode} | {seats} | " + " | ".join(cells) + " |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--factor", type=float, default=2.0)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--table", action="store_true",
                        help="the median and max decisions per seat, greedy and random tables")
    args = parser.parse_args()
    if args.table:
        print("\n".join(decision_table(args.games)))
        return
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
