"""Training environments' speed: steps per CPU-second of each environment, random policy.

    python bench/envs.py [--seconds 3] [--json]      (also part of: python -m engine bench)

Three figures, each a policy that picks uniformly among the ids its action mask allows:

* PettingZoo AEC, standard, 4 players: every ``env.step`` counts (all four seats act);
* Gymnasium, standard, 4 players, your seat against 3x ``greedy``: your steps count (the
  greedy seats play inside each step, so this is mostly the greedy bots' time);
* the vector runner (``engine.env.vector_env``), 8 Duels against ``random``: steps of all
  games count (one call steps 8 games).

A figure whose packages (requirements-env.txt: NumPy, Gymnasium, PettingZoo) are not installed
is skipped with one line that names them; the engine's own figures do not need them.

Each figure is measured in a fresh process, divided by that process's CPU time, on this
checkout's engine and on the engine of ``BASELINE_COMMIT`` (the environments at commit
c4663de, where an action was an index into the legal list), extracted
from the git history as bench/engine.py does. The baseline has no vector runner.
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

BASELINE_COMMIT = "c4663def2cb43db36e4548a2817801267cb2924d"  # environments with list indices
TARGET_AEC_SPEEDUP = 3.0

# One side, run as ``python -c`` with the engine's folder and the CPU seconds per figure.
_SIDE = r"""
import importlib, json, sys, time
sys.path.insert(0, sys.argv[1])
import engine.env as envs
seconds = float(sys.argv[2])
try:
    import numpy as np
    rng = np.random.default_rng(0)
except ImportError:
    np = None

def missing(names):
    out = []
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:
            out.append(name)
    return out

def pick(mask):
    return int(rng.choice(np.flatnonzero(mask.view(bool))))  # int8 0/1: the same ids, faster

def aec():
    env = envs.aec_env(mode="standard", seats=4)
    env.reset(seed=0)
    steps, games, started = 0, 0, time.process_time()
    while time.process_time() - started < seconds or games == 0:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            games += 1
            env.reset(seed=games)
            continue
        env.step(pick(obs["action_mask"]))
        steps += 1
    return {"steps_per_second": steps / (time.process_time() - started), "games": games}

def single():
    env = envs.single_agent_env(mode="standard", seats=4, opponents=["greedy"] * 3,
                                seat="rotate")
    obs, _ = env.reset(seed=0)
    steps, games, started = 0, 0, time.process_time()
    while time.process_time() - started < seconds or games == 0:
        obs, _, done, _, _ = env.step(pick(obs["action_mask"]))
        steps += 1
        if done:
            games += 1
            obs, _ = env.reset(seed=games)
    return {"steps_per_second": steps / (time.process_time() - started), "games": games}

def vector():
    games_at_once = 8
    env = envs.vector_env(mode="duel", num_envs=games_at_once, opponents=["random"],
                          seat="rotate")
    env.reset(seed=0)
    steps, games, started = 0, 0, time.process_time()
    while time.process_time() - started < seconds or games == 0:
        masks = env.action_masks()
        _, _, term, _, _ = env.step([pick(row) for row in masks])
        steps += games_at_once
        games += int(term.sum())
    env.close()
    return {"steps_per_second": steps / (time.process_time() - started), "games": games,
            "games_at_once": games_at_once}

FIGURES = (("aec_standard_4", aec, ("numpy", "gymnasium", "pettingzoo")),
           ("gymnasium_standard_4_vs_greedy", single, ("numpy", "gymnasium")),
           ("vector_duel_8", vector, ("numpy", "gymnasium")))
out = {}
for key, figure, needs in FIGURES:
    if key == "vector_duel_8" and not hasattr(envs, "vector_env"):
        continue
    lacking = missing(needs)
    out[key] = {"skipped": lacking} if lacking else figure()
print(json.dumps(out))
"""

LABELS = (("aec_standard_4", "PettingZoo AEC, standard 4 players, random policy"),
          ("gymnasium_standard_4_vs_greedy",
           "Gymnasium, standard 4 players, random policy against 3x greedy"),
          ("vector_duel_8", "vector runner, 8 Duels at once against random, random policy"))


def _side(engine_root: Path, seconds: float) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", _SIDE, str(engine_root), str(seconds)],
                          capture_output=True, text=True, cwd=engine_root, check=False,
                          timeout=600 + 40 * seconds)
    if done.returncode != 0:
        raise RuntimeError(f"a benchmark process failed: {done.stderr[-500:]}")
    return json.loads(done.stdout)


def run(seconds: float, compare: bool = True) -> dict[str, Any]:
    current = _side(ROOT, seconds)
    report: dict[str, Any] = {"current": current, "baseline_commit": BASELINE_COMMIT,
                              "target_aec_speedup": TARGET_AEC_SPEEDUP}
    if not compare:
        report["baseline"] = {"skipped": "--no-baseline"}
        return report
    with tempfile.TemporaryDirectory(prefix="isle-bench-envs-") as tmp:
        reason = _extract_baseline(BASELINE_COMMIT, Path(tmp))
        report["baseline"] = {"skipped": reason} if reason else _side(Path(tmp), seconds)
    return report


def lines(report: dict[str, Any]) -> list[str]:
    base = report["baseline"]
    out = []
    for key, label in LABELS:
        now = report["current"].get(key)
        if now is None:
            continue
        if "skipped" in now:  # an optional package is not installed: say which, and go on
            names = now["skipped"]
            listed = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
            out.append(f"environment: {label}: skipped ({listed} not installed: "
                       "pip install -r requirements-env.txt)")
            continue
        text = (f"environment: {label}: {now['steps_per_second']:.0f} steps/s on one core "
                f"({now['games']} games)")
        before = None if "skipped" in base else base.get(key)
        if before is not None and "skipped" in before:
            before = None
        if before is not None:
            ratio = now["steps_per_second"] / before["steps_per_second"]
            text += (f" (environments at {BASELINE_COMMIT[:12]}: "
                     f"{before['steps_per_second']:.0f} steps/s, {ratio:.2f}x")
            text += f"; target >= {TARGET_AEC_SPEEDUP:g}x)" if key == "aec_standard_4" else ")"
        elif "skipped" in base:
            text += f" (baseline skipped: {base['skipped']})"
        else:
            text += " (new: the baseline has no vector runner)"
        out.append(text)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per figure")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = run(args.seconds, not args.no_baseline)
    print(json.dumps(report, sort_keys=True) if args.json else "\n".join(lines(report)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
