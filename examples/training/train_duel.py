"""Train a Duel policy against `random` with NumPy alone, and export it as a bot bundle.

    python examples/training/train_duel.py --export duel_policy.zip     # a few minutes, 1 core
    python examples/training/train_duel.py --json --iterations 1 --population 3 --games 1

The policy (``duel_policy.py``) is linear over features of each legal action, read from the
flat observation and the action's fixed id; it plays its best-scoring legal action. It is
trained by the cross-entropy method (sample weight vectors around a mean, keep the best
quarter by mean score difference over the same episodes, refit the mean and spread) on
episodes of ``engine.env.single_agent_env`` against the built-in `random` bot, your seat drawn
from each episode's seed. Then the uniform random policy (which is `random`) and the trained
one are compared on fresh seeds: win rate and mean score difference, each with a 95%
interval. ``--export FILE.zip`` writes a ``python3-numpy`` bot bundle (``bot.json``,
``main.py``, ``duel_policy.py``, ``policy.npz``) that ``python -m arena submit FILE.zip --bot
NAME`` uploads and ``python -m arena play``/``arena`` run in the sandbox.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE))

from duel_policy import FEATURE_NAMES, FEATURES, choose  # noqa: E402

from arena.stats import mean_interval, wilson  # noqa: E402
from engine.env import single_agent_env  # noqa: E402

EVAL_SEEDS = 1_000_000  # evaluation seeds start here; training seeds stay below


def play(weights: np.ndarray | None, seed: int) -> tuple[float, bool]:
    """One Duel against random from ``seed``: (my score - theirs, did I win). ``weights``
    None plays uniformly at random over the legal ids."""
    env = single_agent_env(mode="duel", opponents=["random"], seat="rotate", reward="score")
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    done = False
    while not done:
        if weights is None:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        else:
            action = choose(weights, obs["observation"], obs["action_mask"])
        obs, _, done, _, info = env.step(action)
    scores, me = info["result"]["scores"], env.seat
    env.close()
    return float(scores[me] - scores[1 - me]), me in info["result"]["winners"]


def fitness(weights: np.ndarray, seeds: range) -> float:
    return float(np.mean([play(weights, s)[0] for s in seeds]))


def train(iterations: int, population: int, games: int, seed: int) -> np.ndarray:
    """The cross-entropy method over the weight vector."""
    rng = np.random.default_rng(seed)
    mean, std = np.zeros(FEATURES), np.full(FEATURES, 2.0)
    elite = max(2, population // 4)
    for it in range(iterations):
        candidates = rng.normal(mean, std, size=(population, FEATURES))
        base = 10_000 + it * games  # the same episodes for every candidate of an iteration
        scored = sorted(((fitness(w, range(base, base + games)), k)
                         for k, w in enumerate(candidates)), reverse=True)
        best = candidates[[k for _, k in scored[:elite]]]
        mean, std = best.mean(axis=0), best.std(axis=0) + 0.1
        print(f"iteration {it + 1}: best {scored[0][0]:+.1f}, elite mean "
              f"{np.mean([f for f, _ in scored[:elite]]):+.1f}", file=sys.stderr)
    return mean


def evaluate(weights: np.ndarray | None, games: int) -> dict[str, Any]:
    """Fresh seeds (never trained on): win rate and score difference with 95% intervals."""
    results = [play(weights, EVAL_SEEDS + s) for s in range(games)]
    diffs = [d for d, _ in results]
    wins = sum(w for _, w in results)
    mean, low, high = mean_interval(diffs)
    w_low, w_high = wilson(wins, games)
    return {"games": games, "win_rate": wins / games, "win_rate_95": [w_low, w_high],
            "score_diff": mean, "score_diff_95": [low, high]}


def export(weights: np.ndarray, path: Path) -> Path:
    """Write the policy as a ``python3-numpy`` bot bundle (a zip) at ``path``."""
    weights_file = io.BytesIO()
    np.savez(weights_file, weights=weights.astype(np.float32),
             feature_names=np.array(FEATURE_NAMES))
    manifest = {"entrypoint": "main.py", "language": "python3-numpy", "name": "duel-policy",
                "description": "a linear Duel policy trained by examples/training/train_duel.py"}
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("bot.json", json.dumps(manifest, indent=1))
        bundle.write(HERE / "bot_main.py", "main.py")
        bundle.write(HERE / "duel_policy.py", "duel_policy.py")
        bundle.writestr("policy.npz", weights_file.getvalue())
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=8)
    parser.add_argument("--population", type=int, default=16)
    parser.add_argument("--games", type=int, default=6, help="episodes per candidate")
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--export", type=Path, default=None, metavar="FILE.zip",
                        help="write the trained policy as a python3-numpy bot bundle")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    before = evaluate(None, args.eval_games)
    weights = train(args.iterations, args.population, args.games, args.seed)
    after = evaluate(weights, args.eval_games)
    report = {"before": before, "after": after,
              "weights": dict(zip(FEATURE_NAMES, (round(float(w), 3) for w in weights),
                                  strict=True))}
    if args.export is not None:
        report["bundle"] = str(export(weights, args.export))
    if args.json:
        print(json.dumps(report))
        return 0
    for name, r in (("uniform random policy", before), ("trained policy", after)):
        print(f"{name:>22}: win rate {r['win_rate']:.1%} "
              f"[{r['win_rate_95'][0]:.1%}, {r['win_rate_95'][1]:.1%}], "
              f"score difference {r['score_diff']:+.1f} "
              f"[{r['score_diff_95'][0]:+.1f}, {r['score_diff_95'][1]:+.1f}] "
              f"over {r['games']} games against random")
    if args.export is not None:
        print(f"bot bundle: {args.export} (upload: python -m arena submit {args.export} "
              "--bot NAME)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
