"""Swiss: `rounds` rounds, each queued when the last one ends, its tables paired by points
(`competition/swiss.py`) avoiding repeat opponents; byes rotate; the final places are the
standings by points, then tiebreaks (`tournament/standings.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import F
from django.template.defaultfilters import pluralize

from competition import swiss
from competition.seeds import seed_from

from ..models import League, LeagueEntry, Match
from ..selectors.entries import scheduled_entries
from ..standings import final_standings, league_standings, played_tables
from .base import Format, Place, create_league_match, open_matches


def swiss_byes(standing: Sequence[Any], seats: int, byes: Sequence[int]) -> list[Any]:
    """The entrants who sit out a round when the standing does not split into full tables.

    The usual Swiss rule: the bye goes to the lowest-ranked entrant who has not had one yet
    (`byes[i]` is how many entrant `standing[i]` has had), so it rotates instead of falling on
    the last entrant every round; once everyone has had one, the fewest byes decide again.
    """
    count = len(standing) % seats
    if not count:
        return []
    by_claim = sorted(range(len(standing)), key=lambda i: (byes[i], -i))
    return [standing[i] for i in sorted(by_claim[:count])]


def swiss_tables(
    standing: Sequence[Any],
    seats: int,
    round_number: int,
    byes: Sequence[Any] = (),
    *,
    history: Sequence[Sequence[Any]] = (),
    points: dict[Any, float] | None = None,
) -> list[tuple]:
    """The round's tables: the standing without the entrants who have a bye, paired by
    points avoiding repeat opponents of `history` (`competition/swiss.py`).

    The seat order inside each table rotates with the round so first seat is shared out.
    """
    playing = [e for e in standing if e not in byes]
    tables = []
    for table in swiss.pair_round(playing, seats, history, points):
        shift = round_number % seats
        tables.append(table[shift:] + table[:shift])
    return tables


def _swiss_round(league: League) -> tuple[list, list, list, dict]:
    """The Swiss standing of the entries new matches are made of (points, tiebreaks, Elo;
    `tournament/standings.py`), the tables seated so far, and each entry's points."""
    entries = list(scheduled_entries(league).order_by("pk"))
    rows = league_standings(league=league, entries=entries)
    standing = [r.entry for r in rows]
    by_version = {e.bot_version_id: e for e in entries}
    history = [
        [by_version[v] for v in table]
        for table in played_tables(league, {v: v for v in by_version})
    ]
    return standing, history, [e.byes for e in standing], {r.entry: r.points for r in rows}


class Swiss(Format):
    key = League.Format.SWISS
    label = "Swiss"
    description = "Swiss — rounds of tables by points, avoiding repeat opponents"
    menu_order = 20
    league_fields = frozenset({"rounds", "points_table", "bye_points"})

    def schedule(self, league: League) -> list[Match]:
        if league.current_round >= league.rounds:
            return []
        league.current_round += 1
        rnd = league.current_round
        standing, history, had_byes, points = _swiss_round(league)
        byes = swiss_byes(standing, league.seats, had_byes)
        LeagueEntry.objects.filter(pk__in=[e.pk for e in byes]).update(byes=F("byes") + 1)
        tables = swiss_tables(standing, league.seats, rnd, byes, history=history, points=points)
        created = []
        for t, order in enumerate(tables):
            seed = seed_from(league.base_seed, rnd, t)
            created.append(create_league_match(league, order, seed, rnd))
        league.save(update_fields=["current_round"])
        return created

    def after_match(self, league: League) -> None:
        """The next round once every match of this one has ended."""
        if league.current_round < league.rounds and not open_matches(league).exists():
            self.schedule(league)

    def is_over(self, league: League) -> bool:
        return league.current_round >= league.rounds and not open_matches(league).exists()

    def standings(self, league: League) -> list[Any] | None:
        return league_standings(league=league)

    def places(self, league: League) -> list[Place]:
        """Points, then Buchholz (two seats) or the opponents' points."""
        out = []
        for row in final_standings(league=league):
            tiebreak = (f"Buchholz {row.buchholz:g}" if row.median_buchholz is not None
                        else f"opponents' points {row.opponents_points:g}")  # fmt: skip
            figures = {"points": row.points, "played": row.played, "byes": row.byes,
                       "buchholz": row.buchholz, "median_buchholz": row.median_buchholz,
                       "opponents_points": row.opponents_points}  # fmt: skip
            points = f"{row.points:g} point{pluralize(row.points)}"
            out.append(Place(row.entry.pk, row.rank, f"{points}, {tiebreak}", figures))
        return out
