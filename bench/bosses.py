"""Boss leagues, measured: how often a bot equal to a boss is promoted past it, and how long a
clearly stronger upload takes to pass Bronze.

    python bench/bosses.py false [--boss greedy] [--runs 200] [--seeds-cap N] [--jobs 1] [--json]
    python bench/bosses.py climb [--uploads 3] [--budget 0.05] [--json]

``false``: the boss against itself under another name, through the gate's own decision rule
(``competition/boss_leagues.py``: its SPRT bounds, α, β and cap from
``competition/data/boss_leagues.json``), ``--runs`` times, each run on its own base seed, with
the local paired runner (``workers/paired_play.run_local``: the plan, the seat rotations and
the stopping rule of the tournament's runs; the boss fills the other seat). Prints the false
promotions (H1) with their Wilson 95 % interval against the gate's α, how the other runs
ended (H0 or the cap), and the seeds they played. ``--seeds-cap`` plays fewer seeds than the
gate's cap (cheaper; a run cut short is not promoted, so the rate can only fall).

``climb``: a fresh embedded arena (``runserver`` with its embedded workers, SQLite, the SQLite
broker; ``scripts/embedded_ladder.py``); the starter bots' own promotion runs are stopped so the
background lane holds only the bench's. Then ``--uploads`` bots are uploaded together over the
API, each the search starter (``examples/bots/search_bot.py``) at ``--budget`` seconds of CPU a
decision (clearly stronger than greedy), and each is timed from its upload until the API shows
it in Bronze or above (its validation, then its runs against Wood's and Bronze's bosses, all on
the two embedded slots). Prints each time, the median and the max, and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.stats import wilson  # noqa: E402
from bench.lanes import free_port  # noqa: E402
from competition import boss_leagues as rule  # noqa: E402
from competition import sprt  # noqa: E402
from scripts.embedded_ladder import EmbeddedArena  # noqa: E402
from workers.paired_play import run_local  # noqa: E402

STOP_STARTER_RUNS = """
from tournament.models import PairedComparison
from tournament.services.paired import paired_stop
running = PairedComparison.objects.filter(status="running")
for run in running:
    paired_stop(comparison=run, reason="bench/bosses.py: an idle arena")
print(len(running))
"""


def false_promotions(args: argparse.Namespace) -> dict:
    gate = next(t for t in rule.leagues().tiers if t.boss == args.boss)
    seats = rule.leagues().seats[args.mode]
    cap = args.seeds_cap or gate.seeds
    outcomes, seeds = [], []
    started = time.process_time()
    for run in range(args.runs):
        result = run_local(
            a=args.boss, b=args.boss, opponents=[args.boss], mode=args.mode, seats=seats,
            seeds=cap, base_seed=run, settings=gate.settings, jobs=args.jobs,
        )  # fmt: skip
        outcomes.append(result.decision or sprt.CAP)
        seeds.append(result.seeds)
        if not args.json:
            print(f"run {run:>3}: {outcomes[-1]:<3} after {result.seeds} seeds", flush=True)
    promoted = sum(rule.decide(o) == rule.PROMOTED for o in outcomes)
    low, high = wilson(promoted, len(outcomes))
    return {
        "gate": gate.key, "boss": args.boss, "mode": args.mode, "runs": len(outcomes),
        "seeds_cap": cap, "gate_cap": gate.seeds, "alpha": gate.settings.alpha,
        "elo0": gate.settings.elo0, "elo1": gate.settings.elo1,
        "promoted": promoted, "rate": promoted / len(outcomes),
        "wilson95": [round(low, 4), round(high, 4)],
        "h0": outcomes.count(sprt.H0), "capped": outcomes.count(sprt.CAP),
        "median_seeds": statistics.median(seeds), "max_seeds": max(seeds),
        "cpu_seconds": round(time.process_time() - started, 1),
    }  # fmt: skip


def _search_bundle(budget: float) -> bytes:
    source = (ROOT / "examples" / "bots" / "search_bot.py").read_bytes()
    faster = source.replace(b"min(0.2, 0.5", f"min({budget}, 0.5".encode())
    if faster == source:
        raise SystemExit("bench/bosses.py: the search starter's budget line has changed")
    return faster


def _tier(arena: EmbeddedArena, bot_id: int) -> tuple[str, str | None]:
    code, body = arena.request("GET", f"/api/v1/bots/{bot_id}/")
    assert code == 200, body
    duel = next(g for g in body["leagues"] if g["mode"] == "duel")
    return duel["tier"], (duel["run"] or {}).get("tier")


def climb(args: argparse.Namespace) -> dict:
    load_before = os.getloadavg()
    order = ["unranked", *rule.leagues().tier_keys()]
    bronze = order.index("bronze")
    bundle = _search_bundle(args.budget)
    with (
        tempfile.TemporaryDirectory() as tmp,
        EmbeddedArena(Path(tmp) / "data", free_port(), BOSS_LEAGUES="1") as arena,
    ):
        for version in arena.versions:
            arena.wait_for(lambda v=version: arena.version_status(v) != "pending", 300,
                           f"validation of version {version}")  # fmt: skip
        stopped = int(arena.manage("shell", "-c", STOP_STARTER_RUNS).strip().splitlines()[-1])
        bots = []
        for index in range(args.uploads):
            code, bot = arena.request("POST", "/api/v1/bots/", {
                "name": f"boss-bench-{index}", "description": "bench/bosses.py"})  # fmt: skip
            assert code == 201, bot
            sent = requests.post(
                f"{arena.base_url}/api/v1/bots/{bot['id']}/versions/", timeout=60,
                headers={"Authorization": f"Token {arena.token}"},
                files={"file": ("bot.py", bundle + f"# bench upload {index}\n".encode())},
            )  # fmt: skip
            assert sent.status_code == 201, sent.text
            bots.append({"bot": bot["id"], "uploaded": time.monotonic(), "seconds": None})
        deadline = time.monotonic() + args.timeout
        while time.monotonic() < deadline and any(b["seconds"] is None for b in bots):
            for b in bots:
                if b["seconds"] is None:
                    tier, running = _tier(arena, b["bot"])
                    if order.index(tier) >= bronze:
                        b["seconds"] = round(time.monotonic() - b["uploaded"], 1)
                    elif running is None and (
                        tier != "unranked" or time.monotonic() - b["uploaded"] > 600
                    ):  # no run and past Wood, or never started: stopped below Bronze
                        b["seconds"] = -1.0
                    b["tier"] = tier
            time.sleep(2)
    times = [b["seconds"] for b in bots if b["seconds"] is not None and b["seconds"] >= 0]
    return {
        "uploads": bots, "budget": args.budget, "starter_runs_stopped": stopped,
        "promoted": len(times), "median_seconds": statistics.median(times) if times else None,
        "max_seconds": max(times) if times else None, "cpus": os.cpu_count(),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="part", required=True)
    false = sub.add_parser("false", help="false promotions of a bot equal to the boss")
    false.add_argument("--boss", default="greedy", choices=[t.boss for t in rule.leagues().tiers])
    false.add_argument("--mode", default="duel", choices=sorted(rule.leagues().seats))
    false.add_argument("--runs", type=int, default=200)
    false.add_argument(
        "--seeds-cap", type=int, default=None, help="seeds a run may play (default: the gate's cap)"
    )
    false.add_argument("--jobs", type=int, default=1)
    up = sub.add_parser("climb", help="upload to promotion past Bronze on the embedded arena")
    up.add_argument("--uploads", type=int, default=3)
    up.add_argument("--budget", type=float, default=0.05, help="search seconds a decision")
    up.add_argument("--timeout", type=float, default=3600)
    for p in (false, up):
        p.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = false_promotions(args) if args.part == "false" else climb(args)
    if args.json or args.part == "climb":
        print(json.dumps(result, indent=1))
    else:
        print(f"{result['boss']} against itself ({result['gate']}'s gate, {result['mode']}): "
              f"{result['promoted']} promotions in {result['runs']} runs = "
              f"{100 * result['rate']:.1f}% (Wilson 95% {100 * result['wilson95'][0]:.1f}"
              f"-{100 * result['wilson95'][1]:.1f}%), alpha {result['alpha']:g}; H0 "
              f"{result['h0']}, cap {result['capped']} (cap {result['seeds_cap']} seeds, the "
              f"gate's {result['gate_cap']}); seeds median {result['median_seeds']}, max "
              f"{result['max_seeds']}; {result['cpu_seconds']} s CPU")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
