"""The sequential probability ratio test (SPRT) of a paired comparison: is B stronger than A?

The method is the one chess engine teams run on game pairs (fishtest, OpenBench): a generalised
SPRT on the *pentanomial* distribution of pair scores, with logistic Elo bounds.

* **The observation is one group**: the games of one seed. A comparison plays every seed once
  with A and once with B in the tested seat, in every seat rotation
  (``competition/paired_stats.py``).
  Each rotation is one *duel on the same deal*: B's counted score against A's on the same deal,
  seat and opponents gives 1 (B scored more), ½ (the same) or 0. The group's score is the
  mean over its rotations. With two seats a group is a pair of games with the seats swapped,
  and its points (0, ½, 1, 1½, 2) are the pentanomial's five outcomes; with three or four seats
  the rotations of one seed form one group and its score takes ``2k + 1`` values (the same
  model with more outcomes: a heptanomial or enneanomial); solo has one rotation (trinomial).
* **Elo** is the logistic scale of the expected score ``s``: ``elo = -400 log10(1/s - 1)``.
  H0: elo = ``elo0``; H1: elo = ``elo1``.
* **The LLR** (generalised SPRT): the log-likelihood of the observed group scores under the
  maximum-likelihood distribution whose mean is ``s(elo1)``, minus that under mean ``s(elo0)``.
  The constrained MLE of a multinomial with a given mean has the closed form
  ``p_i = p̂_i / (1 + λ (x_i − s))`` with one unknown λ (found by bisection). Outcomes never
  seen get a count of ``REGULARISE`` so that the constrained MLE exists (fishtest does the same).
* **Stop** when the LLR reaches ``ln((1 − β) / α)`` (H1 accepted) or ``ln(β / (1 − α))``
  (H0 accepted), or at the cap (inconclusive).
* **The interval** of the Elo difference is the profile-likelihood interval of the same
  likelihood: the scores ``s`` whose profile LLR ``Λ(s) = N Σ p̂_i ln(1 + λ_s (x_i − s))`` stays
  below ``z²/2``, with ``z`` at ``1 − α`` for the lower end and at ``1 − β`` for the upper end
  (a ``1 − α − β`` interval, 90 % at the defaults). It always agrees with the verdict: the LLR
  equals ``Λ(s0) − Λ(s1)``, so reaching the upper bound needs ``Λ(s0) ≥ ln((1 − β)/α)``, which
  exceeds ``z²/2`` (the normal tail ``P(Z > z) ≤ ½ exp(−z²/2)``), so ``elo0`` lies below the
  interval; symmetrically H0 puts ``elo1`` above it.

Pure Python (no Django, no engine), shared by the local CLI and the tournament's service.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

DEFAULT_ELO0 = 0.0
DEFAULT_ELO1 = 40.0
DEFAULT_ALPHA = 0.05
DEFAULT_BETA = 0.05
REGULARISE = 1e-3  # the count given to a group score never seen

H1 = "H1"
H0 = "H0"
CAP = "cap"


class BadSprt(ValueError):
    """Bounds or error rates that make no test; the message is one plain line."""


@dataclass(frozen=True)
class SprtSettings:
    elo0: float = DEFAULT_ELO0
    elo1: float = DEFAULT_ELO1
    alpha: float = DEFAULT_ALPHA
    beta: float = DEFAULT_BETA

    def __post_init__(self) -> None:
        check(self.elo0, self.elo1, self.alpha, self.beta)

    @property
    def lower(self) -> float:
        """H0 is accepted when the LLR falls to this."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """H1 is accepted when the LLR rises to this."""
        return math.log((1 - self.beta) / self.alpha)


def check(elo0: float, elo1: float, alpha: float, beta: float) -> None:
    """One plain error for settings that make no test."""
    for name, value in (("elo0", elo0), ("elo1", elo1), ("alpha", alpha), ("beta", beta)):
        if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(
            value
        ):
            raise BadSprt(f"{name} must be a number")
    if not elo0 < elo1:
        raise BadSprt(f"the SPRT's lower bound elo0 ({elo0:g}) must be below elo1 ({elo1:g})")
    if not (elo0 >= -1000 and elo1 <= 1000):
        raise BadSprt("the SPRT's bounds must lie in -1000..1000 Elo")
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0 < value < 0.5:
            raise BadSprt(f"{name} must be between 0 and 0.5 (got {value:g})")


def score_of_elo(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of_score(score: float) -> float:
    score = min(max(score, 1e-12), 1 - 1e-12)
    return -400.0 * math.log10(1.0 / score - 1.0)


def outcome(b_score: float, a_score: float) -> float:
    """One rotation of a seed: B against A on the same deal, seat and opponents."""
    return 1.0 if b_score > a_score else 0.5 if b_score == a_score else 0.0


def group_values(rotations: int) -> list[float]:
    """The scores a group of ``rotations`` duels can take: 0, 1/(2k), ..., 1."""
    return [j / (2 * rotations) for j in range(2 * rotations + 1)]


def counts_of(group_scores: Iterable[float], rotations: int) -> list[int]:
    """How many groups scored each value of ``group_values`` (for two seats: the pentanomial
    counts of pairs scoring 0, ½, 1, 1½, 2 points)."""
    counts = [0] * (2 * rotations + 1)
    for s in group_scores:
        counts[round(s * 2 * rotations)] += 1
    return counts


class _Model:
    """The regularised empirical distribution of group scores, and its constrained MLEs."""

    def __init__(self, counts: Sequence[int], rotations: int) -> None:
        self.n = sum(counts)
        self.values = group_values(rotations)
        weights = [c if c > 0 else REGULARISE for c in counts]
        total = sum(weights)
        self.probs = [w / total for w in weights]
        self.mean = sum(p * x for p, x in zip(self.probs, self.values, strict=True))

    def _lambda(self, s: float) -> float:
        """The λ of the MLE with mean ``s``: the root of f(λ) = Σ p̂ (x − s) / (1 + λ (x − s)),
        which decreases on the interval where every 1 + λ (x − s) stays positive. Newton's
        method from λ = 0, kept inside a bisection bracket."""
        lo = -1.0 / (max(self.values) - s)
        hi = 1.0 / (s - min(self.values))
        lam = 0.0
        terms = [(p, x - s) for p, x in zip(self.probs, self.values, strict=True)]
        for _ in range(200):
            f = df = 0.0
            for p, d in terms:
                q = d / (1 + lam * d)
                f += p * q
                df -= p * q * q
            if f > 0:
                lo = lam
            else:
                hi = lam
            if abs(f) < 1e-15 or df == 0:
                break
            step = lam - f / df
            if not lo < step < hi:
                step = (lo + hi) / 2
                if not lo < step < hi:  # the bracket is as narrow as floats go
                    break
            if step == lam:
                break
            lam = step
        return lam

    def profile(self, s: float) -> float:
        """Λ(s): how much less likely the data are under the best distribution of mean ``s``
        than under their own (the log-likelihood ratio over ``n`` groups, ≥ 0)."""
        lam = self._lambda(s)
        return self.n * sum(
            p * math.log(1 + lam * (x - s)) for p, x in zip(self.probs, self.values, strict=True)
        )

    def solve(self, target: float, low: float, high: float) -> float:
        """The score between ``low`` and ``high`` where Λ crosses ``target`` (Λ is monotone
        there: ``low``..``high`` lies on one side of the mean). Without a crossing the interval
        reaches the end of the range that is farther from the mean."""
        f_low = self.profile(low) - target
        f_high = self.profile(high) - target
        if (f_low > 0) == (f_high > 0):  # no crossing: the interval reaches the edge
            return low if f_low > f_high else high
        for _ in range(100):
            mid = (low + high) / 2
            f_mid = self.profile(mid) - target
            if (f_mid > 0) == (f_low > 0):
                low, f_low = mid, f_mid
            else:
                high = mid
        return (low + high) / 2


@dataclass(frozen=True)
class SprtState:
    """The test after some groups: the LLR, its bounds, the Elo estimate and its interval."""

    settings: SprtSettings
    groups: int
    counts: tuple[int, ...]
    llr: float
    elo: float
    elo_low: float  # -inf: the data set no lower end (every group lost)
    elo_high: float  # inf: no upper end (every group won)
    decision: str | None  # "H1", "H0", or None while neither bound is reached

    @property
    def confidence(self) -> float:
        return 1 - self.settings.alpha - self.settings.beta


EDGE = 1e-9  # the interval's search stays this far inside (0, 1)


def evaluate(counts: Sequence[int], rotations: int, settings: SprtSettings) -> SprtState:
    """The SPRT's LLR and the Elo interval from the counts of each group score."""
    model = _Model(counts, rotations)
    s0, s1 = score_of_elo(settings.elo0), score_of_elo(settings.elo1)
    if model.n == 0:
        llr = 0.0
        low, high = -math.inf, math.inf
        elo = 0.0
    else:
        llr = model.profile(s0) - model.profile(s1)
        z_low = NormalDist().inv_cdf(1 - settings.alpha)
        z_high = NormalDist().inv_cdf(1 - settings.beta)
        mean = min(max(model.mean, EDGE), 1 - EDGE)
        s_low = model.solve(z_low**2 / 2, EDGE, mean)
        s_high = model.solve(z_high**2 / 2, mean, 1 - EDGE)
        low = -math.inf if s_low <= 2 * EDGE else elo_of_score(s_low)  # no lower end
        high = math.inf if s_high >= 1 - 2 * EDGE else elo_of_score(s_high)
        elo = elo_of_score(mean)
    decision = H1 if llr >= settings.upper else H0 if llr <= settings.lower else None
    return SprtState(settings, model.n, tuple(counts), llr, elo, low, high, decision)


def llr(counts: Sequence[int], rotations: int, settings: SprtSettings) -> float:
    """The LLR alone (what the stopping rule reads after every group)."""
    model = _Model(counts, rotations)
    if model.n == 0:
        return 0.0
    return model.profile(score_of_elo(settings.elo0)) - model.profile(score_of_elo(settings.elo1))


def groups_left(counts: Sequence[int], rotations: int, settings: SprtSettings,
                cap: int) -> int | None:
    """How many more groups the test is expected to take, at most the ``cap`` less those
    played; None before there is an estimate to go by (no group yet, or an LLR of exactly 0).

    The generalised SPRT's LLR after ``n`` groups is ``n`` times the expected LLR of one group
    under the current estimate (the empirical distribution), so ``llr / n`` is the drift the
    test would keep if the estimate were the truth, and Wald's approximation of the groups
    still needed is the distance to the bound it drifts towards over that drift (overshoot
    ignored). A progress line's ETA comes from this, not from the cap."""
    n = sum(counts)
    room = max(cap - n, 0)
    value = llr(counts, rotations, settings)
    if n == 0 or value == 0:
        return None
    if value >= settings.upper or value <= settings.lower:
        return 0
    drift = value / n
    distance = settings.upper - value if drift > 0 else value - settings.lower
    return min(room, math.ceil(distance / abs(drift)))


def verdict(state: SprtState, *, capped: bool) -> str:
    """One sentence that the interval agrees with (see the module docstring)."""
    s = state.settings
    if state.decision == H1:
        return f"H1 accepted: B is stronger than A (Elo above {s.elo0:+g})"
    if state.decision == H0:
        return f"H0 accepted: B is not stronger than A by {s.elo1:+g} Elo or more"
    if capped:
        seeds = f"{state.groups} seed{'s' * (state.groups != 1)}"
        return f"inconclusive at the cap ({seeds}): neither bound reached"
    return "running: neither bound reached yet"


def simulate(
    probs: Sequence[float], rotations: int, settings: SprtSettings, *, cap: int, rng: Any
) -> tuple[str, int]:
    """One SPRT run on groups drawn from ``probs`` (the chance of each group score): its
    decision ("H1", "H0" or "cap") and the groups it took. For the false-positive rate and the
    expected length of a test (``bench/sprt.py``, tests/workers/test_sprt.py)."""
    counts = [0] * (2 * rotations + 1)
    outcomes = range(len(counts))
    for n in range(1, cap + 1):
        counts[rng.choices(outcomes, weights=probs)[0]] += 1
        value = llr(counts, rotations, settings)
        if value >= settings.upper:
            return H1, n
        if value <= settings.lower:
            return H0, n
    return CAP, cap


def symmetric(counts: Sequence[int]) -> list[float]:
    """The distribution of group scores with B and A exchangeable (Elo 0 exactly): the observed
    counts averaged with their mirror image, as chances. Two copies of one bot have it."""
    total = 2 * sum(counts)
    return [(a + b) / total for a, b in zip(counts, reversed(counts), strict=True)]
