"""Ladder scheduling: how fast the ladder finds the true order, random pairing vs information.

    python bench/scheduling.py [--bots 30] [--seats 2] [--runs 12] [--json]

A simulated ladder of bots with known strengths: bot i has true skill ``i * SPACING`` and a
game ranks the seats by true skill plus Gaussian noise of the model's own β (so neighbours
are close to a coin flip and the extremes almost certain). Both schedulers run the ladder
in batches of ``bots / seats`` tables, every game updates OpenSkill exactly as the service
does (``competition.skill.match_update``), and after each batch the ladder's order by μ is
compared with the true order (Kendall's τ and Spearman's ρ). Averaged over ``--runs`` runs
with the same seeds for both schedulers.

Printed: τ and ρ after N matches for each scheduler, then the matches each needs to reach
a given τ (the first batch where the mean τ over the runs gets there), and the ratio.

Then a newcomer: one bot (true rank 6 of 30) joins a ladder that has played ``SETTLE``
matches without it. For each scheduler: the ladder matches until its first game, its own
games until it is no longer provisional (σ below ``skill.PROVISIONAL_SIGMA``), and how far
its ladder rank is from its true rank after 5, 10 and 20 of its games.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from competition import ladder_scheduling as scheduling  # noqa: E402
from competition import skill  # noqa: E402

SPACING = 0.5  # true skill between neighbours, in μ units (β = 4.17 is one game's noise)
CHECKPOINTS = (30, 60, 120, 240, 480, 960, 1920)
TARGETS = (0.6, 0.7, 0.8, 0.85, 0.9)


def kendall_tau(order: list[int]) -> float:
    """τ between a ranking (bot ids best first) and the true order (higher id is stronger)."""
    n = len(order)
    concordant = sum(1 for i in range(n) for j in range(i + 1, n) if order[i] > order[j])
    pairs = n * (n - 1) // 2
    return (2 * concordant - pairs) / pairs


def spearman_rho(order: list[int]) -> float:
    n = len(order)
    true_rank = {bot: rank for rank, bot in enumerate(sorted(order, reverse=True))}
    d2 = sum((rank - true_rank[bot]) ** 2 for rank, bot in enumerate(order))
    return 1 - 6 * d2 / (n * (n * n - 1))


def play(table: tuple[int, ...], rng: random.Random) -> list[int]:
    """Ranks (1 = best) of one simulated game."""
    performance = [bot * SPACING + rng.gauss(0.0, skill.BETA) for bot in table]
    order = sorted(range(len(table)), key=lambda i: -performance[i])
    ranks = [0] * len(table)
    for rank, seat in enumerate(order, start=1):
        ranks[seat] = rank
    return ranks


def simulate(method: str, bots: int, seats: int, matches: int, seed: int) -> list[tuple]:
    """(matches played, τ, ρ) after every batch of one simulated ladder."""
    schedule_rng = random.Random(seed)
    game_rng = random.Random(seed * 7919 + 1)
    ratings = {b: skill.START for b in range(bots)}
    games = dict.fromkeys(range(bots), 0)
    history: list[tuple[int, ...]] = []
    per_batch = max(1, bots // seats)
    out = []
    played = 0
    while played < matches:
        count = min(per_batch, matches - played)
        if method == "random":
            tables = scheduling.random_tables(list(range(bots)), seats, count, schedule_rng)
        else:
            window = history[-scheduling.pair_window(bots) :]
            candidates = [
                scheduling.Candidate(b, ratings[b].mu, ratings[b].sigma, games[b])
                for b in range(bots)
            ]
            tables = scheduling.information_tables(
                candidates, seats, count, schedule_rng,
                recent_meetings=scheduling.meetings(window),
            )  # fmt: skip
        for table in tables:
            ranks = play(table, game_rng)
            after = skill.match_update([ratings[b] for b in table], ranks)
            for b, new in zip(table, after, strict=True):
                ratings[b] = new
                games[b] += 1
        history.extend(tables)
        played += len(tables)
        order = sorted(range(bots), key=lambda b: -ratings[b].mu)
        out.append((played, kendall_tau(order), spearman_rho(order)))
    return out


SETTLE = 450
NEWCOMER_CHECKS = (5, 10, 20)


def _tables(method: str, ratings: dict, games: dict, history: list, seats: int, count: int,
            rng: random.Random) -> list[tuple[int, ...]]:  # fmt: skip
    keys = list(ratings)
    if method == "random":
        return scheduling.random_tables(keys, seats, count, rng)
    window = history[-scheduling.pair_window(len(keys)) :]
    candidates = [scheduling.Candidate(b, ratings[b].mu, ratings[b].sigma, games[b]) for b in keys]
    return scheduling.information_tables(
        candidates, seats, count, rng, recent_meetings=scheduling.meetings(window)
    )


def newcomer(method: str, bots: int, seats: int, seed: int) -> dict[str, Any]:
    """One bot joins a settled ladder: how soon it plays, settles, and finds its rank."""
    schedule_rng = random.Random(seed)
    game_rng = random.Random(seed * 7919 + 1)
    new = bots - 6  # true rank 6
    ratings = {b: skill.START for b in range(bots) if b != new}
    games = dict.fromkeys(ratings, 0)
    history: list[tuple[int, ...]] = []
    played = 0
    out: dict[str, Any] = {"first_game": None, "provisional_games": None, "rank_error": {}}
    per_batch = max(1, bots // seats)
    while True:
        if played == SETTLE:
            ratings[new], games[new] = skill.START, 0
            joined = played
        tables = _tables(method, ratings, games, history, seats, per_batch, schedule_rng)
        for table in tables:
            played += 1
            ranks = play(table, game_rng)
            for b, after in zip(table, skill.match_update([ratings[b] for b in table], ranks),
                                strict=True):  # fmt: skip
                ratings[b] = after
                games[b] += 1
            if new in table and played > SETTLE:
                if out["first_game"] is None:
                    out["first_game"] = played - joined
                if out["provisional_games"] is None and not skill.is_provisional(
                    ratings[new].sigma, games[new]
                ):
                    out["provisional_games"] = games[new]
                if games[new] in NEWCOMER_CHECKS:
                    order = sorted(ratings, key=lambda b: -ratings[b].mu)
                    out["rank_error"][games[new]] = abs(order.index(new) - (bots - 1 - new))
        history.extend(tables)
        if new in games and games[new] >= max(NEWCOMER_CHECKS) and out["provisional_games"]:
            return out


def run(bots: int, seats: int, runs: int, matches: int) -> dict[str, Any]:
    curves: dict[str, list[tuple[int, float, float]]] = {}
    for method in ("random", "information"):
        sims = [simulate(method, bots, seats, matches, seed) for seed in range(runs)]
        curves[method] = [
            (points[0][0], sum(p[1] for p in points) / runs, sum(p[2] for p in points) / runs)
            for points in zip(*sims, strict=True)
        ]
    table = []
    for n in CHECKPOINTS:
        if n > matches:
            break
        row: dict[str, Any] = {"matches": n}
        for method, curve in curves.items():
            _, tau, rho = min(curve, key=lambda point: abs(point[0] - n))
            row[method] = {"tau": round(tau, 3), "rho": round(rho, 3)}
        table.append(row)
    reach = []
    for target in TARGETS:
        row = {"tau": target}
        for method, curve in curves.items():
            row[method] = next((n for n, tau, _ in curve if tau >= target), None)
        if row["random"] and row["information"]:
            row["ratio"] = round(row["random"] / row["information"], 2)
        reach.append(row)
    arrival = {}
    for method in ("random", "information"):
        sims = [newcomer(method, bots, seats, seed) for seed in range(runs)]
        arrival[method] = {
            "first_game": sum(s["first_game"] for s in sims) / runs,
            "provisional_games": sum(s["provisional_games"] for s in sims) / runs,
            "rank_error": {k: sum(s["rank_error"][k] for s in sims) / runs
                           for k in NEWCOMER_CHECKS},
        }  # fmt: skip
    return {"bots": bots, "seats": seats, "runs": runs, "spacing": SPACING,
            "table": table, "reach": reach, "newcomer": arrival}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=30)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--runs", type=int, default=12)
    parser.add_argument("--matches", type=int, default=1920)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = run(args.bots, args.seats, args.runs, args.matches)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{args.bots} bots, {args.seats} seats, mean of {args.runs} runs "
          f"(true skills {SPACING} apart, game noise beta {skill.BETA:.2f})")  # fmt: skip
    print()
    print("| matches | random tau | information tau | random rho | information rho |")
    print("|---:|---:|---:|---:|---:|")
    for row in figures["table"]:
        r, i = row["random"], row["information"]
        print(f"| {row['matches']} | {r['tau']:.3f} | {i['tau']:.3f} | {r['rho']:.3f} "
              f"| {i['rho']:.3f} |")  # fmt: skip
    print()
    print("| target tau | matches, random | matches, information | ratio |")
    print("|---:|---:|---:|---:|")
    for row in figures["reach"]:
        r = row["random"] or f"> {args.matches}"
        i = row["information"] or f"> {args.matches}"
        print(f"| {row['tau']} | {r} | {i} | {row.get('ratio', '-')} |")
    print()
    print(f"A newcomer (true rank 6) joins after {SETTLE} matches:")
    print()
    checks = " | ".join(f"rank error after {k} games" for k in NEWCOMER_CHECKS)
    print(f"| scheduler | matches to its first game | games until not provisional | {checks} |")
    print("|---|---:|---:|" + "---:|" * len(NEWCOMER_CHECKS))
    for method, arrival in figures["newcomer"].items():
        errors = " | ".join(f"{arrival['rank_error'][k]:.1f}" for k in NEWCOMER_CHECKS)
        print(f"| {method} | {arrival['first_game']:.1f} | {arrival['provisional_games']:.1f} "
              f"| {errors} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
