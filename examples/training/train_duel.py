"""Train a small policy for the Duel against `random`, with no deep-learning framework.

    python examples/training/train_duel.py                 # about a minute on one core
    python examples/training/train_duel.py --json --iterations 3 --eval-games 40

The policy is a softmax over the legal actions of a linear score ``w . features(action)``.
Features are read from the bot protocol's JSON (the action, and the observation in
``info["observation"]``), so the trained weights can drive a bot program of any language.
It trains by the cross-entropy method (sample weight vectors, keep the best, refit) on
episodes of `engine.env.single_agent_env` against the built-in `random` bot, then compares
the untrained policy (all weights 0: uniform over legal actions, which is `random`) with the
trained one on fresh seeds: win rate and mean score difference, each with a 95% interval.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from arena.stats import mean_interval, wilson  # noqa: E402
from engine.env import single_agent_env  # noqa: E402

KINDS = ("choose_boat", "move", "select", "place", "fish_action", "decline", "end_turn",
         "return_cat")
ITEMS = ("cat", "lesson", "instant", "treasure")
FISH_ACTIONS = ("move", "jump", "treasure", "discovery")
FEATURES = len(KINDS) + len(ITEMS) + 1 + len(FISH_ACTIONS) + 3 + 3


def features(action: dict[str, Any], obs: dict[str, Any]) -> list[float]:
    """What the policy sees of one legal action."""
    out = [1.0 if action["kind"] == k else 0.0 for k in KINDS]
    item = None
    if action["kind"] in ("select", "move"):
        space = action.get("space", action.get("to"))
        item = obs["island"][space - 1]["item"] if 1 <= space <= 15 else None
    out += [1.0 if item and item["kind"] == k else 0.0 for k in ITEMS]
    out.append(1.0 if item and item.get("fish") else 0.0)
    out += [1.0 if action.get("action") == a else 0.0 for a in FISH_ACTIONS]
    if action["kind"] == "place":
        me = obs["players"][obs["you"]]
        taken = {tuple(c) for t in me["tiles"] for c in t["cells"]}
        cells = [tuple(c) for c in action["cells"]]
        touching = sum((x + dx, y + dy) in taken for x, y in cells
                       for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
        out += [touching / (4 * len(cells)), sum(x for x, _ in cells) / (20 * len(cells)),
                sum(y for _, y in cells) / (12 * len(cells))]
    else:
        out += [0.0, 0.0, 0.0]
    out += [obs["players"][obs["you"]]["fish"] / 10, obs["day"] / 10, 1.0]
    return out


def choose(weights: np.ndarray, env: Any, info: dict[str, Any], rng: np.random.Generator) -> int:
    legal = env.legal_json()
    obs = info["observation"]
    scores = np.array([features(a, obs) for a in legal]) @ weights
    p = np.exp(scores - scores.max())
    return int(rng.choice(len(legal), p=p / p.sum()))


def play(weights: np.ndarray, seed: int) -> tuple[float, bool]:
    """One Duel against random from ``seed``: (my score - theirs, did I win)."""
    env = single_agent_env(mode="duel", opponents=["random"], seat="rotate", reward="score")
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    done = False
    while not done:
        _, _, done, _, info = env.step(choose(weights, env, info, rng))
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


def evaluate(weights: np.ndarray, games: int) -> dict[str, Any]:
    """Fresh seeds (never trained on): win rate and score difference with 95% intervals."""
    results = [play(weights, 1_000_000 + s) for s in range(games)]
    diffs = [d for d, _ in results]
    wins = sum(w for _, w in results)
    mean, low, high = mean_interval(diffs)
    w_low, w_high = wilson(wins, games)
    return {"games": games, "win_rate": wins / games, "win_rate_95": [w_low, w_high],
            "score_diff": mean, "score_diff_95": [low, high]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=8)
    parser.add_argument("--population", type=int, default=16)
    parser.add_argument("--games", type=int, default=6, help="episodes per candidate")
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    before = evaluate(np.zeros(FEATURES), args.eval_games)
    weights = train(args.iterations, args.population, args.games, args.seed)
    after = evaluate(weights, args.eval_games)
    report = {"before": before, "after": after, "weights": [round(w, 3) for w in weights]}
    if args.json:
        print(json.dumps(report))
        return 0
    for name, r in (("untrained (= random)", before), ("trained", after)):
        print(f"{name:>22}: win rate {r['win_rate']:.1%} "
              f"[{r['win_rate_95'][0]:.1%}, {r['win_rate_95'][1]:.1%}], "
              f"score difference {r['score_diff']:+.1f} "
              f"[{r['score_diff_95'][0]:+.1f}, {r['score_diff_95'][1]:+.1f}] "
              f"over {r['games']} games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
