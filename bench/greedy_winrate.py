"""Win rate of the greedy bot against three random bots (standard mode, 4 players).

    python bench/greedy_winrate.py --mode standard --games 200 [--json]

Plays seeds 0..games-1; the greedy bot sits in seat ``seed % 4`` so no seat favours it. A
win is rank 1 (a shared first place counts, as the rules share it). Prints the win rate with
its 95% Wilson interval, the mean scores and games per second.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import new_game  # noqa: E402
from engine.bots import make_bot  # noqa: E402
from engine.play import play_game  # noqa: E402

SEATS = 4


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def winrate(mode: str, games: int) -> dict[str, Any]:
    wins = 0
    greedy, others = [], []
    started = time.perf_counter()
    for seed in range(games):
        seat = seed % SEATS
        bots = [make_bot("greedy" if s == seat else "random", mode, s, seed)
                for s in range(SEATS)]
        game = play_game(new_game(mode, SEATS, seed), bots)
        result = game.result()
        wins += result["ranks"][seat] == 1
        greedy.append(result["scores"][seat])
        others.extend(s for i, s in enumerate(result["scores"]) if i != seat)
    seconds = time.perf_counter() - started
    low, high = wilson(wins, games)
    return {"mode": mode, "games": games, "greedy_wins": wins,
            "win_rate": wins / games if games else 0.0, "interval_95": [low, high],
            "greedy_mean_score": statistics.fmean(greedy) if games else 0.0,
            "random_mean_score": statistics.fmean(others) if games else 0.0,
            "seconds": seconds, "games_per_second": games / seconds if seconds else 0.0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="standard", choices=["standard"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    report = winrate(args.mode, args.games)
    if args.json:
        print(json.dumps(report, sort_keys=True))
        return 0
    low, high = report["interval_95"]
    print(f"greedy vs 3 random, {args.mode}, {report['games']} games: "
          f"won {report['greedy_wins']} = {report['win_rate']:.1%} "
          f"(95% interval {low:.1%} - {high:.1%})")
    print(f"mean score: greedy {report['greedy_mean_score']:.1f}, "
          f"random {report['random_mean_score']:.1f}; "
          f"{report['games_per_second']:.1f} games/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
