"""Plays some seeds of a paired comparison's plan, appending each game to a paired log.

    python bench/paired_part.py --mode duel --seats 2 --paired greedy,search-0.25s \\
        --bots greedy --seed 0 --seeds 50 --first 49 --last 25 --log FILE [--skip-log OTHER]

The games are those of ``python -m arena arena --paired A,B --seeds N --seed S`` (the same
plan, specs and runner: ``competition.paired_stats.plan``, ``workers.paired_play.game_spec``,
``result_of``), but only the seeds ``--first`` to ``--last`` (inclusive), in that order, which
may run downwards: a second process can play a plan from its end while the arena command
plays it from its start, and ``bench/paired_row.py`` reads the two logs joined. A seed already
complete in a ``--skip-log`` (another process's log) when its turn comes is skipped, so the
two processes stop overlapping where they meet.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import asdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from competition import paired_stats as paired  # noqa: E402
from workers.paired_play import game_spec, result_of  # noqa: E402
from workers.runner import run_match  # noqa: E402


def complete_in(path: str | None, seats: int) -> set[int]:
    if not path or not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as log:
        results = [paired.GameResult(**json.loads(line)) for line in log if line.strip()]
    return set(paired.complete_seeds(results, seats))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", required=True)
    parser.add_argument("--seats", type=int, required=True)
    parser.add_argument("--paired", required=True, metavar="A,B")
    parser.add_argument("--bots", required=True, help="the opponents")
    parser.add_argument("--seed", type=int, default=0, help="the plan's base seed")
    parser.add_argument("--seeds", type=int, required=True, help="the plan's seeds")
    parser.add_argument("--first", type=int, required=True)
    parser.add_argument("--last", type=int, required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--skip-log", action="append", default=[],
                        help="another log of the plan (repeatable)")
    args = parser.parse_args()
    a, b = (x.strip() for x in args.paired.split(","))
    opponents = [x.strip() for x in args.bots.split(",") if x.strip()]
    games = paired.plan(seeds=args.seeds, seats=args.seats, opponents=len(opponents),
                        base_seed=args.seed)  # fmt: skip
    step = 1 if args.last >= args.first else -1
    for index in range(args.first, args.last + step, step):
        if any(index in complete_in(path, args.seats) for path in args.skip_log):
            print(f"seed {index}: complete in another log, skipped", flush=True)
            continue
        for game in (g for g in games if g.seed_index == index):
            spec = game_spec(game, mode=args.mode, a=a, b=b, opponents=opponents)
            result = result_of(game, run_match(spec).result)
            with open(args.log, "a", encoding="utf-8") as log:
                log.write(json.dumps(asdict(result)) + "\n")
        print(f"seed {index}: played", flush=True)


if __name__ == "__main__":
    main()
