"""Forward-model speed, for the Duel and 4-player standard, beside the baseline engine b9df4f5.

    python bench/forward.py [--seconds 2] [--rounds 3] [--json]   (also: python -m engine bench)

Per mode, from mid-game states (seeded games played by random bots to half their length):
determinizations per second (``engine.forward.determinize`` of the seat to act's
observation), ``clone()`` per second, random playouts to the end of the game per CPU-second,
and ``greedy`` games (every seat greedy, from the start) per CPU-second. Each figure is
measured in a fresh process on this checkout's engine and on the engine of
``BASELINE_COMMIT`` (extracted from the git history, as bench/engine.py does), one after
the other, each divided by its own process's CPU time; with ``--rounds N`` the two sides
take turns N times (which goes first alternates) and each figure is the median of its
rounds. The baseline has no forward model: its determinization figure is absent.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.engine import _extract_baseline  # noqa: E402

BASELINE_COMMIT = "b9df4f57ebcb30ea69668b66dc6fac3659ac485c"  # before the forward model
CASES = (("duel", 2), ("standard", 4))

# The mid-game states, as source for a side's process (``new_game`` and ``RandomBot`` of the
# engine that process imports): seeded games played by random bots to half their length.
MID_GAMES = r"""
def mid_games(mode, seats, n):
    out = []
    for seed in range(n):
        full = new_game(mode, seats, seed, {})
        bots = [RandomBot(s, seed) for s in range(seats)]
        game = full.clone()
        while not full.is_over():
            s = full.pending()[0]
            full.apply_unchecked(s, bots[s].act(full, s))
        half = len(full.history) // 2
        for seat, action in full.history[:half]:
            game.apply_unchecked(seat, action)
        out.append(game)
    return out
"""

# One side, run as ``python -c`` with the engine's folder and the seconds per figure.
_SIDE = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from engine import new_game
from engine.bots import make_bot
from engine.bots.random_bot import RandomBot
try:
    from engine.forward import determinize
except ImportError:
    determinize = None
seconds = float(sys.argv[2])
""" + MID_GAMES + r"""
def rate(work):
    done, started = 0, time.process_time()
    while time.process_time() - started < seconds or done == 0:
        work(done)
        done += 1
    return done / (time.process_time() - started)

out = {}
for mode, seats in (("duel", 2), ("standard", 4)):
    states = mid_games(mode, seats, 8)
    figs = {}
    figs["clone_per_second"] = rate(lambda i: states[i % 8].clone())
    def playout(i):
        game = states[i % 8].clone()
        bot = RandomBot(0, i)
        if hasattr(game, "playout"):  # the engine's own loop: the same draws and moves
            game.playout(bot.rng)
            return
        while not game.is_over():
            s = game.pending()[0]
            game.apply_unchecked(s, bot.act(game, s))
    figs["playouts_per_second"] = rate(playout)
    def greedy(i):
        game = new_game(mode, seats, 1000 + i, {})
        bots = [make_bot("greedy", mode, s, i) for s in range(seats)]
        while not game.is_over():
            s = game.pending()[0]
            game.apply_unchecked(s, bots[s].act(game, s))
    figs["greedy_games_per_second"] = rate(greedy)
    if determinize is not None:
        def det(i):
            game = states[i % 8]
            seat = game.pending()[0]
            start = {"type": "start", "mode": mode, "seat": seat, "seats": seats, "options": {}}
            determinize(start, game.observation(seat), i)
        figs["determinizations_per_second"] = rate(det)
    out[f"{mode}-{seats}"] = figs
print(json.dumps(out))
"""

LABELS = (("determinizations_per_second", "determinizations/s"),
          ("clone_per_second", "clone()/s"),
          ("playouts_per_second", "random playouts to the end/CPU-s (mid-game)"),
          ("greedy_games_per_second", "greedy games/CPU-s"))


def _side(engine_root: Path, seconds: float) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", _SIDE, str(engine_root), str(seconds)],
                          capture_output=True, text=True, cwd=engine_root, check=False,
                          timeout=600 + 40 * seconds)
    if done.returncode != 0:
        raise RuntimeError(f"a benchmark process failed: {done.stderr[-500:]}")
    return json.loads(done.stdout)


def run(seconds: float, compare: bool = True, rounds: int = 1) -> dict[str, Any]:
    """Both sides, ``rounds`` times, taking turns (which side goes first alternates), each
    figure the median of its rounds: on a shared machine the load drifts, and a side
    measured only in a busy minute would look slower than it is."""
    report: dict[str, Any] = {"baseline_commit": BASELINE_COMMIT, "rounds": rounds}
    with tempfile.TemporaryDirectory(prefix="isle-bench-forward-") as tmp:
        reason = _extract_baseline(BASELINE_COMMIT, Path(tmp)) if compare else "--no-baseline"
        roots = {"current": ROOT} if reason else {"current": ROOT, "baseline": Path(tmp)}
        runs: dict[str, list[dict[str, Any]]] = {side: [] for side in roots}
        for r in range(rounds):
            order = list(roots) if r % 2 == 0 else list(roots)[::-1]
            for side in order:
                runs[side].append(_side(roots[side], seconds))
        for side, figures in runs.items():
            report[side] = _median(figures)
        if reason:
            report["baseline"] = {"skipped": reason}
    return report


def _median(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each figure's median over the rounds (the lower middle one for an even count)."""
    out: dict[str, Any] = {}
    for case, figures in runs[0].items():
        out[case] = {name: sorted(run[case][name] for run in runs)[(len(runs) - 1) // 2]
                     for name in figures}
    return out


def lines(report: dict[str, Any]) -> list[str]:
    base = report["baseline"]
    out = []
    for mode, seats in CASES:
        key = f"{mode}-{seats}"
        now = report["current"][key]
        before = {} if "skipped" in base else base[key]
        for name, label in LABELS:
            if name not in now:
                continue
            text = f"forward model, {mode} {seats} players, {label}: {now[name]:.1f}"
            if name in before:
                text += (f" (engine at {BASELINE_COMMIT[:12]}: {before[name]:.1f}, "
                         f"{now[name] / before[name]:.2f}x)")
            elif "skipped" in base:
                text += f" (baseline skipped: {base['skipped']})"
            else:
                text += " (new: the baseline engine has none)"
            out.append(text)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per figure")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--rounds", type=int, default=1,
                        help="measure both sides this many times, taking turns; report medians")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = run(args.seconds, not args.no_baseline, max(1, args.rounds))
    print(json.dumps(report, sort_keys=True) if args.json else "\n".join(lines(report)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
