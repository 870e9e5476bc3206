"""Statistics of the local arena: intervals for rates and means, and Elo from ranks.

Pure functions over plain numbers, so the arena's table can be checked by hand:

* ``wilson`` — the Wilson score interval of a rate (sane at 0 % and 100 %);
* ``mean_interval`` — a mean with its normal-approximation 95 % interval;
* ``clip_interval`` — an interval cut to the quantity's range (mean ranks: [1, seats]);
* ``elo_from_pairs`` — ratings that best explain pairwise results (every pair of seats of a
  game is one result, won, drawn or lost by rank): the Bradley-Terry maximum-likelihood
  fit (Hunter's MM iteration) on the Elo scale, with one virtual draw per pair of bots so
  a bot that always wins gets a large but finite rating. The mean rating is 1500.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959964


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95 % interval of a rate.

    >>> [round(x, 3) for x in wilson(8, 10)]
    [0.49, 0.943]
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean, and its 95 % interval (normal approximation; a single value has no spread).

    >>> [round(x, 4) for x in mean_interval([1, 2, 3, 4])]
    [2.5, 1.2348, 3.7652]
    """
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def clip_interval(interval: tuple[float, float], low: float, high: float) -> tuple[float, float]:
    """An interval cut to the values the quantity can take (a mean rank lies in [1, seats]).

    >>> clip_interval((0.62, 1.9), 1, 4)
    (1, 1.9)
    """
    a, b = interval
    if math.isnan(a) or math.isnan(b):
        return (a, b)
    return (min(max(a, low), high), min(max(b, low), high))


def pair_results(bots: Sequence[int], ranks: Sequence[int]) -> list[tuple[int, int, float]]:
    """``(bot_a, bot_b, score of a)`` for every pair of seats of one game held by two different
    bots (1 for the better rank, 0.5 for equal ranks)."""
    out = []
    for i in range(len(bots)):
        for j in range(i + 1, len(bots)):
            if bots[i] == bots[j]:
                continue
            score = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
            out.append((bots[i], bots[j], score))
    return out


def elo_from_pairs(
    count: int, results: Sequence[tuple[int, int, float]], iterations: int = 500
) -> list[float]:
    """Elo ratings (mean 1500) of ``count`` bots from pairwise results.

    3 wins and 1 loss, plus the virtual draw: 3.5 of 5, so 0.7 / 0.3 = 10 ** (d / 400) and
    the gap d is 147 points:

    >>> [round(r) for r in elo_from_pairs(2, [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)])]
    [1574, 1426]
    """
    if count == 0:
        return []
    wins = [[0.0] * count for _ in range(count)]  # wins[a][b]: points of a against b
    for a, b, score in results:
        wins[a][b] += score
        wins[b][a] += 1.0 - score
    played = [[wins[a][b] + wins[b][a] for b in range(count)] for a in range(count)]
    for a in range(count):  # the prior: one virtual draw between bots that met
        for b in range(count):
            if a != b and played[a][b] > 0:
                wins[a][b] += 0.5
                played[a][b] += 1.0
    gamma = [1.0] * count
    for _ in range(iterations):
        new = []
        for a in range(count):
            total = sum(wins[a][b] for b in range(count) if b != a)
            denom = sum(
                played[a][b] / (gamma[a] + gamma[b])
                for b in range(count)
                if b != a and played[a][b] > 0
            )
            new.append(total / denom if denom > 0 and total > 0 else gamma[a])
        log_mean = sum(math.log(g) for g in new) / count
        new = [g / math.exp(log_mean) for g in new]
        done = max(abs(x - y) for x, y in zip(new, gamma, strict=True)) < 1e-10
        gamma = new
        if done:
            break
    return [1500.0 + 400.0 * math.log10(g) for g in gamma]
