"""The figures of a paired comparison's log, as a row of docs/engine.md's strength table.

    python bench/paired_row.py LOG --rotations SEATS [--target 0.65] [--json]

``LOG`` is the ``--paired-log`` file of ``python -m arena arena --paired A,B``: one JSON line
per game. Only seeds whose every game was played count (``competition.paired_stats.complete_seeds``,
as ``analyse_log``), so a run cut short gives the figures of its complete seeds.

Printed, with the method of each:

* the seeds and games counted, each arm's win rate (the tested seat ranked first);
* B's wins over B's games with the Wilson 95 % interval, and the score test of the rate
  ``--target`` (the test the Wilson interval inverts: p < 0.05 exactly when the target lies
  outside the interval). The games of one deal are counted as independent;
* the mean score difference B − A and the mean rank difference B − A per game, each with a
  normal-approximation 95 % interval over the seeds' means (a seed: the mean difference over
  its rotations, the paired games being the unit the plan replicates), and the z test of
  "no difference" on the same means (two-sided; agrees with the interval);
* the verdict, from the rank difference's interval: "B is better" when it lies below 0,
  "A is better" above 0, otherwise "no difference detected at N seeds".
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from arena.stats import Z95, mean_interval, wilson  # noqa: E402
from competition import paired_stats as paired  # noqa: E402


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def figures(path: str, rotations: int, target: float) -> dict:
    with open(path, encoding="utf-8") as log:
        results = [paired.GameResult(**json.loads(line)) for line in log if line.strip()]
    cells = paired.complete_seeds(results, rotations)
    seeds = sorted(cells)
    if not seeds:
        raise SystemExit("no seed has all its games played")
    n_games = len(seeds) * rotations  # per arm
    wins = {arm: sum(cells[i][r, arm].won for i in seeds for r in range(rotations))
            for arm in paired.ARMS}  # fmt: skip
    score_means = [sum(cells[i][r, "B"].score - cells[i][r, "A"].score
                       for r in range(rotations)) / rotations for i in seeds]  # fmt: skip
    rank_means = [sum(cells[i][r, "B"].rank - cells[i][r, "A"].rank
                      for r in range(rotations)) / rotations for i in seeds]  # fmt: skip
    low, high = wilson(wins["B"], n_games)
    p_hat = wins["B"] / n_games
    z_rate = (p_hat - target) / math.sqrt(target * (1 - target) / n_games)
    out = {
        "seeds": len(seeds), "games": 2 * n_games, "b_games": n_games,
        "seed_indices": [seeds[0], seeds[-1]], "missing_below_last": seeds[-1] + 1 - len(seeds),
        "win_rate_a": wins["A"] / n_games, "win_rate_b": p_hat, "b_wins": wins["B"],
        "b_wilson": [low, high], "target": target, "target_score_test_p": normal_p(z_rate),
    }  # fmt: skip
    for name, values in (("score", score_means), ("rank", rank_means)):
        mean, lo, hi = mean_interval(values)
        se = (hi - mean) / Z95 if len(values) > 1 else 0.0
        out[f"{name}_diff"] = [mean, lo, hi]
        out[f"{name}_sd_of_seed_means"] = se * math.sqrt(len(values))
        out[f"{name}_z_test_p"] = normal_p(mean / se) if se > 0 else None
    lo, hi = out["rank_diff"][1:]
    if len(seeds) < 2:  # one seed's means have no spread, so no interval
        out["verdict"] = "no verdict at 1 seed"
    else:
        out["verdict"] = ("B is better" if hi < 0 else "A is better" if lo > 0
                          else f"no difference detected at {len(seeds)} seeds")  # fmt: skip
    return out


def row(mode: str, a: str, b: str, f: dict) -> str:
    s, r = f["score_diff"], f["rank_diff"]
    return (f"| {mode} | {a} | {b} | {f['seeds']} ({f['games']}) | "
            f"{100 * f['win_rate_a']:.1f}% / {100 * f['win_rate_b']:.1f}% | "
            f"{f['b_wins']}/{f['b_games']} ({100 * f['b_wilson'][0]:.0f}% .. "
            f"{100 * f['b_wilson'][1]:.0f}%) | {s[0]:+.2f} ({s[1]:+.2f} .. {s[2]:+.2f}) | "
            f"{r[0]:+.3f} ({r[1]:+.3f} .. {r[2]:+.3f}) | {f['verdict']} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--rotations", type=int, required=True, help="seats per game")
    parser.add_argument("--target", type=float, default=0.65, help="B's win rate to test")
    parser.add_argument("--mode", default="?")
    parser.add_argument("--a", default="greedy")
    parser.add_argument("--b", default="search-0.25s")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    f = figures(args.log, args.rotations, args.target)
    if args.json:
        print(json.dumps(f, sort_keys=True))
        return
    print(row(args.mode, args.a, args.b, f))
    print(f"seed indices {f['seed_indices'][0]}..{f['seed_indices'][1]} "
          f"({f['missing_below_last']} incomplete below the last)")
    print(f"score test of B's win rate = {f['target']:.2f}: p = {f['target_score_test_p']:.4f}")
    for name in ("score", "rank"):
        p = f[f"{name}_z_test_p"]
        print(f"{name} difference: sd of seed means {f[f'{name}_sd_of_seed_means']:.3f}, "
              f"z test p = {'n/a' if p is None else f'{p:.4f}'}")


if __name__ == "__main__":
    main()
