"""Head-to-head tallies as pure functions (no Django): who beat whom, and how often.

A match of 2-4 seats is read the way pairwise Elo reads it: every pair of seats is one game,
won, drawn or lost by rank, and a seat without a rank (it crashed out) counts as last. The
selectors (`tournament.selectors.league_head_to_head`, `bot_head_to_head`) feed these functions
plain rows and hand the records to the API and the pages.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SeatRow:
    """One seat of one finished match: `key` says who sat there (a bot version or a bot)."""

    match_id: int
    key: Hashable
    rank: int | None
    score: float | None = None


@dataclass
class HeadToHeadRecord:
    """Results of `subject` against `opponent`: each pairing of their seats in a match."""

    subject: Hashable
    opponent: Hashable
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score_diff_sum: float = 0.0

    @property
    def points(self) -> float:
        """Wins plus half the draws: the usual head-to-head score."""
        return self.wins + 0.5 * self.draws

    @property
    def win_rate(self) -> float | None:
        return self.points / self.games if self.games else None

    @property
    def mean_score_diff(self) -> float | None:
        return self.score_diff_sum / self.games if self.games else None


def _effective_ranks(seats: Sequence[SeatRow]) -> list[int]:
    worst = max((s.rank for s in seats if s.rank is not None), default=0) + 1
    return [s.rank if s.rank is not None else worst for s in seats]


def tally(rows: Iterable[SeatRow]) -> dict[tuple[Hashable, Hashable], HeadToHeadRecord]:
    """Every ordered pair (subject, opponent) that met, with its record; both directions are
    present, so ``tally[a, b].wins == tally[b, a].losses``. Seats with the same key in one
    match (two copies of one bot) are not a head-to-head and are skipped."""
    by_match: dict[int, list[SeatRow]] = {}
    for row in rows:
        by_match.setdefault(row.match_id, []).append(row)
    records: dict[tuple[Hashable, Hashable], HeadToHeadRecord] = {}
    for seats in by_match.values():
        ranks = _effective_ranks(seats)
        for i, a in enumerate(seats):
            for j, b in enumerate(seats):
                if i == j or a.key == b.key:
                    continue
                record = records.get((a.key, b.key))
                if record is None:
                    record = records[a.key, b.key] = HeadToHeadRecord(a.key, b.key)
                record.games += 1
                if ranks[i] < ranks[j]:
                    record.wins += 1
                elif ranks[i] == ranks[j]:
                    record.draws += 1
                else:
                    record.losses += 1
                if a.score is not None and b.score is not None:
                    record.score_diff_sum += a.score - b.score
    return records


def matrix(
    keys: Sequence[Hashable], records: dict[tuple[Hashable, Hashable], HeadToHeadRecord]
) -> list[list[HeadToHeadRecord | None]]:
    """A square table in the order of `keys`: row i, column j is i's record against j (an empty
    record when they never met, None on the diagonal)."""
    return [
        [None if a == b else records.get((a, b)) or HeadToHeadRecord(a, b) for b in keys]
        for a in keys
    ]
