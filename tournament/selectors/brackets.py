"""Reads of brackets and podiums for the API and the site: a league's final places, its
bracket drawn as columns of series (each with its entrants, points and matches), and the
titles a bot won. A fixed number of queries each, whatever the size of the bracket."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet

from competition import bracket_plan as plan

from .. import formats
from ..models import Bot, Bracket, BracketGame, BracketSeries, League, LeagueEntry, LeaguePlace
from . import league_list

PODIUM_PLACES = 3
# what a bracket shows of an entrant: its bot's name and its version's number
ENTRANT_FIELDS = ("id", "league_id", "bot_version__id", "bot_version__number",
                  "bot_version__bot__id", "bot_version__bot__name")  # fmt: skip


def league_places(*, league: League) -> QuerySet[LeaguePlace]:
    """A closed league's final order (empty while it runs, or for a bracket closed early)."""
    return LeaguePlace.objects.filter(league=league).select_related("entry__bot_version__bot")


def league_podium(*, league: League) -> list[LeaguePlace]:
    return list(league_places(league=league).filter(place__lte=PODIUM_PLACES))


def bracket_settings(*, league: League) -> Bracket | None:
    """A bracket league's settings, with the league its playoff follows (a season)."""
    return Bracket.objects.select_related("playoff_of").filter(league=league).first()


def league_champion(*, league: League) -> LeaguePlace | None:
    return league_places(league=league).filter(place=1).first()


def bot_titles(*, bot: Bot, user: Any = None) -> list[LeaguePlace]:
    """The podium places a bot's versions won in leagues the viewer may see, newest first."""
    visible = league_list(user=user).values("pk")
    return list(
        LeaguePlace.objects.filter(
            entry__bot_version__bot=bot, place__lte=PODIUM_PLACES, league__in=visible
        )
        .select_related("league", "entry__bot_version")
        .order_by("place", "-created_at")
    )


@dataclass
class Slot:
    entry: LeagueEntry | None  # None: a bye, or not known yet
    label: str  # "seed 3", "winner of W1-2" until known; "bye"
    points: float | None
    won: bool  # won the series (elimination) or the final table
    goes_on: bool = False  # a knockout table's: among the top who go on


@dataclass
class SeriesView:
    series: BracketSeries
    slots: list[Slot]
    matches: list[Any] = field(default_factory=list)  # Match rows, in game order

    @property
    def title(self) -> str:
        s = self.series
        if s.stage == plan.GRAND_FINAL:
            return "Grand final"
        if s.stage == plan.RESET:
            return "Grand final reset"
        if s.stage == plan.TABLE:
            return f"Table {s.position}"
        if s.stage == "bye":
            return "Byes"
        return f"Series {s.position}"


@dataclass
class Column:
    title: str
    series: list[SeriesView]


@dataclass
class BracketView:
    bracket: Bracket
    sections: list[tuple[str, list[Column]]]  # ("Winners' bracket", columns) ...
    seeds: list[LeagueEntry]
    live: bool
    tables: bool = False  # a knockout's tables, not two-slot series


def _round_title(stage: str, rnd: int, rounds: int) -> str:
    if stage == plan.WINNERS:
        left = rounds - rnd
        return {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}.get(left, f"Round {rnd}")
    if stage == plan.LOSERS:
        return f"Losers' round {rnd}"
    if stage == plan.TABLE:
        return "Final table" if rnd == rounds else f"Round {rnd}"
    return "Grand final"


def bracket_view(*, league: League) -> BracketView | None:
    """The bracket of a bracket league as columns to draw, or None for another format. Drawn
    from its series alone: tables (a knockout) by round; series (an elimination) by side of
    the bracket, then the grand final."""
    bracket = Bracket.objects.filter(league=league).first()
    if bracket is None:
        return None
    # only what the bracket draws: a bracket's matches and entrants carry results, charts and
    # logs that would cost more to read than the whole page
    entries = {
        e.pk: e
        for e in league.entries.select_related("bot_version__bot").only(*ENTRANT_FIELDS)
    }
    games: dict[int, list[Any]] = {}
    for game in (
        BracketGame.objects.filter(series__bracket=bracket)
        .select_related("match")
        .only("series_id", "number", "match__id", "match__status")
        .order_by("series_id", "number")
    ):
        games.setdefault(game.series_id, []).append(game.match)
    views = [SeriesView(s, _slots(s, entries), games.get(s.pk, []))
             for s in bracket.series.order_by("pk")]  # fmt: skip
    tables = any(v.series.stage == plan.TABLE for v in views)
    sections = _table_sections(league, bracket, views) if tables else _elimination_sections(views)
    seeds = [entries[e] for e in bracket.seeds if e in entries]
    live = league.status == League.Status.RUNNING
    return BracketView(bracket, sections, seeds, live, tables)


def _slots(s: BracketSeries, entries: dict[int, LeagueEntry]) -> list[Slot]:
    """The slots of a series: each entrant (or what will fill it), its points and whether it
    won the series or goes on from its table."""
    slots = []
    decided = s.status == BracketSeries.Status.DONE and bool(s.order)
    table = s.stage in (plan.TABLE, "bye")
    for i, e in enumerate(s.slots or [None] * len(s.sources)):
        if e is not None:
            label = ""
        elif s.status == BracketSeries.Status.WAITING and s.sources:
            kind, ref = s.sources[i]
            label = f"seed {ref}" if kind == "seed" else f"{kind} of {ref}"
        else:
            label = "bye"
        points = s.points.get(str(e)) if e is not None else None
        won = decided and e is not None and s.order[0] == e and not (table and s.advance)
        goes_on = decided and e is not None and table and e in s.order[: s.advance]
        slots.append(Slot(entries.get(e), label, points, won, goes_on))
    return slots


def _table_sections(
    league: League, bracket: Bracket, views: list[SeriesView]
) -> list[tuple[str, list[Column]]]:
    """A knockout: one column of tables per round."""
    rounds = plan.knockout_plan(len(bracket.seeds), league.seats, bracket.advance)
    columns = []
    for n in range(1, len(rounds) + 1):
        found = [v for v in views if v.series.round == n]
        title = _round_title(plan.TABLE, n, len(rounds))
        columns.append(Column(f"{title} ({rounds[n - 1].tables} tables)"
                              if rounds[n - 1].tables > 1 else title, found))  # fmt: skip
    return [("Tables", columns)]


def _elimination_sections(views: list[SeriesView]) -> list[tuple[str, list[Column]]]:
    """An elimination bracket: the winners' side ("Bracket" when there is no grand final: a
    single elimination), the losers' side, and the grand final (with its reset if played)."""
    double = any(v.series.stage == plan.GRAND_FINAL for v in views)
    sections: list[tuple[str, list[Column]]] = []
    for stage, name in ((plan.WINNERS, "Winners' bracket" if double else "Bracket"),
                        (plan.LOSERS, "Losers' bracket")):  # fmt: skip
        stage_views = [v for v in views if v.series.stage == stage]
        if not stage_views:
            continue
        rounds = max(v.series.round for v in stage_views)
        columns = [
            Column(_round_title(stage, r, rounds),
                   [v for v in stage_views if v.series.round == r])
            for r in range(1, rounds + 1)
        ]  # fmt: skip
        sections.append((name, columns))
    finals = [
        v for v in views
        if v.series.stage == plan.GRAND_FINAL
        or (v.series.stage == plan.RESET and v.series.status != BracketSeries.Status.VOID)
    ]  # fmt: skip
    if finals:
        sections.append(("Grand final", [Column("Grand final", finals)]))
    return sections


def playoff_sources(*, user: Any) -> QuerySet[League]:
    """The leagues a playoff of `user`'s may follow: theirs (an admin's: any), not closed,
    not brackets themselves."""
    leagues = League.objects.exclude(status=League.Status.CLOSED).exclude(
        format__in=formats.bracket_keys()
    )
    if not getattr(user, "is_superuser", False):
        leagues = leagues.filter(organiser=user)
    return leagues.order_by("name")
