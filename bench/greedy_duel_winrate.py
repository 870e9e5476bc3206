"""Win rate of the greedy Duel bot against the random bot.

    python bench/greedy_duel_winrate.py [--games 200] [--json]

Plays ``--games`` seeded Duel games (seeds 0..games-1); the greedy bot takes seat 0 on
even seeds and seat 1 on odd ones, so neither seat nor first player favours it. Reports
wins, losses and shared wins (equal score and fish) with the 95% Wilson interval of the
win rate, the mean scores, and games per second.
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

from bench.greedy_winrate import wilson  # noqa: E402
from engine import new_game  # noqa: E402
from engine.bots.greedy_duel import GreedyDuelBot  # noqa: E402
from engine.bots.random_bot import RandomBot  # noqa: E402
from engine.play import play_game  # noqa: E402


def winrate(games: int) -> dict[str, Any]:
    """Play the games and count the greedy bot's wins, losses and shared wins."""
    wins = losses = shared = 0
    greedy_scores, random_scores = [], []
    started = time.perf_counter()
    for seed in range(games):
        seat = seed % 2
        bots: list[Any] = [RandomBot(0, seed), RandomBot(1, seed)]
        bots[seat] = GreedyDuelBot(seat, seed)
        game = play_game(new_game("duel", 2, seed), bots)
        result = game.result()
        if result["winners"] == [seat]:
            wins += 1
        elif seat in result["winners"]:
            shared += 1
        else:
            losses += 1
        greedy_scores.append(result["scores"][seat])
        random_scores.append(result["scores"][1 - seat])
    seconds = time.perf_counter() - started
    return {
        "games": games, "greedy_wins": wins, "greedy_losses": losses, "shared": shared,
        "win_rate": wins / games if games else 0.0, "interval_95": list(wilson(wins, games)),
        "greedy_mean_score": statistics.fmean(greedy_scores) if games else 0.0,
        "random_mean_score": statistics.fmean(random_scores) if games else 0.0,
        "seconds": seconds, "games_per_second": games / seconds if seconds else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    out = winrate(args.games)
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        low, high = out["interval_95"]
        print(f"greedy vs random, Duel, {out['games']} games: {out['win_rate']:.1%} won "
              f"(95% interval {low:.1%} - {high:.1%}; {out['greedy_wins']} won, "
              f"{out['greedy_losses']} lost, {out['shared']} shared); "
              f"mean score {out['greedy_mean_score']:.1f} vs {out['random_mean_score']:.1f}; "
              f"{out['games_per_second']:.1f} games/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
