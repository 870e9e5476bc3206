"""``python -m arena arena --paired A,B``: is B stronger than A? A sequential test, locally.

    python -m arena arena --paired mybot_v1.py,mybot_v2.py --mode duel [--bots random] \\
        [--elo0 0] [--elo1 40] [--alpha 0.05] [--beta 0.05] [--seeds 500] [--seed 0] [--json]

Seed after seed, each deal is played once with A and once with B in the tested seat, against
the same opponents (``--bots``, default ``random``) in the same other seats, in every seat
rotation (the plan is the tournament's own, ``competition/paired_stats.py``). After every seed the
SPRT
(``competition/sprt.py``: pentanomial for two seats) updates its log-likelihood ratio, and the run
stops as soon as it crosses a bound, or at the cap of ``--seeds`` deals. Prints the LLR and
its bounds, the games played, the Elo difference B − A with its interval, and one verdict that
the interval agrees with; then plain descriptions (mean score difference, win rates). Exit
code 0 whatever the verdict; 2 for bad input.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from typing import Any

from competition import paired_stats as paired
from competition import sprt
from engine.modes import mode_class
from workers.paired_play import run_local

from .errors import CliError

DEFAULT_SEEDS = 500


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--paired", default=None, metavar="A,B",
        help="compare bot B with bot A on the same deals (duplicate format); --bots are the "
        "opponents (default random)",
    )  # fmt: skip
    # Defaults None, filled in by `paired_settings`: so that the plain arena can tell a flag
    # it would ignore was given (arena/commands/arena.py, `check_flags`).
    parser.add_argument("--seeds", type=int, default=None,
                        help=f"--paired: the cap, in deals (default {DEFAULT_SEEDS})")
    parser.add_argument("--elo0", type=float, default=None,
                        help=f"--paired: H0, B - A in Elo (default {sprt.DEFAULT_ELO0:g})")
    parser.add_argument("--elo1", type=float, default=None,
                        help=f"--paired: H1, B - A in Elo (default {sprt.DEFAULT_ELO1:g})")
    parser.add_argument("--alpha", type=float, default=None,
                        help="--paired: false-positive rate (default 0.05)")
    parser.add_argument("--beta", type=float, default=None,
                        help="--paired: false-negative rate (default 0.05)")  # fmt: skip
    parser.add_argument(
        "--paired-log", default=None, metavar="FILE",
        help="--paired: append each game's result to FILE as a JSON line (a run cut short can "
        "still be analysed: workers.paired_play.analyse_log)",
    )  # fmt: skip


def paired_settings(args: argparse.Namespace) -> sprt.SprtSettings:
    """The SPRT's settings from the flags, each flag not given at its default."""

    def given(value: float | None, default: float) -> float:
        return default if value is None else value

    try:
        return sprt.SprtSettings(
            given(args.elo0, sprt.DEFAULT_ELO0), given(args.elo1, sprt.DEFAULT_ELO1),
            given(args.alpha, sprt.DEFAULT_ALPHA), given(args.beta, sprt.DEFAULT_BETA),
        )  # fmt: skip
    except sprt.BadSprt as exc:
        raise CliError(str(exc)) from None


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
        if args.bots:
            raise CliError("--bots does not apply to a solo --paired run: each game is "
                           "against the sister (choose her with --difficulty)")
        opponents = []
    elif len(opponents) > seats - 1:
        raise CliError(f"at most {seats - 1} opponents (--bots) at {seats} seats")
    seeds = DEFAULT_SEEDS if args.seeds is None else args.seeds
    if not 1 <= seeds <= 10_000:
        raise CliError("--seeds must be in 1..10000")
    settings = paired_settings(args)
    check_bots([*names, *opponents])
    mode_class(args.mode)  # an unknown mode fails here, before any game
    progress = make_progress(seeds * seats * 2) if make_progress else None
    result = run_local(
        a=names[0], b=names[1], opponents=opponents or ["random"], mode=args.mode, seats=seats,
        seeds=seeds, base_seed=args.seed, options=options, settings=settings,
        on_game=(lambda done, _cap, expected: progress.update(done, expected))
        if progress else None,
        jobs=max(1, int(getattr(args, "jobs", None) or 1)),
        log_path=getattr(args, "paired_log", None),
    )  # fmt: skip
    if progress is not None and getattr(progress, "tty", False) and result.games < progress.total:
        progress.stream.write("\n")  # the test stopped before the cap: end the progress line
    if args.json:
        print(json.dumps({"mode": args.mode, "players": seats, "a": names[0], "b": names[1],
                          "opponents": opponents, **result.to_json()}, sort_keys=True))  # fmt: skip
        return 0
    print(readable(args.mode, seats, names, opponents, result))
    return 0


def _elo(value: float) -> str:
    return "-inf" if value == -math.inf else "+inf" if value == math.inf else f"{value:+.1f}"


def readable(
    mode: str, seats: int, names: list[str], opponents: list[str], r: paired.Comparison
) -> str:
    confidence = round(100 * r.confidence)
    against = ", ".join(opponents) if opponents else "the sister"
    groups = ("pairs by points: 0, 0.5, 1, 1.5, 2" if seats == 2
              else f"seeds by points out of {seats}, in halves")  # fmt: skip
    counts = " ".join(str(c) for c in r.counts)
    return "\n".join([
        f"paired: {mode}, {seats} players, A = {names[0]}, B = {names[1]}, against {against}",
        f"SPRT    elo0 {r.elo0:+g}, elo1 {r.elo1:+g}, alpha {r.alpha:g}, beta {r.beta:g}",
        "",
        f"LLR                {r.llr:+.2f}  (bounds {r.llr_lower:+.2f} .. {r.llr_upper:+.2f})",
        f"games              {r.games} ({r.seeds} seeds x {seats} rotations x 2)",
        f"Elo B - A          {_elo(r.elo)}  ({confidence}% interval {_elo(r.elo_low)} .. "
        f"{_elo(r.elo_high)})",
        f"{'pentanomial' if seats == 2 else 'group scores':<18} {counts}  ({groups})",
        f"verdict            {r.verdict}",
        "",
        f"mean score B - A   {r.mean_diff:+.2f} per game",
        f"win rate           A {100 * r.win_rate_a:.1f}%   B {100 * r.win_rate_b:.1f}%",
        *([f"mean rank B - A    {r.mean_rank_diff:+.3f} (negative: B ranks better)"]
          if r.mean_rank_diff is not None and seats > 1 else []),
        f"B ahead of A       {100 * r.b_ahead_rate:.1f}% of paired games",
    ])  # fmt: skip
