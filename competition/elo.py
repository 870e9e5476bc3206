"""Elo ratings as pure functions (no Django): two seats, pairwise for 3-4 seats, solo.

Every function takes the ratings before a match and returns the ratings after it, so the same
code updates the ladder (`services.ratings.rating_apply_match`) and recomputes it from history
(`manage.py recompute_ratings`).

* 2 seats: standard Elo, ``R' = R + K (S - E)`` with ``E = 1 / (1 + 10 ** ((Ro - R) / 400))``
  and S = 1 / 0.5 / 0 for a win / draw / loss.
* 3-4 seats: every pair of seats is one game, won, drawn or lost by rank; each pair's change uses
  ``K / (seats - 1)`` and the ratings from before the match (the order of pairs does not matter).
* Solo: one game against the sister, whose rating is fixed per difficulty.
"""

from __future__ import annotations

from collections.abc import Sequence

START_RATING = 1500.0
DEFAULT_K = 32.0

# The automated sister's fixed rating per solo difficulty.
SISTER_RATINGS: dict[str, float] = {
    "easy": 1200.0,
    "medium": 1350.0,
    "hard": 1500.0,
    "very_hard": 1650.0,
    "expert": 1800.0,
}


def expected(rating: float, opponent: float) -> float:
    """Probability-like expected score of `rating` against `opponent`."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def _pair_score(rank: int, other_rank: int) -> float:
    if rank < other_rank:
        return 1.0
    if rank == other_rank:
        return 0.5
    return 0.0


def multiplayer_update(
    ratings: Sequence[float], ranks: Sequence[int], k: float = DEFAULT_K
) -> list[float]:
    """New ratings of the seats of one match from their 1-based ranks (equal rank = draw).

    With two seats this is standard Elo; with more, each pair counts with K / (seats - 1).
    """
    n = len(ratings)
    if n != len(ranks):
        raise ValueError("ratings and ranks must have one entry per seat")
    if n < 2:
        raise ValueError("a multiplayer update needs at least two seats")
    k_pair = k / (n - 1)
    deltas = [0.0] * n
    for i in range(n):
        for j in range(i + 1, n):
            change = k_pair * (_pair_score(ranks[i], ranks[j]) - expected(ratings[i], ratings[j]))
            deltas[i] += change
            deltas[j] -= change
    return [r + d for r, d in zip(ratings, deltas, strict=True)]


def solo_update(rating: float, difficulty: str, margin: float, k: float = DEFAULT_K) -> float:
    """New rating after a solo game: a win if the player beat the sister (margin > 0)."""
    if difficulty not in SISTER_RATINGS:
        raise ValueError(
            f"unknown solo difficulty {difficulty!r}; one of {', '.join(SISTER_RATINGS)}"
        )
    score = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
    return rating + k * (score - expected(rating, SISTER_RATINGS[difficulty]))


def match_update(
    ratings: Sequence[float],
    ranks: Sequence[int],
    *,
    k: float = DEFAULT_K,
    solo_difficulty: str | None = None,
    margin: float | None = None,
) -> list[float]:
    """New ratings for the seats of one match: solo when a difficulty is given, else Elo by rank.

    The single entry point used by the ladder and by the recomputation, so both agree.
    """
    if solo_difficulty is not None:
        if len(ratings) != 1 or margin is None:
            raise ValueError("a solo update needs exactly one seat and the margin")
        return [solo_update(ratings[0], solo_difficulty, margin, k)]
    return multiplayer_update(ratings, ranks, k)
