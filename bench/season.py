"""A season of a Duel ladder of many bots, with a deadline burst, against the ladder's real
scheduler, the engine's matches replaced by a cheap outcome model.

    python bench/season.py [--bots 1000] [--burst 300] [--workers 16] [--match-seconds 4.9]
                           [--before-minutes 30] [--burst-minutes 60] [--seed 1] [--json]
                           [--divisions SIZE] [--one-queue]

What is real: the choice of tables (`competition.ladder_scheduling.information_tables`, what
`services.leagues.ladder_tables` calls, with the league's busy flags and recent-pair window),
the top-up rule (`LADDER_QUEUE_PER_ENTRANT` open matches per entrant, topped up after every
result as `league_progress` does and by the beat every `LADDER_SCHEDULE_SECONDS`), the FIFO
order in which Celery workers take queued matches, and the OpenSkill update of every result
(`competition.skill.match_update`), and the lane ahead of the backlog on which the ladder sends
the first rated match of an entrant who joined after its start (`services.leagues`,
`_newcomer_first`; workers take that lane first; `--one-queue` models the single FIFO queue
of before that change). What is modelled: a match lasts `--match-seconds` (±20 %,
uniform; the default is docs/scaling.md's 4.2 s of CPU of bots that think plus a slot's 0.7 s
of waiting) on one of `--workers` slots (the documented 16: four hosts of four cores), and
its winner is drawn by Bradley-Terry from true strengths (log-odds ~ N(0, 1)).

The ladder starts warm: 1,000 entries whose ratings already reflect ~50 games (μ near the
truth, σ 2). After `--before-minutes`, `--burst` bots submit a new version each, at random
times within `--burst-minutes` (a deadline): each new version is a new entry at the start
rating (the old one stays, as in the arena), with a true strength a little above its old
version's. Reported: matches per bot per hour before and during the burst, the wait of a new
version for its first rated match (from its entry to the end of its first match: median,
90th percentile, max), and the rank correlation (Spearman, Kendall) of the ladder's order with
the true strengths at the end, for the old entries and for the new versions.
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import random
import sys
import time
from collections import Counter, deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from competition import division_plan as div  # noqa: E402 - pure modules, no Django
from competition import ladder_scheduling as scheduling  # noqa: E402
from competition import skill  # noqa: E402

LADDER_QUEUE_PER_ENTRANT = 1  # tournament/services/leagues.py
BEAT_SECONDS = 30.0  # LADDER_SCHEDULE_SECONDS
TARGET_WAIT_SECONDS = 300.0


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(v: list[float]) -> list[float]:
        order = sorted(range(len(v)), key=v.__getitem__)
        out = [0.0] * len(v)
        for r, i in enumerate(order):
            out[i] = float(r)
        return out

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    vy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return cov / (vx * vy)


def kendall(xs: list[float], ys: list[float]) -> float:
    concordant = discordant = 0
    n = len(xs)
    for i in range(n):
        for j in range(i + 1, n):
            s = (xs[i] - xs[j]) * (ys[i] - ys[j])
            if s > 0:
                concordant += 1
            elif s < 0:
                discordant += 1
    return (concordant - discordant) / (n * (n - 1) / 2)


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, math.ceil(pct / 100 * len(ordered)) - 1))
    return ordered[k]


def start(args: argparse.Namespace, rng: random.Random) -> tuple[dict, dict, dict, dict]:
    """The ladder at the start: each bot's true strength, μ, σ and rated games."""
    truth: dict[int, float] = {}
    mu: dict[int, float] = {}
    sigma: dict[int, float] = {}
    games: dict[int, int] = {}
    for key in range(args.bots):
        truth[key] = rng.gauss(0.0, 1.0)
        if args.cold:  # a new ladder: everyone at the start rating
            mu[key], sigma[key], games[key] = skill.START_MU, skill.START_SIGMA, 0
            continue
        # warm: ~50 games in, μ near the truth on OpenSkill's scale (β per unit of log-odds)
        mu[key] = skill.START_MU + skill.BETA * truth[key] + rng.gauss(0.0, 1.0)
        sigma[key] = 2.0
        games[key] = 50
    return truth, mu, sigma, games


def simulate(args: argparse.Namespace) -> dict:
    rng = random.Random(args.seed)
    truth, mu, sigma, games = start(args, rng)
    # where the order starts (a warm ladder's ratings already reflect ~50 games)
    bots = range(args.bots)
    start_spearman = None if args.cold else round(
        spearman([mu[k] - 3 * sigma[k] for k in bots], [truth[k] for k in bots]), 3)  # fmt: skip
    division: dict[int, int] = {}
    if args.divisions:
        placed_keys = [k for k in mu if games[k] >= div.DEFAULT_PLACEMENT]
        division = div.split(sorted(placed_keys, key=lambda k: -(mu[k] - 3 * sigma[k])),
                             args.divisions)  # fmt: skip
    next_promotion = args.promote_minutes * 60.0
    new_versions: dict[int, dict] = {}
    burst_start = args.before_minutes * 60.0
    burst_end = burst_start + args.burst_minutes * 60.0
    authors = rng.sample(range(args.bots), args.burst)
    arrivals = sorted((burst_start + rng.random() * args.burst_minutes * 60.0, a) for a in authors)
    end = burst_end

    queue: deque = deque()  # FIFO: Celery's order
    ahead: deque = deque()  # the retry lane: a newcomer's first match, served first
    busy: set[int] = set()  # entrants in a queued or running match
    recent: deque = deque()  # the recent window of tables, for the pair cap
    events: list = []  # (time, kind, payload)
    free_workers = args.workers
    played = {"before": 0, "burst": 0}
    next_key = args.bots
    scheduler_seconds = 0.0
    tables_made = 0

    def entrants() -> list[int]:
        return list(mu)

    def top_up(now: float) -> None:
        nonlocal scheduler_seconds, tables_made
        keys = entrants()
        wanted = max(1, len(keys) * LADDER_QUEUE_PER_ENTRANT // 2)
        open_count = len(queue) + len(ahead) + (args.workers - free_workers)
        if open_count >= wanted:
            return
        window = scheduling.pair_window(len(keys))
        while len(recent) > window:
            recent.popleft()
        candidates = [scheduling.Candidate(k, mu[k], sigma[k], games[k], k in busy) for k in keys]
        started = time.process_time()
        if args.divisions:
            tables = div.division_tables(
                candidates, division, 2, wanted - open_count, rng,
                recent_meetings=scheduling.meetings(recent),
            )  # fmt: skip
        else:
            tables = scheduling.information_tables(
                candidates, 2, wanted - open_count, rng,
                recent_meetings=scheduling.meetings(recent),
            )  # fmt: skip
        scheduler_seconds += time.process_time() - started
        tables_made += len(tables)
        for table in tables:
            newcomer = any(k >= args.bots and games[k] == 0 for k in table)  # _newcomer_first
            (queue if args.one_queue or not newcomer else ahead).append((now, table))
            recent.append(table)
            busy.update(table)

    def dispatch(now: float) -> None:
        nonlocal free_workers
        while free_workers and (queue or ahead):
            _, table = (ahead or queue).popleft()
            free_workers -= 1
            duration = args.match_seconds * rng.uniform(0.8, 1.2)
            heapq.heappush(events, (now + duration, "done", table))

    for when, author in arrivals:
        heapq.heappush(events, (when, "arrive", author))
    t = 0.0
    while t < end:
        heapq.heappush(events, (t, "beat", None))
        t += BEAT_SECONDS
    top_up(0.0)
    dispatch(0.0)
    wall = time.monotonic()
    while events:
        now, kind, payload = heapq.heappop(events)
        if now > end:
            break
        if kind == "arrive":
            key = next_key
            next_key += 1
            truth[key] = truth[payload] + rng.gauss(0.3, 0.3)
            mu[key], sigma[key], games[key] = skill.START_MU, skill.START_SIGMA, 0
            new_versions[key] = {"entered": now, "first": None, "author": payload}
        elif kind == "done":
            a, b = payload
            p_a = 1.0 / (1.0 + math.exp(truth[b] - truth[a]))
            ranks = [1, 2] if rng.random() < p_a else [2, 1]
            after = skill.match_update([skill.Skill(mu[a], sigma[a]), skill.Skill(mu[b], sigma[b])],
                                       ranks)  # fmt: skip
            for key, new in zip((a, b), after, strict=True):
                mu[key], sigma[key] = new
                games[key] += 1
                if args.divisions and key not in division and games[key] >= div.DEFAULT_PLACEMENT:
                    rating = {k: mu[k] - 3 * sigma[k] for k in division}
                    division[key] = div.place(division, key, mu[key] - 3 * sigma[key], rating)
                busy.discard(key)
                info = new_versions.get(key)
                if info is not None and info["first"] is None:
                    info["first"] = now
            phase = "burst" if now >= burst_start else "before"
            played[phase] += 1
            free_workers += 1
        if kind == "beat" and args.divisions and now >= next_promotion:
            next_promotion += args.promote_minutes * 60.0
            # the product's refresh: a cold ladder is split once enough are placed, divisions
            # that no longer fit the ladder are split again, else the edges swap
            ready = [k for k in mu if games[k] >= div.DEFAULT_PLACEMENT]
            if division or args.cold:
                division = div.refresh(division, {k: mu[k] - 3 * sigma[k] for k in mu}, ready,
                                       args.divisions, entrants=len(mu), promote_round=True)
        if kind != "arrive":  # an entry schedules nothing itself: the next result or beat does
            top_up(now)  # after a result (league_progress) and at each beat
        dispatch(now)
    waits = [v["first"] - v["entered"] for v in new_versions.values() if v["first"] is not None]
    unplayed = sum(1 for v in new_versions.values() if v["first"] is None)
    # still waiting at the end: waited at least this long (censored), counted against the target
    censored = [end - v["entered"] for v in new_versions.values() if v["first"] is None]
    over = sum(1 for w in waits + censored if w > TARGET_WAIT_SECONDS)
    old = list(range(args.bots))
    new = list(new_versions)

    def order_correlation(keys: list[int]) -> dict:
        score = [mu[k] - 3 * sigma[k] for k in keys]
        true = [truth[k] for k in keys]
        mean_games = sum(games[k] for k in keys) / len(keys)
        return {"spearman": round(spearman(score, true), 3),
                "kendall": round(kendall(score, true), 3),
                "mean_rated_matches": round(mean_games, 1)}  # fmt: skip

    hours_before = args.before_minutes / 60.0
    hours_burst = args.burst_minutes / 60.0
    return {
        "bots": args.bots, "burst": args.burst, "workers": args.workers,
        "divisions": args.divisions, "cold": args.cold, "one_queue": args.one_queue,
        "seed": args.seed, "before_minutes": args.before_minutes,
        "burst_minutes": args.burst_minutes,
        "match_seconds": args.match_seconds,
        "matches_per_bot_hour_before": round(2 * played["before"] / args.bots / hours_before, 2),
        "matches_per_bot_hour_burst": round(
            2 * played["burst"] / (args.bots + len(new_versions) / 2) / hours_burst, 2),
        "first_match_wait_s": {"median": round(percentile(waits, 50), 1),
                               "p90": round(percentile(waits, 90), 1),
                               "max": round(max(waits), 1) if waits else None,
                               "unplayed_at_end": unplayed,
                               "over_target": over},
        "target_wait_s": TARGET_WAIT_SECONDS,
        "rank_correlation_old_start": start_spearman,
        "rank_correlation_old": order_correlation(old),
        "rank_correlation_new": order_correlation(new) if len(new) > 2 else None,
        "scheduler_cpu_ms_per_table": round(1000 * scheduler_seconds / max(1, tables_made), 1),
        # the divisions at the end: how many, and the smallest and largest
        "division_sizes": sorted(Counter(division.values()).values()) if division else None,
        "wall_seconds": round(time.monotonic() - wall, 1),
    }  # fmt: skip


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", type=int, default=1000)
    parser.add_argument("--burst", type=int, default=300)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--match-seconds", type=float, default=4.9)
    parser.add_argument("--before-minutes", type=float, default=30.0)
    parser.add_argument("--burst-minutes", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--divisions",
        type=int,
        default=0,
        help="target division size (0: one ladder, no divisions)",
    )
    parser.add_argument(
        "--promote-minutes",
        type=float,
        default=10.0,
        help="promotion and relegation every this many minutes",
    )
    parser.add_argument(
        "--cold",
        action="store_true",
        help="a new ladder (everyone at the start rating), not a warm one",
    )
    parser.add_argument(
        "--one-queue",
        action="store_true",
        help="one FIFO queue for every match (no lane ahead for a newcomer's first match)",
    )
    parser.add_argument("--json", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    result = simulate(args)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    wait = result["first_match_wait_s"]
    verdict = "within" if wait["p90"] <= TARGET_WAIT_SECONDS else "over"
    print(
        f"divisions of {args.divisions}" if args.divisions else "no divisions",
        "(a new ladder)" if args.cold else "(a warm ladder)",
    )
    print(f"{result['bots']} bots, {result['burst']} new versions in {args.burst_minutes:g} min, "
          f"{result['workers']} worker slots, {result['match_seconds']} s a match")  # fmt: skip
    print(f"matches per bot per hour: {result['matches_per_bot_hour_before']} before, "
          f"{result['matches_per_bot_hour_burst']} during the burst")  # fmt: skip
    print(f"a new version's first rated match after: median {wait['median']} s, p90 "
          f"{wait['p90']} s, max {wait['max']} s ({verdict} the {TARGET_WAIT_SECONDS:.0f} s "
          f"target; {wait['over_target']} of {result['burst']} waited longer, counting the "
          f"{wait['unplayed_at_end']} still waiting at the end)")  # fmt: skip
    for name in ("old", "new"):
        c = result[f"rank_correlation_{name}"]
        if c:
            print(
                f"rank correlation with true strength ({name} entries, {c['mean_rated_matches']}"
                f" rated matches on average): Spearman {c['spearman']}, Kendall {c['kendall']}"
            )
    print(f"scheduler CPU: {result['scheduler_cpu_ms_per_table']} ms per table chosen")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
