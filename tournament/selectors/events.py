"""Reads of the league page's event panels: each entrant's faults by kind, and the words
that say how a round robin seats its tables."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count

from ..models import League, LeagueEntry, Match, MatchSeat


@dataclass(frozen=True)
class FaultRow:
    entry: LeagueEntry
    counts: list[int]  # one per kind of `FaultTable.kinds`
    total: int


@dataclass(frozen=True)
class FaultTable:
    kinds: list[str]
    rows: list[FaultRow]


def league_fault_table(*, league: League) -> FaultTable:
    """Every entrant that faulted in a finished match of the league, with how many seats it
    faulted in each kind (competition/faults.py's vocabulary), most faults first."""
    counted = (
        MatchSeat.objects.filter(match__league=league, match__status=Match.Status.FINISHED)
        .exclude(fault="")
        .values_list("bot_version_id", "fault")
        .annotate(n=Count("pk"))
    )
    by_version: dict[int, dict[str, int]] = defaultdict(dict)
    for version_id, kind, n in counted:
        by_version[version_id][kind] = n
    if not by_version:
        return FaultTable([], [])
    kinds = sorted({k for counts in by_version.values() for k in counts})
    entries = league.entries.filter(bot_version_id__in=by_version).select_related(
        "bot_version__bot"
    )
    rows = [
        FaultRow(e, [by_version[e.bot_version_id].get(k, 0) for k in kinds],
                 sum(by_version[e.bot_version_id].values()))
        for e in entries
    ]  # fmt: skip
    rows.sort(key=lambda r: (-r.total, r.entry.bot_version.bot.name))
    return FaultTable(kinds, rows)


def round_robin_plan(league: League, entrants: int) -> str:
    """What the round robin plays, in numbers that are true for this league."""
    seats = league.seats
    orders = math.factorial(seats) if league.all_seat_orders else seats
    how = "every seat order" if league.all_seat_orders else "one rotation per seat"
    tables = math.comb(entrants, seats) if entrants >= seats else 0
    return (
        f"Each table of {seats} entrants plays {league.seeds} deal{'s' * (league.seeds != 1)} "
        f"in {how} ({orders} order{'s' * (orders != 1)} per deal, so every entrant sits in "
        f"every seat): {tables} table{'s' * (tables != 1)} x {league.seeds} x {orders} = "
        f"{tables * league.seeds * orders} matches with {entrants} entrants."
    )
