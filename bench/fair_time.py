"""Is time fair on a loaded host? An honest bot and a sleeping bot, on a quiet host and beside
CPU burners.

    python bench/fair_time.py [--moves 200] [--limit 0.2] [--share 0.8] [--per-core 2] [--json]

Plays Duel matches through the real runner and sandbox (``workers.runner.run_match``, every
isolation layer the machine has) against the built-in ``random`` bot, with ``--limit`` seconds
of CPU per decision and no time bank:

* **honest**: computes ``--share`` (80%) of the limit in CPU time per move, for ``--moves``
  moves (as many matches as that takes);
* **sleeper**: sleeps past the wall-clock ceiling (the limits' ``wall_ceiling`` + 2 s) at
  its first move.

Each runs twice: on the host as it is ("quiet"), and beside ``--per-core`` x cores processes
that burn CPU, started by the bench and killed after ("loaded"). It prints a table per
condition and bot: moves, faults, wall-clock time per move (median / max), CPU time per move
(median / max) and the time it waited for a CPU per move (median / max), from the runner's own
record of each decision. What should hold: 0 faults for the honest bot in both conditions,
the sleeper faulted in both. Nothing is asserted here; the tests
(tests/workers/test_fair_time.py) assert the behaviour on CPU counters.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from competition.limits import Limits  # noqa: E402
from workers.runner import MatchSpec, SeatSpec, run_match  # noqa: E402
from workers.sandbox.isolation import cgroup_base  # noqa: E402

HONEST = """
import json, sys, time
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        started = time.process_time()
        while time.process_time() - started < THINK:
            pass
        print('{"index": 0}', flush=True)
"""

SLEEPER = """
import json, sys, time
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        time.sleep(SLEEP)
        print('{"index": 0}', flush=True)
"""

BURN = "while True:\n    pass\n"


@contextlib.contextmanager
def burners(count: int) -> Iterator[None]:
    """``count`` processes burning CPU for as long as the block runs."""
    procs = [subprocess.Popen([sys.executable, "-c", BURN]) for _ in range(count)]
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def moves_of(outcome: Any) -> list[dict[str, Any]]:
    """Seat 0's decisions up to its fault, if any (the faulted one included: its time was
    spent; after it the default policy plays at once)."""
    moves = []
    for record in outcome.actions:
        if record["seat"] != 0:
            continue
        moves.append(record)
        if record.get("default"):
            break
    return moves


def play(bot: str, limits: Limits, moves: int, seed: int) -> dict[str, Any]:
    """Duel matches of ``bot`` against random until it made ``moves`` moves or faulted."""
    made: list[dict[str, Any]] = []
    faults: list[str] = []
    while len(made) < moves and not faults:
        spec = MatchSpec(mode="duel", seats=(SeatSpec(bundle_path=bot), SeatSpec(builtin="random")),
                         seed=seed, limits=limits, replay=False)  # fmt: skip
        outcome = run_match(spec)
        made += moves_of(outcome)[: moves - len(made)]
        faults += [f.describe() for f in outcome.faults if f.seat == 0]
        seed += 1
    return {"moves": len(made), "faults": faults, "records": made}


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} / {max(values):.3f}" if values else "-"


def row(condition: str, name: str, played: dict[str, Any]) -> dict[str, Any]:
    records = played["records"]
    return {
        "condition": condition,
        "bot": name,
        "moves": played["moves"],
        "faults": len(played["faults"]),
        "wall": spread([r["seconds"] for r in records]),
        "cpu": spread([r["cpu"] for r in records]),
        "wait": spread([r.get("wait", 0.0) for r in records]),
        "fault_messages": played["faults"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=200, help="the honest bot's moves")
    parser.add_argument("--limit", type=float, default=0.2, help="CPU seconds per decision")
    parser.add_argument("--share", type=float, default=0.8, help="of the limit, per move")
    parser.add_argument("--per-core", type=int, default=2, help="burners per core when loaded")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    limits = Limits(decision_seconds=args.limit, bank_seconds=0.0)
    cores = os.cpu_count() or 1
    sleep = limits.wall_ceiling(0.0) + 2.0
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        honest, sleeper = Path(tmp, "honest.py"), Path(tmp, "sleeper.py")
        honest.write_text(HONEST.replace("THINK", repr(args.share * args.limit)))
        sleeper.write_text(SLEEPER.replace("SLEEP", repr(sleep)))
        for condition, count in (("quiet", 0), ("loaded", args.per_core * cores)):
            with burners(count):
                for name, bot in (("honest", honest), ("sleeper", sleeper)):
                    moves = args.moves if name == "honest" else 1
                    played = play(str(bot), limits, moves, seed=1)
                    rows.append({**row(condition, name, played), "burners": count,
                                 "load_1min": round(os.getloadavg()[0], 2)})  # fmt: skip
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    source = "cgroup cpu.pressure" if cgroup_base() is not None else "/proc schedstat"
    print(f"{cores} cores; limit {args.limit:g} s of CPU per decision, no bank; honest bot "
          f"{args.share:.0%} of it per move; sleeper sleeps {sleep:g} s (the ceiling + 2 s); "
          f"wait for a CPU from {source}")  # fmt: skip
    head = ("condition", "bot", "moves", "faults", "wall/move med/max", "cpu/move med/max",
            "wait/move med/max", "burners", "load 1 min after")  # fmt: skip
    keys = ("condition", "bot", "moves", "faults", "wall", "cpu", "wait", "burners", "load_1min")
    table = [head, *[tuple(str(r[k]) for k in keys) for r in rows]]
    widths = [max(len(line[i]) for line in table) for i in range(len(head))]
    for line in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)))
    for r in rows:
        for message in r["fault_messages"]:
            print(f"{r['condition']} {r['bot']}: {message}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
