"""Swiss with points, as pure functions (no Django): points by placing, tiebreaks, and the
pairing of a round by points that avoids repeat opponents.

* **Points.** Each place of a table earns the points of the organiser's table (index 0 is
  1st). Tied places share the points of the places they span (two seats tied for 1st of a
  4-seat table get (6 + 5) / 2 each). A bye is worth a stated score.
* **Tiebreaks.** Two seats: Buchholz (the sum of the opponents' points) and median Buchholz
  (the same without the best and the worst opponent, when there are three or more). Three or
  four seats: the sum of the points of every opponent met, counted once per table shared
  (a multi-seat Buchholz); byes add no opponent.
* **Pairing.** Two seats: Dutch-like — within a score group the top half meets the bottom
  half in order, players dropping to the next group when their group is odd — found by a
  depth-first search with backtracking that refuses repeat opponents; tables of three or four
  are built the same way (the leader of the standing takes the nearest entrants it has not
  met). Only when no repeat-free pairing exists (a small field late in a long event, or
  tables of four after one round of twelve) are repeats allowed: the search is run again
  with a budget of 1, 2, ..., 6, 9, 13, ... repeated pairs for the whole round, below what a greedy
  pass (no backtracking) needs, so it keeps the fewest it finds in a bounded time.

`tournament/standings.py` reads a league's matches into these functions; the scheduler
(`services.leagues.league_schedule_round`) pairs rounds with `pair_round`.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# The defaults by seats: 1 / ½ / 0 for a duel (chess), a linear 2 / 1 / 0 for three seats,
# and Board Game Arena's +6 / +5 / +3 / +1 for four.
DEFAULT_POINTS: dict[int, tuple[float, ...]] = {
    1: (1.0,),
    2: (1.0, 0.0),
    3: (2.0, 1.0, 0.0),
    4: (6.0, 5.0, 3.0, 1.0),
}
SEARCH_LIMIT = 3_000  # tables tried per repeat budget before the search gives up on it


def default_points(seats: int) -> tuple[float, ...]:
    return DEFAULT_POINTS[seats]


def default_bye_points(points: Sequence[float]) -> float:
    """A bye is worth a win at a duel (chess's full-point bye) and, with more seats, the mean
    points of a table (what an average entrant would have earned)."""
    if len(points) <= 2:
        return float(points[0])
    return round(sum(points) / len(points), 3)


def points_table_problem(points: Sequence[Any] | None, seats: int) -> str | None:
    """Why `points` cannot be a points table for `seats` seats, in plain words, or None."""
    if points is None or len(points) == 0:
        return None
    if len(points) != seats:
        return (
            f"The points table needs one value per place: {seats} values for {seats} seats, "
            f"not {len(points)}."
        )
    try:
        values = [float(p) for p in points]
    except (TypeError, ValueError):
        return "The points table must hold numbers only."
    if any(v < 0 or v > 1000 for v in values):
        return "Points must be between 0 and 1000."
    if any(a < b for a, b in zip(values, values[1:], strict=False)):
        return "A better place cannot earn fewer points: list them from 1st down."
    return None


def place_points(ranks: Sequence[int], points: Sequence[float]) -> list[float]:
    """The points of each seat from its rank (1 is best); tied seats share their places'."""
    out = []
    for rank in ranks:
        tied = sum(1 for r in ranks if r == rank)
        first = rank - 1
        spanned = [points[i] if i < len(points) else 0.0 for i in range(first, first + tied)]
        out.append(sum(spanned) / len(spanned))
    return out


# --- standings --------------------------------------------------------------------------------


@dataclass
class Record:
    """One entrant's Swiss record: points, tables played, byes, and who it met."""

    key: Hashable
    points: float = 0.0
    played: int = 0
    byes: int = 0
    opponents: list[Hashable] = field(default_factory=list)  # once per table shared


@dataclass(frozen=True)
class Standing:
    key: Hashable
    rank: int
    points: float
    played: int
    byes: int
    buchholz: float
    median_buchholz: float | None  # two seats only
    opponents_points: float  # three or four seats (equal to Buchholz for two)


def records(
    keys: Iterable[Hashable],
    tables: Iterable[Sequence[tuple[Hashable, int]]],
    points: Sequence[float],
    byes: Mapping[Hashable, int],
    bye_points: float,
) -> dict[Hashable, Record]:
    """Each entrant's record from its finished tables ((key, rank) per seat) and byes."""
    out = {k: Record(k) for k in keys}
    for table in tables:
        seated = [(k, r) for k, r in table if k in out]
        earned = place_points([r for _, r in seated], points)
        for (key, _), value in zip(seated, earned, strict=True):
            record = out[key]
            record.points += value
            record.played += 1
            record.opponents.extend(k for k, _ in seated if k != key)
    for key, count in byes.items():
        if key in out:
            out[key].byes = count
            out[key].points += count * bye_points
    return out


def standings(
    recs: Mapping[Hashable, Record], seats: int, tie_order: Mapping[Hashable, Any] | None = None
) -> list[Standing]:
    """The final order: points, then (two seats) Buchholz then median Buchholz, or (more
    seats) the opponents' points; then `tie_order` (lower first), then the key. Entrants
    equal on every measure share a rank."""
    rows = []
    for rec in recs.values():
        opp = [recs[o].points for o in rec.opponents if o in recs]
        buchholz = sum(opp)
        median = None
        if seats == 2:
            trimmed = sorted(opp)[1:-1] if len(opp) >= 3 else opp
            median = sum(trimmed)
        rows.append((rec, buchholz, median))
    order = tie_order or {}

    def measure(row: tuple[Record, float, float | None]) -> tuple:
        rec, buchholz, median = row
        return (-round(rec.points, 6), -round(buchholz, 6), -round(median or 0.0, 6))

    rows.sort(key=lambda row: (*measure(row), order.get(row[0].key, 0), str(row[0].key)))
    out: list[Standing] = []
    for i, row in enumerate(rows):
        rec, buchholz, median = row
        rank = out[-1].rank if out and measure(rows[i - 1]) == measure(row) else i + 1
        out.append(Standing(rec.key, rank, round(rec.points, 3), rec.played, rec.byes,
                            round(buchholz, 3), None if median is None else round(median, 3),
                            round(buchholz, 3)))  # fmt: skip
    return out


# --- pairing ----------------------------------------------------------------------------------


def _pair_counts(history: Iterable[Sequence[Hashable]]) -> defaultdict:
    met: defaultdict = defaultdict(int)
    for table in history:
        for a, b in itertools.combinations(set(table), 2):
            met[frozenset((a, b))] += 1
    return met


def _dutch_order(players: Sequence[Hashable], points: Mapping[Hashable, float]) -> list:
    """For the first player of `players` (the standing, best first): the others in the order
    it would like to meet them — its own score group's bottom half first, at the Dutch
    position (top half meets bottom half in order), then the rest of its group, then the
    nearest groups below."""
    first = players[0]
    group = [p for p in players if points[p] == points[first]]
    half = len(group) // 2
    ideal = half  # the first of S1 meets the first of S2
    in_group = sorted(group[1:], key=lambda p: (abs(group.index(p) - ideal), group.index(p)))
    rest = [p for p in players[1:] if p not in group]
    return in_group + rest


def pair_round(
    standing: Sequence[Hashable],
    seats: int,
    history: Iterable[Sequence[Hashable]],
    points: Mapping[Hashable, float] | None = None,
    *,
    limit: int = SEARCH_LIMIT,
) -> list[tuple[Hashable, ...]]:
    """Split `standing` (best first, whole tables: byes already taken out) into tables of
    `seats` by points, avoiding pairs that met in `history`. Falls back to the fewest
    repeats when no table set without them exists (or the search runs past `limit`)."""
    if seats < 2 or len(standing) < seats:
        return []
    scores = dict(points or {})
    for i, key in enumerate(standing):
        scores.setdefault(key, -i)  # no points given: the standing order alone
    met = _pair_counts(history)
    greedy = _greedy(list(standing), seats, met, scores)
    worst = _cost(greedy, met)
    budget = 0
    while budget < worst:  # repeats allowed in the whole round: 0, 1, ..., 6, 9, 13, ...
        found = _search(list(standing), seats, met, scores, budget, [0], limit)
        if found is not None:
            return found
        budget = budget + 1 if budget < 6 else budget * 3 // 2
    return greedy


def _cost(tables: Iterable[Sequence[Hashable]], met: Mapping[frozenset, int]) -> int:
    return sum(met.get(frozenset(pair), 0)
               for table in tables for pair in itertools.combinations(table, 2))  # fmt: skip


def _greedy(
    remaining: list[Hashable],
    seats: int,
    met: Mapping[frozenset, int],
    scores: Mapping[Hashable, float],
) -> list[tuple[Hashable, ...]]:
    """No backtracking: the leader takes, one by one, the companion that adds the fewest
    repeat meetings (nearest first). The upper bound the search must beat."""
    tables = []
    while len(remaining) >= seats:
        leader = remaining[0]
        preference = _dutch_order(remaining, scores) if seats == 2 else remaining[1:]
        table = [leader]
        for _ in range(seats - 1):
            best = min(
                (p for p in preference if p not in table),
                key=lambda p: sum(met.get(frozenset((p, t)), 0) for t in table),
            )
            table.append(best)
        tables.append(tuple(sorted(table, key=remaining.index)))
        remaining = [p for p in remaining if p not in table]
    return tables


def _search(
    remaining: list[Hashable],
    seats: int,
    met: Mapping[frozenset, int],
    scores: Mapping[Hashable, float],
    budget: int,
    tried: list[int],
    limit: int,
) -> list[tuple[Hashable, ...]] | None:
    """Depth first: seat the leader of `remaining` with the companions it prefers, recurse on
    the rest, and back off when the rest cannot be seated within `budget` repeat meetings;
    None when nothing fits or `limit` tables have been tried."""
    if not remaining:
        return []
    leader = remaining[0]
    # a duel: the Dutch order; a table of 3-4: the nearest entrants in the standing
    preference = _dutch_order(remaining, scores) if seats == 2 else remaining[1:]
    preference = preference[: max(3 * seats, 12)]
    for companions in itertools.combinations(preference, seats - 1):
        table = (leader, *companions)
        cost = sum(met.get(frozenset(pair), 0) for pair in itertools.combinations(table, 2))
        if cost > budget:
            continue
        tried[0] += 1
        if tried[0] > limit:
            return None
        rest = [p for p in remaining if p not in table]
        tail = _search(rest, seats, met, scores, budget - cost, tried, limit)
        if tail is not None:
            ordered = tuple(sorted(table, key=remaining.index))
            return [ordered, *tail]
    return None


def repeat_pairs(
    tables: Iterable[Sequence[Hashable]], history: Iterable[Sequence[Hashable]]
) -> int:
    """How many pairs of `tables` had already met in `history` (0 is a clean round)."""
    met = _pair_counts(history)
    return sum(
        1 for table in tables for pair in itertools.combinations(table, 2)
        if met.get(frozenset(pair), 0)
    )  # fmt: skip
