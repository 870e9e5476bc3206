"""``python -m arena arena``: many seeded games between bots, with every seat rotation.

    python -m arena arena --mode standard --players 4 --bots mybot.py,greedy,random \\
        --games 200 [--seed 0] [--jobs N] [--json] [--replays DIR] [--time-limit S]

Bots are built-in names or bot files (``.py``, ``.js`` or ``.zip`` bundles, run in the workers'
sandbox with the workers' limits, exactly as in a tournament). Seating:

* as many bots as seats or fewer: the table is filled cyclically (``a,b,c`` at four seats is
  ``a,b,c,a``) and every *rotation* of that table is played, so each seat sees each bot;
* more bots than seats: rotation ``r`` seats bots ``r, r+1, ...`` (cyclically), so each bot
  plays each seat once per cycle of rotations and sits some out.

One *deal* is one seed played in every rotation; ``--games`` is rounded up to whole deals.
Games run in parallel worker processes (``--jobs``, default: the CPU count) with a plain
progress line on stderr. The table gives, per bot: games, wins (first alone: a first place
shared is a tie, counted as ``ties``, not a win for each, and a seat that faulted never wins,
whatever the default policy scored for it; the runner already ranks it last) with a 95 %
Wilson interval, mean score and mean rank with 95 % intervals (a mean
rank's interval is clipped to [1, seats]), faults, and an Elo estimate fitted to every pair
of seats of every game (see ``arena.stats``). Solo has no opponents to rate against: each
bot's score is set against the sister's, with intervals for both, the margin and the rate of
games won. ``--json`` adds the same figures per seat (does a seat favour its holder?).
``--replays DIR`` writes every game's replay there.

The command is a pipeline a variant can reuse step by step: ``arena_config`` (the checked
command line), ``build_jobs``, ``play_all``, then ``report``. ``--paired A,B`` is such a
variant (``arena.paired``): B against A on the same deals.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from competition.limits import Limits
from engine.bots import builtin_names
from engine.errors import ConfigError
from engine.modes import mode_class
from workers.runner import MatchSpec, SeatSpec, run_match

from ..errors import CliError
from ..options import parse_options
from ..paired import add_arguments as add_paired_arguments
from ..paired import run_paired
from ..seats import seat_spec
from ..stats import clip_interval, elo_from_pairs, mean_interval, pair_results, wilson
from .play import DEFAULT_PLAYERS, add_limit_arguments, limits_from_args

DEFAULT_GAMES = 100

# The flags one variant of the command takes and the other would ignore (dest: the sentence
# that says so, naming what to use instead). Given to the other, each is an error, never
# silently dropped.
PLAIN_ONLY = {
    "games": "--games does not apply to --paired: its cap is --seeds N (deals, each played "
             "in every seat rotation by both bots)",
    "replays": "--replays does not apply to --paired (play a deal with `arena play --replay`)",
    "time_limit": "--time-limit does not apply to --paired: its games run under the workers' "
                  "default limits",
    "time_bank": "--time-bank does not apply to --paired: its games run under the workers' "
                 "default limits",
    "memory_mb": "--memory-mb does not apply to --paired: its games run under the workers' "
                 "default limits",
}  # fmt: skip
PAIRED_ONLY = {
    "seeds": "--seeds is the cap of --paired A,B; without --paired, the number of games is "
             "--games N",
    "elo0": "--elo0 applies only to --paired A,B",
    "elo1": "--elo1 applies only to --paired A,B",
    "alpha": "--alpha applies only to --paired A,B",
    "beta": "--beta applies only to --paired A,B",
    "paired_log": "--paired-log applies only to --paired A,B",
}  # fmt: skip


def check_flags(args: argparse.Namespace) -> None:
    """A CliError for the first flag given that this variant (plain or --paired) ignores."""
    ignored = PLAIN_ONLY if getattr(args, "paired", None) else PAIRED_ONLY
    for dest, message in ignored.items():
        if getattr(args, dest, None) is not None:
            raise CliError(message)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("arena", help="many seeded games between bots: win rates, Elo")
    parser.add_argument("--mode", default="standard", help="standard, family, solo or duel")
    parser.add_argument("--players", type=int, default=None, help="seats per game")
    parser.add_argument(
        "--bots", default=None,
        help=f"comma-separated bots, each a built-in bot, one of {builtin_names()}, or a bot "
             "file (with --paired: the opponents); a bot named twice is one bot in two seats",
    )  # fmt: skip
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help=f"games to play, rounded up to whole deals (default {DEFAULT_GAMES}; with "
        "--paired the cap is --seeds)",
    )  # fmt: skip
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
    parser.add_argument("--difficulty", default=None,
                        help="solo: easy (default), medium, hard, very_hard or expert")
    parser.add_argument("--json", action="store_true",
                        help="print the figures (per bot and per seat) as JSON")
    parser.add_argument("--replays", metavar="DIR",
                        help="write every game's replay into DIR (created if missing)")
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
    replay_path: str | None = None  # where to write the game's replay, if anywhere


@dataclass
class GameRecord:
    lineup: tuple[int, ...]
    scores: list[float]
    ranks: list[int]
    faults: list[tuple[int, str]]  # (seat, kind)
    seconds: float
    warnings: list[str] = field(default_factory=list)
    sister: float | None = None  # solo: the sister's score
    won: bool | None = None  # solo: the player beat the sister
    moves: list[MoveTimes] = field(default_factory=list)  # per seat


@dataclass(frozen=True)
class MoveTimes:
    """One seat's decisions in one game and their time: CPU (what the limits charge) and wall
    (what a waiting table sees). The default policy's decisions after a fault are left out."""

    decisions: int = 0
    cpu: float = 0.0
    cpu_max: float = 0.0
    wall: float = 0.0
    wall_max: float = 0.0

    def __add__(self, other: MoveTimes) -> MoveTimes:
        return MoveTimes(self.decisions + other.decisions, self.cpu + other.cpu,
                         max(self.cpu_max, other.cpu_max), self.wall + other.wall,
                         max(self.wall_max, other.wall_max))  # fmt: skip


def move_times(actions: Sequence[dict[str, Any]], seats: int) -> list[MoveTimes]:
    """Per seat, the times of its own decisions from the runner's action records."""
    out = [MoveTimes() for _ in range(seats)]
    for record in actions:
        if record.get("default"):
            continue
        seat = record["seat"]
        cpu, wall = float(record["cpu"]), float(record["seconds"])
        out[seat] += MoveTimes(1, cpu, cpu, wall, wall)
    return out


def play_one(job: GameJob) -> GameRecord:
    """Play one game in a worker process: the match runner, so bot files get the sandbox."""
    spec = MatchSpec(
        mode=job.mode,
        seats=tuple(SeatSpec.parse(b) for b in job.bots),
        seed=job.seed,
        options=job.options,
        limits=Limits().override(**job.limits),
        replay=job.replay_path is not None,
    )
    started = time.monotonic()
    outcome = run_match(spec)
    if job.replay_path is not None and outcome.replay is not None:
        with open(job.replay_path, "wb") as out:
            out.write(outcome.replay)
    result = outcome.result
    sister = result.get("sister")
    return GameRecord(
        lineup=job.lineup,
        scores=list(result["scores"]),
        ranks=list(result["ranks"]),
        faults=[(f.seat, f.kind.value) for f in outcome.faults],
        seconds=time.monotonic() - started,
        warnings=outcome.warnings,
        sister=float(sister["total"]) if isinstance(sister, dict) else None,
        won=bool(result["won"]) if "won" in result else None,
        moves=move_times(outcome.actions, len(job.bots)),
    )


class Progress:
    """A plain-text progress line on stderr: redrawn in place on a terminal, every 10 % else.

    ``sequential``: ``total`` is only a cap (a paired comparison's SPRT stops when it crosses a
    bound), so the ETA is taken from ``expected``, the games the test is expected to play
    (``competition.sprt.groups_left``), and before there is one the line says "at most"."""

    def __init__(self, total: int, stream: Any = None, *, sequential: bool = False) -> None:
        self.total = total
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.sequential = sequential
        self.started = time.monotonic()
        self._last_tenth = -1

    def _eta(self, done: int, rate: float, expected: int | None) -> str:
        if rate <= 0:
            return "eta -"
        if not self.sequential:
            return f"eta {(self.total - done) / rate:.0f}s"
        if expected is None:
            return f"eta at most {(self.total - done) / rate:.0f}s (the cap, {self.total} games)"
        left = max(expected - done, 0)
        return (f"eta ~{left / rate:.0f}s (the SPRT expects ~{expected} games at its estimate; "
                f"cap {self.total})")

    def update(self, done: int, expected: int | None = None) -> None:
        elapsed = time.monotonic() - self.started
        rate = done / elapsed if elapsed > 0 else 0.0
        filled = int(30 * done / self.total) if self.total else 30
        line = (
            f"[{'#' * filled}{'.' * (30 - filled)}] {done}/{self.total} games"
            f"  {rate:.1f}/s  {self._eta(done, rate, expected)}"
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


def outcome_of(rec: GameRecord, seat: int) -> str:
    """``"win"``, ``"tie"`` (first place shared) or ``"loss"`` for one seat of a game. A seat
    that faulted never wins or ties: the default policy's play is not the bot's."""
    if any(s == seat for s, _ in rec.faults):
        return "loss"
    if rec.sister is not None:
        return "win" if rec.won else "loss"
    if rec.ranks[seat] != 1:
        return "loss"
    return "win" if rec.ranks.count(1) == 1 else "tie"


def _rate_and_means(
    wins: int, scores: Sequence[float], ranks: Sequence[int], seats: int, ties: int = 0
) -> dict[str, Any]:
    n = len(scores)
    low, high = wilson(wins, n)
    mean, s_low, s_high = mean_interval(scores)
    rank, r_low, r_high = mean_interval(ranks)
    return {
        "wins": wins,
        "ties": ties,
        "win_rate": wins / n if n else math.nan,
        "win_rate_ci": [low, high],
        "mean_score": mean,
        "mean_score_ci": [s_low, s_high],
        "mean_rank": rank,
        "mean_rank_ci": list(clip_interval((r_low, r_high), 1, seats)),
    }


def _times_row(times: MoveTimes) -> dict[str, Any]:
    n = times.decisions
    return {"decisions": n, "move_cpu_mean": times.cpu / n if n else None,
            "move_cpu_max": times.cpu_max if n else None,
            "move_seconds_mean": times.wall / n if n else None,
            "move_seconds_max": times.wall_max if n else None}  # fmt: skip


def summarise(
    bots: Sequence[str], records: Sequence[GameRecord], seats: int | None = None
) -> list[dict[str, Any]]:
    """Per-bot figures over all seats it held: one row per distinct bot, however many seats
    of a table it fills (``--bots mine.py,greedy,greedy,greedy`` gives two rows, greedy's over
    its three seats of every game; two seats of one bot are no pair for its Elo). Solo rows
    set the bot against the sister (`sister_score`, `margin`; wins are games won) instead of
    an Elo between bots. Each row has its decisions' CPU and wall time per move."""
    seats = seats or max((len(r.lineup) for r in records), default=1)
    solo = any(r.sister is not None for r in records)
    names = list(dict.fromkeys(bots))
    row_of = [names.index(name) for name in bots]  # a lineup's bot index -> its row
    scores: list[list[float]] = [[] for _ in names]
    ranks: list[list[int]] = [[] for _ in names]
    sister: list[list[float]] = [[] for _ in names]
    wins = [0] * len(names)
    ties = [0] * len(names)
    faults: list[dict[str, int]] = [{} for _ in names]
    times = [MoveTimes() for _ in names]
    pairs = []
    for rec in records:
        lineup = [row_of[bot] for bot in rec.lineup]
        for seat, bot in enumerate(lineup):
            scores[bot].append(rec.scores[seat])
            ranks[bot].append(rec.ranks[seat])
            if rec.sister is not None:
                sister[bot].append(rec.sister)
            outcome = outcome_of(rec, seat)
            wins[bot] += outcome == "win"
            ties[bot] += outcome == "tie"
            if seat < len(rec.moves):
                times[bot] += rec.moves[seat]
        for seat, kind in rec.faults:
            bot = lineup[seat]
            faults[bot][kind] = faults[bot].get(kind, 0) + 1
        pairs += pair_results(lineup, rec.ranks)
    elo = elo_from_pairs(len(names), pairs) if not solo else None
    out = []
    for b, name in enumerate(names):
        row: dict[str, Any] = {"bot": name, "seats_played": len(scores[b])}
        row.update(_rate_and_means(wins[b], scores[b], ranks[b], seats, ties[b]))
        row.update(_times_row(times[b]))
        if solo:
            mean, low, high = mean_interval(sister[b])
            margins = [s - t for s, t in zip(scores[b], sister[b], strict=True)]
            m_mean, m_low, m_high = mean_interval(margins)
            row.update(sister_score=mean, sister_score_ci=[low, high], margin=m_mean,
                       margin_ci=[m_low, m_high])  # fmt: skip
            del row["mean_rank"], row["mean_rank_ci"]  # one player: its rank says nothing
        if elo is not None:
            row["elo"] = elo[b]
        row["faults"] = faults[b]
        out.append(row)
    return out


def summarise_seats(records: Sequence[GameRecord], seats: int) -> list[dict[str, Any]]:
    """Per-seat figures over every game, whoever held the seat: a seat advantage shows here."""
    solo = any(r.sister is not None for r in records)
    out = []
    for seat in range(seats):
        scores = [r.scores[seat] for r in records]
        ranks = [r.ranks[seat] for r in records]
        outcomes = [outcome_of(r, seat) for r in records]
        wins, ties = outcomes.count("win"), outcomes.count("tie")
        faults: dict[str, int] = {}
        for r in records:
            for s, kind in r.faults:
                if s == seat:
                    faults[kind] = faults.get(kind, 0) + 1
        row: dict[str, Any] = {"seat": seat, "games": len(records)}
        row.update(_rate_and_means(wins, scores, ranks, seats, ties))
        if solo:
            del row["mean_rank"], row["mean_rank_ci"]
        row["faults"] = faults
        out.append(row)
    return out


@dataclass(frozen=True)
class ArenaConfig:
    """The checked command line of one arena."""

    mode: str
    seats: int
    bots: list[str]
    games: int
    first_seed: int
    options: dict[str, Any]
    limits: dict[str, Any]
    jobs: int | None
    replays: str | None


def _seats(args: argparse.Namespace) -> int:
    mode = args.mode
    game_type = mode_class(mode).game_type
    seats = args.players if args.players is not None else DEFAULT_PLAYERS.get(mode, 2)
    if not game_type.min_seats <= seats <= game_type.max_seats:
        lo, hi = game_type.min_seats, game_type.max_seats
        span = f"{lo}" if lo == hi else f"{lo}-{hi}"
        raise ConfigError(f"mode {mode!r} is played by {span} seats, not {seats}")
    return seats


def _check_bots(bots: Sequence[str]) -> None:
    for bot in bots:
        seat_spec(bot)  # no such file, unknown bot, a broken bundle


def arena_config(args: argparse.Namespace) -> ArenaConfig:
    """Every mistake of the command line as one ConfigError, before any game starts."""
    mode = args.mode
    seats = _seats(args)
    if not args.bots:
        raise CliError("name the bots (--bots a,b,...) or two bots to compare (--paired A,B)")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not bots:
        raise ConfigError("name at least one bot (--bots a,b,...)")
    games = DEFAULT_GAMES if args.games is None else args.games
    if games < 1:
        raise ConfigError("--games must be at least 1")
    _check_bots(bots)
    options = parse_options(args.option)
    if getattr(args, "difficulty", None) is not None:
        options["difficulty"] = args.difficulty
    replay_dir = getattr(args, "replays", None)
    if replay_dir:
        os.makedirs(replay_dir, exist_ok=True)
    limits = {k: v for k, v in limits_from_args(args).items() if v is not None}
    return ArenaConfig(mode, seats, bots, games, args.seed, options, limits, args.jobs,
                       replay_dir)  # fmt: skip


def build_jobs(config: ArenaConfig) -> tuple[list[GameJob], int, int]:
    """The games of whole deals: (jobs, deals, rotations per deal)."""
    tables = lineups(config.bots, config.seats)
    deals = math.ceil(config.games / len(tables))
    jobs = []
    for d in range(deals):
        seed = config.first_seed + d
        for r, table in enumerate(tables):
            path = None
            if config.replays:
                path = os.path.join(config.replays, f"seed{seed}-rotation{r}.replay")
            jobs.append(GameJob(config.mode, seed, config.options,
                                tuple(config.bots[i] for i in table), tuple(table),
                                config.limits, path))  # fmt: skip
    return jobs, deals, len(tables)


def run(args: argparse.Namespace) -> int:
    check_flags(args)
    if getattr(args, "paired", None):
        options = parse_options(args.option)
        if args.difficulty is not None:
            options["difficulty"] = args.difficulty
        return run_paired(
            args, seats=_seats(args), options=options, check_bots=_check_bots,
            make_progress=functools.partial(Progress, sequential=True),
        )  # fmt: skip
    config = arena_config(args)
    jobs, deals, rotations = build_jobs(config)
    workers = max(1, min(config.jobs or os.cpu_count() or 1, len(jobs)))
    started = time.monotonic()
    records = play_all(jobs, workers, Progress(len(jobs)))
    elapsed = time.monotonic() - started
    report(config, records, deals=deals, rotations=rotations, workers=workers,
           seconds=elapsed, as_json=args.json)  # fmt: skip
    return 0


def report(
    config: ArenaConfig,
    records: Sequence[GameRecord],
    *,
    deals: int,
    rotations: int,
    workers: int,
    seconds: float,
    as_json: bool,
) -> None:
    table = summarise(config.bots, records, config.seats)
    warnings = sorted({w for r in records for w in r.warnings})
    if as_json:
        print(json.dumps({
            "mode": config.mode, "players": config.seats, "options": config.options,
            "games": len(records), "deals": deals, "rotations": rotations,
            "first_seed": config.first_seed, "jobs": workers, "seconds": round(seconds, 3),
            "bots": table, "seats": summarise_seats(records, config.seats),
            "replays": config.replays, "warnings": warnings,
        }, sort_keys=True))  # fmt: skip
        return
    if any(r.sister is not None for r in records):
        print(readable_solo(config, len(records), deals, rotations, seconds, table))
    else:
        print(readable(config.mode, config.seats, len(records), deals, rotations, seconds,
                       table))  # fmt: skip
    if config.replays:
        print(f"replays: {len(records)} files in {config.replays}")
    for line in warnings:
        print(f"warning: {line}", file=sys.stderr)


def readable_solo(
    config: ArenaConfig,
    games: int,
    deals: int,
    rotations: int,
    seconds: float,
    table: Sequence[dict[str, Any]],
) -> str:
    """Solo: each bot's score against the sister's, with 95 % intervals; no Elo."""
    difficulty = config.options.get("difficulty", "easy")
    width = max(12, *(len(row["bot"]) for row in table))
    lines = [
        f"arena: solo against the sister ({difficulty}), {games} games ({deals} deals x "
        f"{rotations} bot(s)) in {seconds:.1f} s",
        "",
        f"{'bot':<{width}}  {'games':>5}  {'score (95% CI)':<25}  {'sister (95% CI)':<25}  "
        f"{'margin (95% CI)':<25}  {'won (95% CI)':<20} {MOVE_HEADER:<{MOVE_WIDTH}}  faults",
    ]
    for row in sorted(table, key=lambda r: -r["margin"]):
        lo, hi = row["win_rate_ci"]
        faults = ", ".join(f"{k} {v}" for k, v in sorted(row["faults"].items())) or "-"
        cells = [
            _mean_cell(row["mean_score"], row["mean_score_ci"]),
            _mean_cell(row["sister_score"], row["sister_score_ci"]),
            _mean_cell(row["margin"], row["margin_ci"], signed=True),
        ]
        lines.append(
            f"{row['bot']:<{width}}  {row['seats_played']:>5}  "
            + "  ".join(f"{c:<25}" for c in cells)
            + f"  {100 * row['win_rate']:5.1f}% [{100 * lo:4.1f}, {100 * hi:5.1f}]  "
            + f"{move_cell(row):<{MOVE_WIDTH}}  {faults}"
        )
    return "\n".join(lines)


MOVE_HEADER = "cpu ms/move mean, max"
MOVE_WIDTH = 21


def move_cell(row: dict[str, Any]) -> str:
    """A bot's CPU time per move: mean and max over its decisions (``-`` without one)."""
    if row.get("move_cpu_mean") is None:
        return "-"
    return f"{1000 * row['move_cpu_mean']:.1f}, {1000 * row['move_cpu_max']:.1f}"


def _mean_cell(mean: float, ci: Sequence[float], signed: bool = False) -> str:
    sign = "+" if signed else ""
    return f"{mean:{sign}7.2f} [{ci[0]:{sign}.2f}, {ci[1]:{sign}.2f}]"


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
        f"{'mean rank':<18} {'Elo':>6}  {'ties':>4}  {MOVE_HEADER:<{MOVE_WIDTH}}  faults",
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
            f"{row['mean_rank']:4.2f} [{r_lo:4.2f}, {r_hi:4.2f}]  {row['elo']:6.0f}  "
            f"{row['ties']:>4}  {move_cell(row):<{MOVE_WIDTH}}  {faults}"
        )
    return "\n".join(lines)
