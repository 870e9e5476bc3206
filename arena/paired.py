"""``python -m arena arena --paired A,B``: is B better than A? The duplicate format, locally.

    python -m arena arena --paired mybot_v1.py,mybot_v2.py --mode duel [--bots random] \\
        [--seeds 20] [--seed 0] [--level 0.05] [--json]

Each of ``--seeds`` deals is played once with A and once with B in the tested seat, against
the same opponents (``--bots``, default ``random``) in the same other seats, in every seat
rotation; the plan and the statistics are the tournament's own (``workers/paired.py``), and
the games go through the match runner (built-in bots in-process, bot files in the sandbox).
Prints the mean score difference B - A with its confidence interval, both win rates, the
sign test's p-value and the verdict. Exit code 0 whatever the verdict; 2 for bad input.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from engine.modes import mode_class
from workers import paired
from workers.paired_play import run_local

from .errors import CliError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--paired", default=None, metavar="A,B",
        help="compare bot B with bot A on the same deals (duplicate format); --bots are the "
        "opponents (default random)",
    )  # fmt: skip
    parser.add_argument("--seeds", type=int, default=20, help="--paired: deals (default 20)")
    parser.add_argument(
        "--paired-log", default=None, metavar="FILE",
        help="--paired: append each game's result to FILE as a JSON line (a run cut short can "
        "still be analysed: workers.paired_play.analyse_log)",
    )  # fmt: skip
    parser.add_argument(
        "--level", type=float, default=paired.DEFAULT_LEVEL,
        help="--paired: 1 - confidence of the interval (default 0.05)",
    )  # fmt: skip


def run_paired(
    args: argparse.Namespace, *, seats: int, options: dict[str, Any],
    check_bots: Callable[[list[str]], None], make_progress: Callable[[int], Any] | None = None,
) -> int:  # fmt: skip
    """Check the flags, play the comparison with a progress line, print the figures."""
    names = [b.strip() for b in args.paired.split(",")]
    if len(names) != 2 or not all(names):
        raise CliError("--paired takes two bots, A,B (built-in names or bot files)")
    opponents = [b.strip() for b in (args.bots or "random").split(",") if b.strip()]
    if seats == 1:
        opponents = []
    elif len(opponents) > seats - 1:
        raise CliError(f"at most {seats - 1} opponents (--bots) at {seats} seats")
    if not 1 <= args.seeds <= 10_000:
        raise CliError("--seeds must be in 1..10000")
    if not 0 < args.level < 1:
        raise CliError("--level must be between 0 and 1")
    check_bots([*names, *opponents])
    mode_class(args.mode)  # an unknown mode fails here, before any game
    progress = make_progress(args.seeds * seats * 2) if make_progress else None
    result = run_local(
        a=names[0], b=names[1], opponents=opponents or ["random"], mode=args.mode, seats=seats,
        seeds=args.seeds, base_seed=args.seed, options=options, level=args.level,
        on_game=(lambda done, _total: progress.update(done)) if progress else None,
        jobs=max(1, int(getattr(args, "jobs", None) or 1)),
        log_path=getattr(args, "paired_log", None),
    )  # fmt: skip
    if args.json:
        print(json.dumps({"mode": args.mode, "players": seats, "a": names[0], "b": names[1],
                          "opponents": opponents, **result.to_json()}, sort_keys=True))  # fmt: skip
        return 0
    print(readable(args.mode, seats, names, opponents, result))
    return 0


def readable(
    mode: str, seats: int, names: list[str], opponents: list[str], r: paired.Comparison
) -> str:
    confidence = round(100 * (1 - r.level))
    against = ", ".join(opponents) if opponents else "the sister"
    return "\n".join([
        f"paired: {mode}, {seats} players, A = {names[0]}, B = {names[1]}, against {against}",
        f"        {r.seeds} seeds x {seats} rotations x 2 = {r.games} games",
        "",
        f"mean score B - A   {r.mean_diff:+.2f}  ({confidence}% CI {r.ci_low:+.2f} .. "
        f"{r.ci_high:+.2f})",
        f"win rate           A {100 * r.win_rate_a:.1f}%   B {100 * r.win_rate_b:.1f}%",
        *([f"mean rank B - A    {r.mean_rank_diff:+.3f}  ({confidence}% CI "
           f"{r.rank_ci_low:+.3f} .. {r.rank_ci_high:+.3f}; negative: B ranks better)"]
          if r.mean_rank_diff is not None and seats > 1 else []),
        f"B ahead of A       {100 * r.b_ahead_rate:.1f}% of paired games",
        f"sign test          p = {r.sign_test_p:.4g}",
        f"verdict            {r.verdict}",
    ])  # fmt: skip
