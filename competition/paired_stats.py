"""Paired comparisons of two bot versions in the duplicate format: planning and analysis.

"Is B better than A?" is answered by letting A and B play the *same* deals: every seed is
played once with A and once with B in the tested seat, against the same opponents in the
same other seats, and in every seat rotation (the tested seat takes each seat in turn). The
luck of the deal and of the seat is then shared by both arms and cancels out of the score
difference, so far fewer games are needed than in a plain match-up.

The tested seat's bot gets its own seed per arm (`bot_seed`): the deal and the opponents are
shared, a bot's own random choices are not. Two copies of a random bot therefore play
different games on the same deal, and the analysis is exercised by real noise.

One seed is one independent observation (a *group*): in each rotation B's counted score is set
against A's on the same deal (1, ½ or 0), and the group scores the mean. A sequential test on
the groups (SPRT, ``competition/sprt.py``: pentanomial for two seats, the same model with more
outcomes for three or four) stops as soon as the answer is known, and gives the LLR with its
bounds, the Elo difference with an interval that agrees with its verdict, and the verdict. The
mean score difference, win rates and the share of paired games B finished ahead are plain
descriptions next to it (no second test that could disagree).

Pure Python (no Django, no engine): the tournament's service plans matches with it and
analyses their results; the local CLI plays the same plan in-process.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from competition.seeds import seed_from

from . import sprt

ARMS = ("A", "B")



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
        seed = seed_from(base_seed, "deal", i)
        for r in range(seats):
            lineup: list[str | int] = [0] * seats
            for k, opponent in enumerate(others):
                lineup[(r + 1 + k) % seats] = opponent
            for arm in ARMS:
                lineup[r] = arm
                bot_seed = seed_from(base_seed, "bot", arm, i, r)
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
    """The figures of a comparison: the SPRT's (``competition/sprt.py``) and plain descriptions."""

    seeds: int  # seeds with both arms complete in every rotation (the observations, groups)
    games: int
    mean_diff: float  # B's counted score minus A's, per game (a description, not a test)
    win_rate_a: float
    win_rate_b: float
    b_ahead_rate: float  # paired games where B scored more (ties count half)
    # the SPRT on the groups (see competition/sprt.py)
    elo0: float
    elo1: float
    alpha: float
    beta: float
    llr: float
    llr_lower: float  # H0 accepted at or below
    llr_upper: float  # H1 accepted at or above
    elo: float  # B minus A, logistic Elo of the duplicate score
    elo_low: float  # the 1 - alpha - beta profile-likelihood interval (agrees with the verdict);
    elo_high: float  # -inf / inf (None in JSON) when the data set no end on that side
    confidence: float
    counts: list[int]  # groups scoring 0, 1/(2k), ..., 1 (two seats: the pentanomial)
    decision: str | None  # "H1", "H0", or None (running, or inconclusive at the cap)
    capped: bool  # the cap of seeds was reached without a decision
    verdict: str
    course: list[list[float]]  # [seeds, games, llr] after each group, in seed order
    # rank B minus A (negative: B ranks better), per game; None when no ranks are recorded
    mean_rank_diff: float | None = None

    @property
    def done(self) -> bool:
        return self.decision is not None or self.capped

    def to_json(self) -> dict[str, Any]:
        def rounded(v: Any) -> Any:
            if isinstance(v, float) and math.isinf(v):
                return None  # an interval without that end (JSON has no infinity)
            if isinstance(v, float):
                return round(v, 6)
            if isinstance(v, list):
                return [rounded(x) for x in v]
            return v

        return {k: rounded(v) for k, v in asdict(self).items()}


def complete_seeds(results: Iterable[GameResult], rotations: int) -> dict[int, dict]:
    """The results by seed index, ``{(rotation, arm): result}``, of the seeds with every game."""
    by_seed: dict[int, dict[tuple[int, str], GameResult]] = {}
    for r in results:
        by_seed.setdefault(r.seed_index, {})[r.rotation, r.arm] = r
    need = {(rot, arm) for rot in range(rotations) for arm in ARMS}
    return {i: cells for i, cells in by_seed.items() if need <= set(cells)}


def _group_score(cell: dict[tuple[int, str], GameResult], rotations: int) -> float:
    """One seed's observation: B against A on the same deal in each rotation (1, ½ or 0),
    averaged over the rotations."""
    return sum(
        sprt.outcome(cell[rot, "B"].score, cell[rot, "A"].score) for rot in range(rotations)
    ) / rotations


def _sequential_test(
    cells: dict[int, dict], order: Sequence[int], rotations: int, settings: sprt.SprtSettings
) -> tuple[list[int], list[list[float]], list[int]]:
    """The SPRT over the seeds in order, stopped at the first seed whose LLR crosses a bound:
    the group counts, the course of the LLR and the seeds used."""
    counts = [0] * (2 * rotations + 1)
    course: list[list[float]] = []
    used: list[int] = []
    for i in order:
        counts[round(_group_score(cells[i], rotations) * 2 * rotations)] += 1
        used.append(i)
        llr = sprt.llr(counts, rotations, settings)
        course.append([len(used), len(used) * rotations * 2, llr])
        if llr >= settings.upper or llr <= settings.lower:
            break
    return counts, course, used


def _paired_games(
    cells: dict[int, dict], used: Sequence[int], rotations: int
) -> list[tuple[GameResult, GameResult]]:
    """(B's game, A's game) of every rotation of the seeds used, in seed order."""
    return [(cells[i][rot, "B"], cells[i][rot, "A"]) for i in used for rot in range(rotations)]


def _mean_rank_diff(pairs: Sequence[tuple[GameResult, GameResult]]) -> float | None:
    """B's rank minus A's per game; None unless every game recorded both ranks."""
    ranks = [(b.rank, a.rank) for b, a in pairs]
    if not all(b is not None and a is not None for b, a in ranks):
        return None
    return sum(b - a for b, a in ranks) / len(pairs)  # type: ignore[operator]


def _b_ahead_rate(pair_diffs: Sequence[float]) -> float:
    """The share of paired games B scored more in, a tie counting half."""
    return sum(1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in pair_diffs) / len(pair_diffs)


def _is_capped(
    decision: str | None, cells: dict[int, dict], upto: int | None, cap: int | None
) -> bool:
    """No decision, and the seeds looked at reach the cap: inconclusive."""
    last = upto if upto is not None else max(cells) + 1
    return decision is None and cap is not None and last >= cap


def analyse(
    results: Iterable[GameResult], *, rotations: int,
    settings: sprt.SprtSettings | None = None, upto: int | None = None,
    cap: int | None = None,
) -> Comparison:  # fmt: skip
    """The comparison's figures from the games played, over the seeds below ``upto`` (all by
    default) in seed order; a seed counts only when both arms of all its ``rotations`` are
    there (a failed game drops its seed, never half of a pair). The SPRT stops at the first
    seed where its LLR crosses a bound (later seeds are the overshoot of games already in
    flight, and are left out, so a run in parallel gives the figures of a run in order);
    ``cap``: the seeds the comparison may play (reached without a decision: inconclusive)."""
    settings = settings or sprt.SprtSettings()
    cells = complete_seeds(results, rotations)
    order = sorted(i for i in cells if upto is None or i < upto)
    if not order:
        raise ValueError("no seed has all its games played")
    counts, course, used = _sequential_test(cells, order, rotations, settings)
    state = sprt.evaluate(counts, rotations, settings)
    pairs = _paired_games(cells, used, rotations)
    games = len(pairs)
    pair_diffs = [b.score - a.score for b, a in pairs]
    wins_a, wins_b = sum(a.won for _, a in pairs), sum(b.won for b, _ in pairs)
    capped = _is_capped(state.decision, cells, upto, cap)
    return Comparison(
        seeds=len(used), games=2 * games, mean_diff=sum(pair_diffs) / games,
        win_rate_a=wins_a / games, win_rate_b=wins_b / games,
        b_ahead_rate=_b_ahead_rate(pair_diffs),
        elo0=settings.elo0, elo1=settings.elo1, alpha=settings.alpha, beta=settings.beta,
        llr=state.llr, llr_lower=settings.lower, llr_upper=settings.upper, elo=state.elo,
        elo_low=state.elo_low, elo_high=state.elo_high, confidence=state.confidence,
        counts=list(counts), decision=state.decision, capped=capped,
        verdict=sprt.verdict(state, capped=capped), course=course,
        mean_rank_diff=_mean_rank_diff(pairs),
    )  # fmt: skip
