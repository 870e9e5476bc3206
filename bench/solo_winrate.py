"""Win rate of a built-in bot against the solo sister at each difficulty.

    python bench/solo_winrate.py [--games 200] [--bot greedy] [--difficulty expert ...] [--json]

Plays seeds 0..games-1 at every difficulty (or those named) and reports, per difficulty,
wins (a tie goes to the sister), the mean player score, the mean sister score, the mean
margin, and games per second.
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

from engine import new_game  # noqa: E402
from engine.bots import make_bot  # noqa: E402
from engine.modes.solo.sister import difficulties  # noqa: E402
from engine.play import play_game  # noqa: E402


def winrate(difficulty: str, games: int, bot: str = "greedy") -> dict[str, Any]:
    """Play ``games`` seeded solo games at one difficulty and count the bot's wins."""
    wins = 0
    player, sister, margins = [], [], []
    started = time.perf_counter()
    for seed in range(games):
        game = new_game("solo", 1, seed, {"difficulty": difficulty})
        play_game(game, [make_bot(bot, "solo", 0, seed)])
        result = game.result()
        wins += result["won"]
        player.append(result["scores"][0])
        sister.append(result["sister"]["total"])
        margins.append(result["margin"])
    seconds = time.perf_counter() - started
    return {
        "difficulty": difficulty, "bot": bot, "games": games, "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "player_mean": statistics.fmean(player) if games else 0.0,
        "sister_mean": statistics.fmean(sister) if games else 0.0,
        "margin_mean": statistics.fmean(margins) if games else 0.0,
        "seconds": seconds, "games_per_second": games / seconds if seconds else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bot", default="greedy", choices=("greedy", "random"))
    parser.add_argument("--difficulty", action="append", choices=difficulties(),
                        help="a difficulty to run (repeatable; default: all five)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    rows = [winrate(d, args.games, args.bot) for d in (args.difficulty or difficulties())]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{args.bot} vs the sister, {args.games} seeds per difficulty")
    print(f"{'difficulty':<10} {'wins':>5} {'rate':>6} {'player':>7} {'sister':>7} "
          f"{'margin':>7} {'games/s':>8}")
    for r in rows:
        print(f"{r['difficulty']:<10} {r['wins']:>5} {r['win_rate']:>6.1%} "
              f"{r['player_mean']:>7.1f} {r['sister_mean']:>7.1f} {r['margin_mean']:>7.1f} "
              f"{r['games_per_second']:>8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
