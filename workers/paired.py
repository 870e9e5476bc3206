"""Paired comparisons of two bot versions in the duplicate format: planning and analysis.

"Is B better than A?" is answered by letting A and B play the *same* deals: every seed is
played once with A and once with B in the tested seat, against the same opponents in the
same other seats, and in every seat rotation (the tested seat takes each seat in turn). The
luck of the deal and of the seat is then shared by both arms and cancels out of the score
difference, so far fewer games are needed than in a plain match-up.

The tested seat's bot gets its own seed per arm (`bot_seed`): the deal and the opponents are
shared, a bot's own random choices are not. Two copies of a random bot therefore play
different games on the same deal, and the analysis is exercised by real noise.

One seed is one independent observation: the mean over its rotations of B's score minus A's.
The result gives the mean difference with a Student-t confidence interval, the win rates of
both arms, the share of paired games B finished ahead, an exact two-sided sign test over the
seeds, and a verdict: a difference is claimed when the interval excludes 0 and the sign test
agrees at the same level (so fewer than 6 seeds never claim one at 5 %).

Pure Python (no Django, no engine): the tournament's service plans matches with it and
analyses their results; the local CLI plays the same plan in-process.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

ARMS = ("A", "B")
DEFAULT_LEVEL = 0.05  # 1 - confidence of the interval: 95 %
SEED_MASK = 2**63 - 1


def derive_seed(*parts: object) -> int:
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") & SEED_MASK


@dataclass(frozen=True)
class PlannedGame:
    """One game of a comparison: `lineup[s]` is "A"/"B" (the tested seat) or an opponent index."""

    seed_index: int
    seed: int
    rotation: int
    arm: str
    lineup: tuple[str | int, ...]
    bot_seed: int  # the tested seat's own seed

    @property
    def tested_seat(self) -> int:
        return self.rotation


def opponent_lineup(opponents: int, seats: int) -> list[int]:
    """Indices of the opponents filling the `seats - 1` other seats (cyclically when fewer)."""
    if seats < 1:
        raise ValueError("a game has at least one seat")
    if seats > 1 and opponents < 1:
        raise ValueError("a game of several seats needs at least one opponent")
    return [i % opponents for i in range(seats - 1)] if seats > 1 else []


def plan(*, seeds: int, seats: int, opponents: int, base_seed: int) -> list[PlannedGame]:
    """Every game of a comparison: per seed, per rotation (the tested seat), one game per arm.

    The opponents keep their order around the table, starting after the tested seat, so in
    rotation r the tested seat is r and the same opponents sit in the same seats for A and B.
    """
    if seeds < 1:
        raise ValueError("a comparison needs at least one seed")
    others = opponent_lineup(opponents, seats)
    games = []
    for i in range(seeds):
        seed = derive_seed(base_seed, "deal", i)
        for r in range(seats):
            lineup: list[str | int] = [0] * seats
            for k, opponent in enumerate(others):
                lineup[(r + 1 + k) % seats] = opponent
            for arm in ARMS:
                lineup[r] = arm
                bot_seed = derive_seed(base_seed, "bot", arm, i, r)
                games.append(PlannedGame(i, seed, r, arm, tuple(lineup), bot_seed))
    return games


def tested_score(scores: Sequence[float], seat: int, faulted: bool) -> float:
    """The score a comparison counts for the tested seat. A seat that faulted was played by the
    default policy from its fault on, and a bot never profits from its fault (docs/bot-protocol.md,
    Faults): it counts no more than the lowest score at its table."""
    own = float(scores[seat])
    return min(own, *(float(s) for s in scores)) if faulted else own


@dataclass(frozen=True)
class GameResult:
    """The tested seat's outcome in one planned game (`won`: ranked first, alone or shared)."""

    seed_index: int
    rotation: int
    arm: str
    score: float
    won: bool
    rank: int | None = None  # 1 = first; None when not recorded (older callers)


@dataclass(frozen=True)
class Comparison:
    seeds: int  # seeds with both arms complete in every rotation (the observations)
    games: int
    level: float
    mean_diff: float  # B minus A, per game, averaged over seeds
    ci_low: float
    ci_high: float
    win_rate_a: float
    win_rate_b: float
    b_ahead_rate: float  # paired games where B scored more (ties count half)
    sign_test_p: float
    verdict: str
    # rank B minus A (negative: B ranks better), per game averaged over seeds, with its
    # interval; None when the results carry no ranks
    mean_rank_diff: float | None = None
    rank_ci_low: float | None = None
    rank_ci_high: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: (round(v, 6) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def verdict_text(low: float, high: float, sign_p: float, level: float, seeds: int) -> str:
    """A difference is claimed only when the interval excludes 0 *and* the sign test agrees at
    the same level: the t interval alone trusts the seed means to be near normal, and over 200
    repeats of random against itself (10 seeds, 5 %) it claimed a difference 6 % of the time;
    with the distribution-free sign test as a second key, 3 % (see docs/ratings.md)."""
    if sign_p < level and low > 0:
        return "B is better"
    if sign_p < level and high < 0:
        return "A is better"
    return f"no difference detected at {seeds} seeds"


def analyse(
    results: Iterable[GameResult], *, rotations: int, level: float = DEFAULT_LEVEL
) -> Comparison:
    """The comparison's figures from the games played; a seed counts only when both arms of all
    its `rotations` are there (a failed game drops its seed, never half of a pair)."""
    if not 0 < level < 1:
        raise ValueError("level must be between 0 and 1")
    cells: dict[tuple[int, int, str], GameResult] = {}
    for r in results:
        cells[r.seed_index, r.rotation, r.arm] = r
    seed_indices = sorted({k[0] for k in cells})
    diffs: list[float] = []
    rank_diffs: list[float] = []
    pair_diffs: list[float] = []
    wins = {"A": 0, "B": 0}
    for i in seed_indices:
        keys = [(i, rot, arm) for rot in range(rotations) for arm in ARMS]
        if not all(k in cells for k in keys):
            continue
        seed_pairs = [
            cells[i, rot, "B"].score - cells[i, rot, "A"].score for rot in range(rotations)
        ]
        pair_diffs.extend(seed_pairs)
        diffs.append(sum(seed_pairs) / rotations)
        ranks = [(cells[i, rot, "B"].rank, cells[i, rot, "A"].rank) for rot in range(rotations)]
        if all(b is not None and a is not None for b, a in ranks):
            rank_diffs.append(sum(b - a for b, a in ranks) / rotations)  # type: ignore[operator]
        for k in keys:
            wins[k[2]] += cells[k].won
    n = len(diffs)
    if n == 0:
        raise ValueError("no seed has all its games played")
    games = n * rotations
    mean = sum(diffs) / n
    low, high = mean_interval(diffs, level)
    ahead = sum(1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in pair_diffs) / len(pair_diffs)
    plus = sum(1 for d in diffs if d > 0)
    minus = sum(1 for d in diffs if d < 0)
    sign_p = sign_test(plus, minus)
    rank_mean = rank_low = rank_high = None
    if len(rank_diffs) == n:
        rank_mean = sum(rank_diffs) / n
        rank_low, rank_high = mean_interval(rank_diffs, level)
    return Comparison(
        seeds=n, games=2 * games, level=level, mean_diff=mean, ci_low=low, ci_high=high,
        win_rate_a=wins["A"] / games, win_rate_b=wins["B"] / games, b_ahead_rate=ahead,
        sign_test_p=sign_p, verdict=verdict_text(low, high, sign_p, level, n),
        mean_rank_diff=rank_mean, rank_ci_low=rank_low, rank_ci_high=rank_high,
    )  # fmt: skip


def mean_interval(values: Sequence[float], level: float = DEFAULT_LEVEL) -> tuple[float, float]:
    """Two-sided Student-t interval of the mean (a single value, or no spread: the value)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return (mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(1 - level / 2, n - 1) * math.sqrt(var / n)
    return (mean - half, mean + half)


def sign_test(plus: int, minus: int) -> float:
    """Exact two-sided binomial sign test (ties already dropped): P(as extreme | p = 1/2)."""
    n = plus + minus
    if n == 0:
        return 1.0
    k = min(plus, minus)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


# --- Student's t, from the regularised incomplete beta function --------------------------------


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b), evaluated with the modified Lentz method."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for num in (
            m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
            -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-14:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_continued_fraction(b, a, 1 - x) / b


def t_cdf(t: float, df: int) -> float:
    """P(T <= t) for Student's t with `df` degrees of freedom."""
    tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t > 0 else tail


def t_quantile(p: float, df: int) -> float:
    """The t with P(T <= t) = p (bisection: monotone, and exact enough for an interval)."""
    if not 0 < p < 1:
        raise ValueError("p must be between 0 and 1")
    low, high = -1e3, 1e3
    for _ in range(200):
        mid = (low + high) / 2
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
    return (low + high) / 2
