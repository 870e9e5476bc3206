"""``python -m arena arena``: many seeded games between bots, with every seat rotation.

    python -m arena arena --mode standard --players 4 --bots mybot.py,greedy,random \\
        --games 200 [--seed 0] [--jobs N] [--json] [--time-limit S] [--time-bank S]

Bots are built-in names or bot files (``.py``, ``.js`` or ``.zip`` bundles, run in the workers'
sandbox with the workers' limits, exactly as in a tournament). Seating:

* as many bots as seats or fewer: the table is filled cyclically (``a,b,c`` at four seats is
  ``a,b,c,a``) and every *rotation* of that table is played, so each seat sees each bot;
* more bots than seats: rotation ``r`` seats bots ``r, r+1, ...`` (cyclically), so each bot
  plays each seat once per cycle of rotations and sits some out.

One *deal* is one seed played in every rotation; ``--games`` is rounded up to whole deals.
Games run in parallel worker processes (``--jobs``, default: the CPU count) with a plain
progress line on stderr. The table gives, per bot: games, wins (rank 1, shared ranks count
as wins) with a 95 % Wilson interval, mean score and mean rank with 95 % intervals, faults,
and an Elo estimate fitted to every pair of seats of every game (see ``arena.stats``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from engine.bots import BUILTIN_BOTS
from engine.errors import ConfigError
from engine.modes import mode_class

from ..errors import CliError
from ..paired import add_arguments as add_paired_arguments
from ..paired import run_paired
from ..stats import elo_from_pairs, mean_interval, pair_results, wilson
from .play import (
    BOT_FILE_SUFFIXES,
    DEFAULT_PLAYERS,
    _options,
    add_limit_arguments,
    limits_from_args,
)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("arena", help="many seeded games between bots: win rates, Elo")
    parser.add_argument("--mode", default="standard", help="standard, family, solo or duel")
    parser.add_argument("--players", type=int, default=None, help="seats per game")
    parser.add_argument(
        "--bots", default=None,
        help="comma-separated bots: built-in names or bot files (with --paired: the opponents)",
    )  # fmt: skip
    parser.add_argument(
        "--games",
        type=int,
        default=100,
        help="games to play, rounded up to whole deals (default 100)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the first deal (default 0)")
    parser.add_argument(
        "--jobs", type=int, default=None, help="parallel worker processes (default: the CPU count)"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a mode option (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    add_paired_arguments(parser)
    add_limit_arguments(parser)
    parser.set_defaults(func=run)


def lineups(bots: Sequence[str], seats: int) -> list[list[int]]:
    """The tables of one deal, as bot indices per seat (see the module docstring).

    >>> lineups(["a", "b", "c"], 4)
    [[0, 1, 2, 0], [1, 2, 0, 0], [2, 0, 0, 1], [0, 0, 1, 2]]
    >>> lineups(["a", "b", "c"], 2)
    [[0, 1], [1, 2], [2, 0]]
    """
    k = len(bots)
    if k <= seats:
        base = [s % k for s in range(seats)]
        return [[base[(s + r) % seats] for s in range(seats)] for r in range(seats)]
    return [[(s + r) % k for s in range(seats)] for r in range(k)]


@dataclass(frozen=True)
class GameJob:
    """One game of the arena, sent to a worker process."""

    mode: str
    seed: int
    options: dict[str, Any]
    bots: tuple[str, ...]  # per seat
    lineup: tuple[int, ...]  # bot index per seat
    limits: dict[str, Any]


@dataclass
class GameRecord:
    lineup: tuple[int, ...]
    scores: list[float]
    ranks: list[int]
    faults: list[tuple[int, str]]  # (seat, kind)
    seconds: float
    warnings: list[str] = field(default_factory=list)


def play_one(job: GameJob) -> GameRecord:
    """Play one game in a worker process: the match runner, so bot files get the sandbox."""
    from workers.limits import Limits
    from workers.runner import MatchSpec, SeatSpec, run_match

    spec = MatchSpec(
        mode=job.mode,
        seats=tuple(SeatSpec.parse(b) for b in job.bots),
        seed=job.seed,
        options=job.options,
        limits=Limits().override(**job.limits),
        replay=False,
    )
    started = time.monotonic()
    outcome = run_match(spec)
    return GameRecord(
        lineup=job.lineup,
        scores=list(outcome.result["scores"]),
        ranks=list(outcome.result["ranks"]),
        faults=[(f.seat, f.kind.value) for f in outcome.faults],
        seconds=time.monotonic() - started,
        warnings=outcome.warnings,
    )


class Progress:
    """A plain-text progress line on stderr: redrawn in place on a terminal, every 10 % else."""

    def __init__(self, total: int, stream: Any = None) -> None:
        self.total = total
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.started = time.monotonic()
        self._last_tenth = -1

    def update(self, done: int) -> None:
        elapsed = time.monotonic() - self.started
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - done) / rate if rate > 0 else 0.0
        filled = int(30 * done / self.total) if self.total else 30
        line = (
            f"[{'#' * filled}{'.' * (30 - filled)}] {done}/{self.total} games"
            f"  {rate:.1f}/s  eta {eta:.0f}s"
        )
        if self.tty:
            self.stream.write("\r" + line + ("\n" if done == self.total else ""))
            self.stream.flush()
        elif (tenth := 10 * done // max(self.total, 1)) != self._last_tenth:
            self._last_tenth = tenth
            self.stream.write(line + "\n")
            self.stream.flush()


def play_all(jobs: Sequence[GameJob], workers: int, progress: Progress | None) -> list[GameRecord]:
    """Every job, in parallel; results come back in job order."""
    results: list[GameRecord | None] = [None] * len(jobs)
    done = 0
    if workers <= 1:
        for i, job in enumerate(jobs):
            results[i] = play_one(job)
            done += 1
            if progress:
                progress.update(done)
        return results  # type: ignore[return-value]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: dict[Future[GameRecord], int] = {}
        queue = iter(enumerate(jobs))
        for i, job in queue:  # keep a bounded number in flight
            pending[pool.submit(play_one, job)] = i
            if len(pending) >= 4 * workers:
                break
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                results[pending.pop(future)] = future.result()
                done += 1
                if progress:
                    progress.update(done)
                nxt = next(queue, None)
                if nxt is not None:
                    pending[pool.submit(play_one, nxt[1])] = nxt[0]
    return results  # type: ignore[return-value]


def summarise(bots: Sequence[str], records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """Per-bot figures over all seats it held."""
    scores: list[list[float]] = [[] for _ in bots]
    ranks: list[list[int]] = [[] for _ in bots]
    wins = [0] * len(bots)
    faults: list[dict[str, int]] = [{} for _ in bots]
    pairs = []
    for rec in records:
        for seat, bot in enumerate(rec.lineup):
            scores[bot].append(rec.scores[seat])
            ranks[bot].append(rec.ranks[seat])
            wins[bot] += rec.ranks[seat] == 1
        for seat, kind in rec.faults:
            bot = rec.lineup[seat]
            faults[bot][kind] = faults[bot].get(kind, 0) + 1
        pairs += pair_results(rec.lineup, rec.ranks)
    elo = elo_from_pairs(len(bots), pairs) if len(bots) > 1 else [1500.0]
    out = []
    for b, name in enumerate(bots):
        n = len(scores[b])
        low, high = wilson(wins[b], n)
        mean, s_low, s_high = mean_interval(scores[b])
        rank, r_low, r_high = mean_interval(ranks[b])
        out.append(
            {
                "bot": name,
                "seats_played": n,
                "wins": wins[b],
                "win_rate": wins[b] / n if n else math.nan,
                "win_rate_ci": [low, high],
                "mean_score": mean,
                "mean_score_ci": [s_low, s_high],
                "mean_rank": rank,
                "mean_rank_ci": [r_low, r_high],
                "elo": elo[b],
                "faults": faults[b],
            }
        )
    return out


def _check_bots(bots: Sequence[str]) -> None:
    for bot in bots:
        if bot in BUILTIN_BOTS:
            continue
        if not (bot.lower().endswith(BOT_FILE_SUFFIXES) and os.path.isfile(bot)):
            raise ConfigError(
                f"unknown bot {bot!r}: built-in bots are {', '.join(BUILTIN_BOTS)}, "
                "or give a bot file (.py, .js, .zip)"
            )
        from workers.bundles import BundleError, validate_bundle

        try:
            validate_bundle(bot)
        except BundleError as exc:
            raise ConfigError(f"{bot}: {exc.reason}") from None


def run(args: argparse.Namespace) -> int:
    mode = args.mode
    game_type = mode_class(mode).game_type
    seats = args.players if args.players is not None else DEFAULT_PLAYERS.get(mode, 2)
    if not game_type.min_seats <= seats <= game_type.max_seats:
        raise ConfigError(
            f"mode {mode!r} is played by {game_type.min_seats}-"
            f"{game_type.max_seats} seats, not {seats}"
        )
    if args.paired:
        return run_paired(
            args, seats=seats, options=_options(args.option), check_bots=_check_bots,
            make_progress=Progress,
        )  # fmt: skip
    if not args.bots:
        raise CliError("name the bots (--bots a,b,...) or two bots to compare (--paired A,B)")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not bots:
        raise ConfigError("name at least one bot (--bots a,b,...)")
    if args.games < 1:
        raise ConfigError("--games must be at least 1")
    _check_bots(bots)
    tables = lineups(bots, seats)
    deals = math.ceil(args.games / len(tables))
    options = _options(args.option)
    limits = {k: v for k, v in limits_from_args(args).items() if v is not None}
    jobs = [
        GameJob(mode, args.seed + d, options, tuple(bots[i] for i in table), tuple(table), limits)
        for d in range(deals)
        for table in tables
    ]
    workers = max(1, min(args.jobs or os.cpu_count() or 1, len(jobs)))
    started = time.monotonic()
    records = play_all(jobs, workers, Progress(len(jobs)))
    elapsed = time.monotonic() - started
    table = summarise(bots, records)
    warnings = sorted({w for r in records for w in r.warnings})
    if args.json:
        print(
            json.dumps(
                {
                    "mode": mode,
                    "players": seats,
                    "games": len(records),
                    "deals": deals,
                    "rotations": len(tables),
                    "first_seed": args.seed,
                    "jobs": workers,
                    "seconds": round(elapsed, 3),
                    "bots": table,
                    "warnings": warnings,
                },
                sort_keys=True,
            )
        )
        return 0
    print(readable(mode, seats, len(records), deals, len(tables), elapsed, table))
    for line in warnings:
        print(f"warning: {line}", file=sys.stderr)
    return 0


def readable(
    mode: str,
    seats: int,
    games: int,
    deals: int,
    rotations: int,
    seconds: float,
    table: Sequence[dict[str, Any]],
) -> str:
    width = max(12, *(len(row["bot"]) for row in table))
    lines = [
        f"arena: {mode}, {seats} players, {games} games ({deals} deals x {rotations} "
        f"rotations) in {seconds:.1f} s",
        "",
        f"{'bot':<{width}}  {'seats':>5}  {'win rate (95% CI)':<20} {'mean score (95% CI)':<24} "
        f"{'mean rank':<18} {'Elo':>6}  faults",
    ]
    for row in sorted(table, key=lambda r: -r["elo"]):
        lo, hi = row["win_rate_ci"]
        s_lo, s_hi = row["mean_score_ci"]
        r_lo, r_hi = row["mean_rank_ci"]
        faults = ", ".join(f"{k} {v}" for k, v in sorted(row["faults"].items())) or "-"
        lines.append(
            f"{row['bot']:<{width}}  {row['seats_played']:>5}  "
            f"{100 * row['win_rate']:5.1f}% [{100 * lo:4.1f}, {100 * hi:5.1f}]  "
            f"{row['mean_score']:7.2f} [{s_lo:6.2f}, {s_hi:6.2f}]  "
            f"{row['mean_rank']:4.2f} [{r_lo:4.2f}, {r_hi:4.2f}]  {row['elo']:6.0f}  {faults}"
        )
    return "\n".join(lines)
