"""A Swiss league's standings: points by placing and tiebreaks (competition/swiss.py), read
from its finished matches. The league page's "Standings" table, the API's `standings`, the
Swiss scheduler's pairing order, and anything that crowns a winner (a podium) read this.

Points are computed from the ranks of the finished matches each time (a Swiss has a few
rounds of a few tables: a few hundred seats), so changing nothing but the display of a
table can never leave a stored total out of step with the results.
"""

from __future__ import annotations

from dataclasses import dataclass

from competition import swiss

from .models import League, LeagueEntry, Match, MatchSeat


@dataclass(frozen=True)
class StandingRow:
    entry: LeagueEntry
    rank: int
    points: float
    played: int
    byes: int
    buchholz: float
    median_buchholz: float | None  # two seats only
    opponents_points: float


def league_points(league: League) -> tuple[float, ...]:
    """The league's points table (1st first): the organiser's, or the default for its seats."""
    if league.points_table:
        return tuple(float(p) for p in league.points_table)
    return swiss.default_points(league.seats)


def league_bye_points(league: League) -> float:
    if league.bye_points is not None:
        return float(league.bye_points)
    return swiss.default_bye_points(league_points(league))


def finished_tables(league: League, by_version: dict[int, int]) -> list[list[tuple[int, int]]]:
    """(entry pk, rank) of each seat of each finished match of the league, by match."""
    rows = (
        MatchSeat.objects.filter(match__league=league, match__status=Match.Status.FINISHED)
        .order_by("match_id", "seat")
        .values_list("match_id", "bot_version_id", "rank")
    )
    tables: dict[int, list[tuple[int, int]]] = {}
    for match_id, version_id, rank in rows:
        if version_id in by_version and rank is not None:
            tables.setdefault(match_id, []).append((by_version[version_id], rank))
    return list(tables.values())


def played_tables(league: League, by_version: dict[int, int]) -> list[list[int]]:
    """Entry pks of every table the league has seated (queued, running or over, not
    cancelled): the history that repeat opponents are avoided against."""
    rows = (
        MatchSeat.objects.filter(match__league=league)
        .exclude(match__status=Match.Status.CANCELLED)
        .order_by("match_id", "seat")
        .values_list("match_id", "bot_version_id")
    )
    tables: dict[int, list[int]] = {}
    for match_id, version_id in rows:
        if version_id in by_version:
            tables.setdefault(match_id, []).append(by_version[version_id])
    return list(tables.values())


def league_standings(
    *, league: League, entries: list[LeagueEntry] | None = None
) -> list[StandingRow]:
    """Every entrant (or `entries`) in Swiss order: points, then Buchholz and median
    Buchholz (two seats) or the opponents' points (more seats), then Elo, then entry order.
    Entrants equal on points and tiebreaks share a rank."""
    if entries is None:
        entries = list(league.entries.select_related("bot_version__bot").order_by("pk"))
    by_version = {e.bot_version_id: e.pk for e in entries}
    by_pk = {e.pk: e for e in entries}
    recs = swiss.records(
        by_pk, finished_tables(league, by_version), league_points(league),
        {e.pk: e.byes for e in entries}, league_bye_points(league),
    )  # fmt: skip
    tie_order = {e.pk: i for i, e in enumerate(sorted(entries, key=lambda e: (-e.rating, e.pk)))}
    rows = swiss.standings(recs, league.seats, tie_order)
    return [
        StandingRow(by_pk[r.key], r.rank, r.points, r.played, r.byes, r.buchholz,
                    r.median_buchholz, r.opponents_points)
        for r in rows
    ]  # fmt: skip


def final_standings(*, league: League) -> list[StandingRow]:
    """The standings a podium reads: the same order; final once the league is closed."""
    return league_standings(league=league)
