"""Divisions for large ladders, as pure functions (no Django): split the ladder into divisions
of a target size by rating, seat most tables inside one division, promote and relegate every
few rounds, and give new entrants placement matches before they join a division.

* **Placement.** An entrant with fewer than `placement` rated games is *unplaced*: its tables
  are drawn from the whole ladder (it is the least certain, so the scheduler takes it first),
  and once placed it joins the division its rating falls in.
* **Tables.** The next table's anchor is the neediest entrant, as in
  `scheduling.information_tables` (fewest tables this batch, not busy, highest σ); the rest of
  its table comes from its own division (plus the unplaced), except for a `cross_share` of
  tables that may also take the neighbouring divisions, so that divisions stay comparable.
  Inside that pool the table is chosen by expected information, as the ladder always does.
  The pool is a division, not the ladder: the scheduler's cost per table is that of a ladder
  of `size` entrants, whatever the ladder's size.
* **Promotion and relegation.** Every `every` rounds `promote` re-sorts each division by the
  conservative rating; the best `moves` of a division swap with the worst of the one above.
* **A fresh split.** When the ladder has grown or shrunk past what its divisions were made
  for (their number is no longer ceil(n / size)), `refresh` splits it again by rating.

`bench/season.py --divisions SIZE` measures the effect on rank correlation and on the
scheduler's cost beside the ladder without divisions.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence

from . import ladder_scheduling as scheduling

DEFAULT_PLACEMENT = 5
DEFAULT_CROSS_SHARE = 0.1


def split(order: Sequence[Hashable], size: int) -> dict[Hashable, int]:
    """Division of each key of `order` (best first): ceil(n / size) divisions of equal size
    (±1), division 0 the top."""
    if not order:
        return {}
    count = max(1, math.ceil(len(order) / size))
    per = len(order) / count
    return {key: min(count - 1, int(i / per)) for i, key in enumerate(order)}


def place(division: dict[Hashable, int], key: Hashable, rating: float,
          ratings: Mapping[Hashable, float]) -> int:  # fmt: skip
    """The division a newly placed entrant joins: the one whose members' median rating is
    nearest its own."""
    members: dict[int, list[float]] = {}
    for other, d in division.items():
        if other != key and other in ratings:
            members.setdefault(d, []).append(ratings[other])
    if not members:
        return 0
    medians = {d: sorted(v)[len(v) // 2] for d, v in members.items()}
    return min(medians, key=lambda d: (abs(medians[d] - rating), d))


def promote(division: dict[Hashable, int], ratings: Mapping[Hashable, float],
            moves: int) -> dict[Hashable, int]:  # fmt: skip
    """Promotion and relegation: the best `moves` of each division go up one, the worst
    `moves` of the division above come down. Returns the new divisions."""
    out = dict(division)
    count = max(division.values(), default=-1) + 1
    ranked = {d: sorted((k for k, v in division.items() if v == d),
                        key=lambda k: -ratings[k]) for d in range(count)}  # fmt: skip
    for d in range(1, count):
        up = ranked[d][:moves]
        down = ranked[d - 1][-moves:] if ranked[d - 1] else []
        for key in up:
            out[key] = d - 1
        for key in down:
            out[key] = d
    return out


def out_of_shape(division: Mapping[Hashable, int], size: int) -> bool:
    """Whether the divisions no longer number what `split` would make of their members,
    ceil(n / size). Newcomers are placed into the divisions there are and withdrawals leave
    them, so without a fresh split a ladder first split at 2 x `size` entrants would grow into
    two divisions of hundreds."""
    return bool(division) and len(set(division.values())) != math.ceil(len(division) / size)


def refresh(division: Mapping[Hashable, int], ratings: Mapping[Hashable, float],
            ready: Sequence[Hashable], size: int, *, entrants: int,
            promote_round: bool) -> dict[Hashable, int]:  # fmt: skip
    """The divisions after a refresh: `ready` are the entrants whose placement matches are
    played (placed or not yet), `entrants` how many the ladder has in all.

    * A ladder without divisions is split once 2 x `size` are ready, or all of them.
    * Otherwise the ready newcomers are placed; divisions out of shape (`out_of_shape`) are
      split again by rating; else on a promotion round the edges swap (`promote`)."""
    def by_rating(keys: Iterable[Hashable]) -> list[Hashable]:
        return sorted(keys, key=lambda k: -ratings[k])

    if not division:
        if len(ready) >= 2 * size or (ready and len(ready) == entrants):
            return split(by_rating(ready), size)
        return {}
    placed = dict(division)
    for key in ready:
        if key not in placed:
            placed[key] = place(placed, key, ratings[key], ratings)
    if out_of_shape(placed, size):
        return split(by_rating(placed), size)
    if promote_round:
        return promote(placed, ratings, max(1, size // 10))
    return placed


def division_tables(
    candidates: Sequence[scheduling.Candidate],
    division: Mapping[Hashable, int],
    seats: int,
    count: int,
    rng: random.Random,
    *,
    recent_meetings: Mapping[frozenset, int] | None = None,
    cross_share: float = DEFAULT_CROSS_SHARE,
) -> list[tuple[Hashable, ...]]:
    """`count` tables, each mostly inside one division (see the module's docstring).
    Entrants missing from `division` are unplaced and may sit at any table."""
    if seats < 2 or len(candidates) < seats:
        return scheduling.information_tables(candidates, seats, count, rng,
                                             recent_meetings=recent_meetings)  # fmt: skip
    met: Counter = Counter(recent_meetings or {})
    placed: Counter = Counter()
    by_division: dict[int | None, list[scheduling.Candidate]] = {}
    for c in candidates:
        by_division.setdefault(division.get(c.key), []).append(c)
    unplaced = by_division.get(None, [])
    tables = []
    for _ in range(count):
        anchor = min(candidates, key=lambda c: (placed[c.key], c.busy, -c.sigma, c.games,
                                                rng.random()))  # fmt: skip
        home = division.get(anchor.key)
        if home is None:
            pool = list(candidates)  # a placement match: the whole ladder
        else:
            near = [home]
            if rng.random() < cross_share:
                near += [home - 1, home + 1]
            pool = [c for d in near for c in by_division.get(d, [])] + unplaced
        # who has no table yet this batch, in the pool; then anywhere; then anyone at all
        others = [c for c in pool if c.key != anchor.key and not placed[c.key]]
        if len(others) < seats - 1:
            others = [c for c in candidates if c.key != anchor.key and not placed[c.key]]
        if len(others) < seats - 1:
            others = [c for c in candidates if c.key != anchor.key]
        # the anchor first, the rest by information with it (scheduling's own choice)
        best = _complete(anchor, others, seats, met, rng)
        for member in best:
            placed[member] += 1
        for i, a in enumerate(best):
            for b in best[i + 1 :]:
                met[scheduling.pair_key(a, b)] += 1
        keys = list(best)
        rng.shuffle(keys)
        tables.append(tuple(keys))
    return tables


def _complete(anchor: scheduling.Candidate, others: Sequence[scheduling.Candidate], seats: int,
              met: Counter, rng: random.Random) -> list[Hashable]:  # fmt: skip
    table = [anchor]
    while len(table) < seats:
        seated = {t.key for t in table}
        best = None
        best_c = None
        for c in others:
            if c.key in seated:
                continue
            over_cap = any(met.get(scheduling.pair_key(c.key, t), 0) >= scheduling.DEFAULT_PAIR_CAP
                           for t in seated)  # fmt: skip
            head = (-int(over_cap), -int(c.busy))
            if best is not None and head < best[:2]:
                rng.random()  # cannot win on information (scheduling.information_tables)
                continue
            score = (*head, scheduling.table_information([*table, c]), rng.random())
            if best is None or score > best:
                best, best_c = score, c
        table.append(best_c)
    return [c.key for c in table]
