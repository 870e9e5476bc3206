"""OpenSkill ratings (Plackett-Luce: a mean μ and an uncertainty σ) as pure functions (no Django).

Elo (`competition/elo.py`) says how strong a bot looks; OpenSkill also says how sure that is.
Every league entry carries both, updated from the same match by `services.ratings` and replayed
by `manage.py recompute_ratings` through `match_update` here, so the two always agree.

* μ starts at 25 and σ at 25/3 (the openskill defaults, fixed here so history replays the same).
* A match of 2-4 seats is one Plackett-Luce update from the seats' ranks (equal rank = tie);
  a seat without a rank (it crashed out) is ranked last before it gets here.
* Solo: one game against the sister, a fixed rating per difficulty taken from the Elo table
  (1500 Elo = μ 25, 200 Elo = one starting σ), whose own update is thrown away.
* The ladder shows μ ± 2σ (about 95% of the belief) and the conservative rating μ − 3σ, which
  rises as a bot proves itself. An entry is *provisional* while it has played fewer than
  PROVISIONAL_GAMES rated games, or while σ is still at least PROVISIONAL_SIGMA (its results
  disagree so much that the rating has hardly settled); `provisional_reason` says which, in
  words, and is the one place the rule lives.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import NamedTuple

from openskill.models import PlackettLuce

from .elo import SISTER_RATINGS, START_RATING

START_MU = 25.0
START_SIGMA = 25.0 / 3.0
BETA = START_SIGMA / 2.0  # spread of one game's performance around μ
TAU = START_SIGMA / 100.0  # σ added before each game, so a rating can still move late
# Provisional: fewer games than this, or σ at least this (90% of the start). σ falls slowly at
# three and four seats, with draws slowest: a σ bar alone (it was 6.0) kept every entrant of a
# four-seat ladder provisional past 16 games each; after 10 games σ is below 7.5 in every mode
# unless the results keep contradicting each other (tests/tournament/test_skill.py).
PROVISIONAL_GAMES = 10
PROVISIONAL_SIGMA = 7.5
SISTER_SIGMA = 1.0
MU_PER_ELO = START_SIGMA / 200.0

MODEL = PlackettLuce(mu=START_MU, sigma=START_SIGMA, beta=BETA, tau=TAU)


class Skill(NamedTuple):
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        return conservative(self.mu, self.sigma)


START = Skill(START_MU, START_SIGMA)


def conservative(mu: float, sigma: float) -> float:
    """μ − 3σ: a rating the bot is very likely above; new bots start at 0 and climb."""
    return mu - 3.0 * sigma


def interval(mu: float, sigma: float) -> tuple[float, float]:
    """μ ± 2σ, the range shown on the ladder."""
    return (mu - 2.0 * sigma, mu + 2.0 * sigma)


def provisional_reason(sigma: float, games: int) -> str | None:
    """Why a rating is provisional, in words (None: it is not): too few rated games, or an
    uncertainty still near where every bot starts."""
    if games < PROVISIONAL_GAMES:
        return f"{games} of the {PROVISIONAL_GAMES} rated games a rating needs to settle"
    if sigma >= PROVISIONAL_SIGMA:
        return (f"its uncertainty σ {sigma:.1f} is still at least {PROVISIONAL_SIGMA:g}: "
                "its results disagree")  # fmt: skip
    return None


def is_provisional(sigma: float, games: int) -> bool:
    return provisional_reason(sigma, games) is not None


def sister_skill(difficulty: str) -> Skill:
    if difficulty not in SISTER_RATINGS:
        raise ValueError(
            f"unknown solo difficulty {difficulty!r}; one of {', '.join(SISTER_RATINGS)}"
        )
    return Skill(START_MU + (SISTER_RATINGS[difficulty] - START_RATING) * MU_PER_ELO, SISTER_SIGMA)


def _rate(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def match_update(
    skills: Sequence[Skill | tuple[float, float]],
    ranks: Sequence[int],
    *,
    solo_difficulty: str | None = None,
    margin: float | None = None,
) -> list[Skill]:
    """New (μ, σ) for the seats of one match, from their 1-based ranks (equal rank = tie).

    The single entry point used by the ladder and by the recomputation, so both agree.
    """
    skills = [Skill(*s) for s in skills]
    if solo_difficulty is not None:
        if len(skills) != 1 or margin is None:
            raise ValueError("a solo update needs exactly one seat and the margin")
        sister = sister_skill(solo_difficulty)
        player_rank = 1 if margin > 0 else 2 if margin < 0 else 1
        sister_rank = 2 if margin > 0 else 1
        return _rate([skills[0], sister], [player_rank, sister_rank])[:1]
    if len(skills) != len(ranks):
        raise ValueError("skills and ranks must have one entry per seat")
    if len(skills) < 2:
        raise ValueError("a multiplayer update needs at least two seats")
    return _rate(skills, ranks)


_NORMAL = NormalDist()


def win_probabilities(skills: Sequence[Skill | tuple[float, float]]) -> list[float]:
    """Each seat's chance to finish first at a table of these ratings (they sum to 1).

    This is `MODEL.predict_win` for one-player teams, computed the same way step by step (so
    the same floats; tests/tournament/test_skill.py compares them) but without building
    openskill's rating objects, each of which draws a uuid4: the ladder's scheduler asks this
    for every candidate of every table (`scheduling.table_information`), a thousand times per
    table on a ladder of a thousand entrants."""
    n = len(skills)
    if n < 2:
        raise ValueError(f"a table has at least two seats, not {n}")
    two_beta_squared = 2 * MODEL.beta**2
    if n == 2:
        (mu_a, sigma_a), (mu_b, sigma_b) = skills
        result = _NORMAL.cdf((mu_a - mu_b) / math.sqrt(two_beta_squared + sigma_a**2 + sigma_b**2))
        return [result, 1 - result]
    pairwise = [
        _NORMAL.cdf((a[0] - b[0]) / math.sqrt(two_beta_squared + a[1] ** 2 + b[1] ** 2))
        for a, b in itertools.permutations(skills, 2)
    ]
    wins = [sum(pairwise[j] for j in range(i * (n - 1), (i + 1) * (n - 1))) / (n - 1)
            for i in range(n)]  # fmt: skip
    total = sum(wins)
    return [w / total for w in wins]
