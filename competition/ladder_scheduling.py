"""Ladder scheduling by expected information, as pure functions (no Django).

A ladder learns most from a game whose result it cannot predict, between entrants it knows
least about. So the next tables are chosen greedily:

* the *anchor* of each table is the entrant the ladder is least sure of (highest OpenSkill σ;
  a new entry starts at the highest σ, so it gets its first games at once), preferring entrants
  not already sitting in an open match and not yet placed in this batch;
* the other seats go to the entrants that make the table most informative: the entropy of the
  predicted winner (1 when every seat is equally likely to win, 0 when the winner is certain)
  times the mean σ² of the table, relative to a new entry's σ²;
* a pair that has met `pair_cap` times in the recent window is not seated together again while
  any other choice exists, so two close rivals do not play each other for ever.

`information_tables` is used by `services.leagues.league_schedule_round` for ladder leagues and
by `bench/scheduling.py`, which measures how fast it sorts 30 bots of known strength compared
with random pairing.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from . import skill

DEFAULT_PAIR_CAP = 2  # meetings of one pair within the recent window
PAIR_WINDOW_PER_ENTRANT = 2  # the recent window: this many matches per entrant


def pair_window(entrants: int) -> int:
    """How many of the latest matches count towards the pair cap."""
    return PAIR_WINDOW_PER_ENTRANT * entrants


@dataclass(frozen=True)
class Candidate:
    """An entrant as the scheduler sees it."""

    key: Hashable
    mu: float
    sigma: float
    games: int = 0
    busy: bool = False  # already seated in a queued or running match


def pair_key(a: Hashable, b: Hashable) -> frozenset:
    return frozenset((a, b))


def meetings(tables: Iterable[Sequence[Hashable]]) -> Counter:
    """How often each pair of entrants sat at the same table (pass the recent window)."""
    counts: Counter = Counter()
    for table in tables:
        members = set(table)
        if len(members) == 2:  # a duel: its one pair (the ladder reads ~2 per entrant)
            counts[frozenset(members)] += 1
            continue
        for a, b in itertools.combinations(members, 2):
            counts[pair_key(a, b)] += 1
    return counts


def outcome_entropy(members: Sequence[Candidate]) -> float:
    """Entropy of the predicted winner, scaled to [0, 1] by its maximum log(n)."""
    probabilities = skill.win_probabilities([(m.mu, m.sigma) for m in members])
    entropy = -sum(p * math.log(p) for p in probabilities if p > 0)
    return entropy / math.log(len(members))


def table_information(members: Sequence[Candidate]) -> float:
    """How much a game at this table is expected to teach: outcome entropy x mean σ² (relative
    to a new entry's σ²). Higher is better."""
    mean_var = sum(m.sigma**2 for m in members) / len(members)
    return outcome_entropy(members) * mean_var / skill.START_SIGMA**2


def information_tables(
    candidates: Sequence[Candidate],
    seats: int,
    count: int,
    rng: random.Random,
    *,
    recent_meetings: Mapping[frozenset, int] | None = None,
    pair_cap: int = DEFAULT_PAIR_CAP,
) -> list[tuple[Hashable, ...]]:
    """`count` tables of `seats` entrant keys each, in a shuffled seat order (a solo ladder's
    tables are single entrants, the least certain first)."""
    if seats < 1 or len(candidates) < seats:
        return []
    met: Counter = Counter(recent_meetings or {})
    placed: Counter = Counter()
    by_key = {c.key: c for c in candidates}
    tables = []
    for _ in range(count):
        order = sorted(
            candidates,
            key=lambda c: (placed.get(c.key, 0), c.busy, -c.sigma, c.games, rng.random()),
        )
        anchor = order[0]
        table = [anchor]
        while len(table) < seats:
            seated = {t.key for t in table}
            best_key = None
            best = None
            for c in order[1:]:
                if c.key in seated:
                    continue
                over_cap = any(met.get(pair_key(c.key, t), 0) >= pair_cap for t in seated)
                head = (-int(over_cap), -placed.get(c.key, 0), -int(c.busy))
                if best is not None and head < best[:3]:
                    # It cannot win on information: skip computing it (a ladder of a thousand,
                    # nearly all busy, would otherwise price a thousand tables per table), but
                    # draw its tie-break all the same so the choices stay those of the seed.
                    rng.random()
                    continue
                score = (*head, table_information([*table, c]), rng.random())
                if best is None or score > best:
                    best, best_key = score, c.key
            table.append(by_key[best_key])
        for a, b in itertools.combinations(table, 2):
            met[pair_key(a.key, b.key)] += 1
        for member in table:
            placed[member.key] += 1
        keys = [m.key for m in table]
        rng.shuffle(keys)
        tables.append(tuple(keys))
    return tables


def random_tables(
    keys: Sequence[Hashable], seats: int, count: int, rng: random.Random
) -> list[tuple[Hashable, ...]]:
    """The baseline the bench compares with: tables drawn uniformly, everyone once per batch
    while the batch lasts."""
    tables = []
    pool: list[Hashable] = []
    for _ in range(count):
        if len(pool) < seats:
            pool = list(keys)
            rng.shuffle(pool)
        tables.append(tuple(pool[:seats]))
        pool = pool[seats:]
    return tables
