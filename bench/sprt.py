"""The SPRT of paired comparisons, simulated: its false-positive rate and how long it runs.

    python bench/sprt.py [--runs 200] [--seeds 300] [--greedy-runs 10] [--json]

1. Plays ``--seeds`` real random-against-random Duel pairs with the engine (the comparison's
   own plan and runner) and counts their pentanomial; symmetrised (two copies of one bot are
   exchangeable, so the truth is Elo 0 = H0 at the default bounds [0, 40]).
2. Runs ``--runs`` SPRTs on pairs drawn from that distribution (``competition.sprt.simulate``) and
   prints the false positives (H1 accepted) with their Wilson 95 % interval, and the games
   each run took (2 arms x 2 seats per pair).
   ``--long-runs`` more (2000) narrow the rate down.
3. Plays ``--greedy-runs`` real comparisons of greedy (B) against random (A), each on its
   own base seed, and prints the games each took to accept H1.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from arena.stats import wilson  # noqa: E402
from competition import paired_stats as paired  # noqa: E402
from competition import sprt
from workers.paired_play import game_spec, result_of, run_local  # noqa: E402
from workers.runner import run_match  # noqa: E402


def real_pentanomial(seeds: int, base_seed: int) -> list[int]:
    cells = {}
    for game in paired.plan(seeds=seeds, seats=2, opponents=1, base_seed=base_seed):
        spec = game_spec(game, mode="duel", a="random", b="random", opponents=["random"])
        cells[game.seed_index, game.rotation, game.arm] = result_of(game, run_match(spec).result)
    groups = [
        sum(sprt.outcome(cells[i, r, "B"].score, cells[i, r, "A"].score) for r in range(2)) / 2
        for i in range(seeds)
    ]
    return sprt.counts_of(groups, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--greedy-runs", type=int, default=10)
    parser.add_argument("--long-runs", type=int, default=2000,
                        help="a second, longer simulation on the same distribution")
    parser.add_argument("--cap", type=int, default=2000, help="seeds per simulated run")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    settings = sprt.SprtSettings()
    started = time.monotonic()
    counts = real_pentanomial(args.seeds, base_seed=777)
    probs = sprt.symmetric(counts)
    rng = random.Random(2026)
    runs = [sprt.simulate(probs, 2, settings, cap=args.cap, rng=rng) for _ in range(args.runs)]
    fp = sum(1 for d, _ in runs if d == sprt.H1)
    long_rng = random.Random(1)
    long = [sprt.simulate(probs, 2, settings, cap=args.cap, rng=long_rng)[0]
            for _ in range(args.long_runs)]  # fmt: skip
    long_fp = long.count(sprt.H1)
    h0 = sum(1 for d, _ in runs if d == sprt.H0)
    games = [4 * n for _, n in runs]
    greedy = [
        run_local(a="random", b="greedy", opponents=["random"], mode="duel", seats=2,
                  seeds=500, base_seed=100 + k)
        for k in range(args.greedy_runs)
    ]  # fmt: skip
    lo, hi = wilson(fp, args.runs)
    out = {
        "settings": {"elo0": settings.elo0, "elo1": settings.elo1, "alpha": settings.alpha,
                     "beta": settings.beta},
        "random_pentanomial": counts,
        "runs": args.runs,
        "false_positives": fp,
        "false_positive_rate": fp / args.runs,
        "false_positive_rate_ci95": [round(lo, 4), round(hi, 4)],
        "h0_accepted": h0,
        "long_runs": args.long_runs,
        "long_false_positive_rate": long_fp / max(1, args.long_runs),
        "games_median": statistics.median(games),
        "games_mean": round(statistics.fmean(games), 1),
        "games_max": max(games),
        "greedy_games": [r.games for r in greedy],
        "greedy_decisions": [r.decision for r in greedy],
        "seconds": round(time.monotonic() - started, 1),
    }
    if args.json:
        print(json.dumps(out))
        return
    print(f"SPRT elo0 {settings.elo0:g}, elo1 {settings.elo1:g}, alpha {settings.alpha:g}, "
          f"beta {settings.beta:g}")  # fmt: skip
    print(f"random vs random, {args.seeds} real Duel pairs: pentanomial {counts}")
    print(f"{args.runs} simulated runs: H1 (false positive) {fp} = {100 * fp / args.runs:.1f}% "
          f"[95% {100 * lo:.1f}, {100 * hi:.1f}], H0 {h0}, games median {out['games_median']}, "
          f"mean {out['games_mean']}, max {out['games_max']}")  # fmt: skip
    llo, lhi = wilson(long_fp, max(1, args.long_runs))
    print(f"{args.long_runs} more simulated runs: false positives {long_fp} = "
          f"{100 * long_fp / max(1, args.long_runs):.2f}% [95% {100 * llo:.1f}, {100 * lhi:.1f}]")
    print(f"greedy vs random, {args.greedy_runs} real runs: games {out['greedy_games']} "
          f"(median {statistics.median(out['greedy_games'])}), decisions "
          f"{sorted(set(out['greedy_decisions']))}")  # fmt: skip
    print(f"in {out['seconds']} s")


if __name__ == "__main__":
    main()
