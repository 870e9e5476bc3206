"""``python -m engine bench [--json] [--seconds S] [--no-baseline]``: run bench/engine.py.

The benchmark lives in the checkout's ``bench/`` folder, not in the engine package; this
command loads it from there and exits 2 with a readable error when it is missing.
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

from ..errors import ConfigError

BENCH = Path(__file__).resolve().parents[2] / "bench" / "engine.py"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help="engine speed: games per second, placements")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="time spent on each games-per-second line (default 5)")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip the comparison with the engine before issue 16's speed-up")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not BENCH.is_file():
        raise ConfigError(f"the benchmark {BENCH} is missing (run from a checkout)")
    spec = importlib.util.spec_from_file_location("isle_bench_engine", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    argv = ["--seconds", str(args.seconds)]
    argv += ["--json"] if args.json else []
    argv += ["--no-baseline"] if args.no_baseline else []
    return int(module.main(argv))
