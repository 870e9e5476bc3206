"""Reads the website's pages need beyond `tournament.selectors`: ladder rows with placement
counts, head-to-head tables, fault rates, a league's progress, an author's dashboard and the
home page's summaries. Each function costs a fixed number of queries; the aggregation over
match seats happens in Python on one query's rows. Head-to-head tables are
`tournament.selectors.league_head_to_head` / `bot_head_to_head`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, CharField, Count, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.functions import Cast, Coalesce, Concat

from competition import skill

from .. import formats, selectors
from ..models import Bot, BotVersion, League, LeagueEntry, Match, MatchSeat

TOP_PER_LEAGUE = 3
HOME_MATCHES = 8
RECENT_FAULTS = 10


# --- ladder ---------------------------------------------------------------------------------


@dataclass
class LadderRow:
    """One ladder line: the entry plus what a multi-seat ladder shows instead of W/D/L."""

    entry: LeagueEntry
    rank: int
    placements: list[int]  # placements[i] = times finished (i+1)th
    provisional: str | None  # why the rating has not settled (competition/skill.py), or None

    @property
    def mean_rank(self) -> float | None:
        return self.entry.mean_rank

    @property
    def interval(self) -> tuple[float, float]:
        """OpenSkill mu - 2 sigma .. mu + 2 sigma."""
        mu, sigma = self.entry.openskill_mu, self.entry.openskill_sigma
        return mu - 2 * sigma, mu + 2 * sigma


def league_ladder_rows(*, league: League) -> list[LadderRow]:
    """The ladder in the league's order (Elo or conservative OpenSkill) with placement counts
    and mean rank per entrant."""
    entries = selectors.league_ladder(league=league)
    rows = []
    for entry in entries:
        # counted with each rated result (services.ratings), not from the league's seats
        counts = list(entry.placements or [])
        placements = (counts + [0] * league.seats)[: league.seats]
        provisional = skill.provisional_reason(entry.openskill_sigma, entry.games)
        rows.append(LadderRow(entry, entry.rank, placements, provisional))
    return rows


@dataclass(frozen=True)
class ChartLine:
    """One entrant's rating history as the charts draw it: the points its `LeagueEntry`
    keeps (competition/rating_history.py), `[league match number, games, rating]` each."""

    league_id: int
    bot_id: int
    bot_name: str
    version: int
    points: list[list[float]]

    @property
    def label(self) -> str:
        return f"{self.bot_name} v{self.version}"


def _chart_lines(entries: QuerySet[LeagueEntry]) -> list[ChartLine]:
    """Entrants with at least one rated match, one query (a few hundred points each at most,
    whatever the length of the history)."""
    rows = entries.values_list("league_id", "bot_version__bot_id", "bot_version__bot__name",
                               "bot_version__number", "chart")  # fmt: skip
    lines = [ChartLine(lg, b, name, n, (chart or {}).get("points") or [])
             for lg, b, name, n, chart in rows]  # fmt: skip
    return [line for line in lines if line.points]


def league_chart_lines(*, league: League) -> list[ChartLine]:
    """The league's rating history for its chart."""
    return _chart_lines(LeagueEntry.objects.filter(league=league).order_by("pk"))


# --- bots -----------------------------------------------------------------------------------


@dataclass
class FaultRate:
    seats: int
    faults: int

    @property
    def percent(self) -> float | None:
        return 100.0 * self.faults / self.seats if self.seats else None


def bot_fault_rate(*, bot: Bot) -> FaultRate:
    """Faulted seats over seats played in finished rated (league) matches: a failed
    validation of a broken version, a challenge or a paired run is not counted. From the
    totals each version keeps (no query when the versions are prefetched, as
    `selectors.bot_get` does)."""
    versions = bot.versions.all()
    return FaultRate(sum(v.seats_finished for v in versions),
                     sum(v.seats_faulted for v in versions))  # fmt: skip


def bot_chart_lines(*, bot: Bot, user: Any = None) -> list[ChartLine]:
    """The rating history of the bot's versions in visible leagues, for per-league charts."""
    leagues = selectors.league_list(user=user).values("pk")
    entries = LeagueEntry.objects.filter(bot_version__bot=bot, league__in=leagues)
    return _chart_lines(entries.order_by("league_id", "bot_version__number"))


def bot_versions(*, bot: Bot) -> QuerySet[BotVersion]:
    return bot.versions.order_by("-number")


def seat_faults(*, user: Any, limit: int = RECENT_FAULTS) -> QuerySet[MatchSeat]:
    """The latest faulted seats of a user's bots (the dashboard's "recent faults")."""
    return (
        MatchSeat.objects.filter(bot_version__bot__owner=user)
        .exclude(fault="")
        .select_related("bot_version__bot", "match")
        .order_by("-match__created_at", "-match_id")[:limit]
    )


def author_bots(*, user: Any) -> list[Bot]:
    """A user's bots with their versions (newest first) and league entries."""
    bots = list(
        Bot.objects.filter(owner=user).prefetch_related("versions").order_by("retired", "name")
    )
    entries = (
        LeagueEntry.objects.filter(bot_version__bot__owner=user)
        .select_related("league", "bot_version")
        .order_by("league__name", "bot_version__number")
    )
    by_bot: dict[int, list[LeagueEntry]] = defaultdict(list)
    for entry in entries:
        by_bot[entry.bot_version.bot_id].append(entry)
    for bot in bots:
        versions = sorted(bot.versions.all(), key=lambda v: -v.number)
        bot.latest = versions[0] if versions else None
        bot.suspended = [v for v in versions if v.suspended_at is not None]
        bot.entry_list = by_bot.get(bot.pk, [])
    return bots


def ready_versions(*, bot: Bot) -> list[BotVersion]:
    """The versions a challenge or a league entry may seat: ready, and not suspended for
    faulting (services/bots.py), newest first."""
    return list(
        bot.versions.filter(status=BotVersion.Status.READY, suspended_at__isnull=True)
        .order_by("-number")
    )


# --- leagues --------------------------------------------------------------------------------


def league_match_counts(*, league: League) -> dict[str, int]:
    """Matches of the league by status (every status present, zero when none): the ended ones
    from the counts its row keeps, the open ones (a few) counted through its status index."""
    open_statuses = [Match.Status.QUEUED, Match.Status.RUNNING]
    counts = dict(
        league.matches.filter(status__in=open_statuses).order_by().values_list("status")
        .annotate(n=Count("pk")).values_list("status", "n")
    )  # fmt: skip
    counts[Match.Status.FINISHED] = league.matches_finished
    counts[Match.Status.FAILED] = league.matches_failed
    counts[Match.Status.CANCELLED] = league.matches_cancelled
    return {status: counts.get(status, 0) for status in Match.Status.values}


def league_matches(
    *, matches: QuerySet[Match], bot_id: int | None = None, status: str | None = None,
    round_number: int | None = None,
) -> QuerySet[Match]:
    """A league's visible `matches` filtered by bot, status and round when given (to page
    newest first, `tournament.paging`)."""
    if bot_id is not None:
        matches = matches.filter(selectors.seated(bot_id=bot_id))
    if status:
        matches = matches.filter(status=status)
    if round_number is not None:
        matches = matches.filter(round=round_number)
    return matches


def enterable_leagues(*, user: Any) -> QuerySet[League]:
    """Leagues the user sees that still take entries (drafts; ladders while running), less the
    draft playoffs that the league they follow fills when it closes (`Format.filled_by`)."""
    return selectors.league_list(user=user).filter(
        Q(status=League.Status.DRAFT)
        | Q(format__in=formats.continuous_keys(),
            status__in=[League.Status.RUNNING, League.Status.PAUSED])
    ).exclude(
        status=League.Status.DRAFT, bracket__playoff_of__isnull=False,
        bracket__playoff_of__status__in=[League.Status.DRAFT, League.Status.RUNNING,
                                         League.Status.PAUSED],
    ).order_by("name")  # fmt: skip


# --- the leagues list -----------------------------------------------------------------------


def league_rows(*, user: Any) -> QuerySet[League]:
    """The leagues the user sees, newest first, each with ``entrants`` (how many) and
    ``leader`` ("name vN" of the entrant on top of its ladder, by the league's own order, once
    it has played; else None). One query a page, however many leagues and entrants."""
    played = (
        LeagueEntry.objects.filter(league=OuterRef("pk"), games__gt=0)
        .annotate(conservative=selectors.CONSERVATIVE,
                  label=Concat("bot_version__bot__name", Value(" v"),
                               Cast("bot_version__number", CharField())))
    )  # fmt: skip

    def top(order: str) -> Subquery:
        return Subquery(played.order_by(*selectors.LADDER_ORDERS[order]).values("label")[:1])

    conservative = League.LadderOrder.CONSERVATIVE
    # a subquery, not a join: no GROUP BY, so the pager's count is a plain count of leagues
    entrants = (
        LeagueEntry.objects.filter(league=OuterRef("pk")).order_by().values("league")
        .annotate(n=Count("pk")).values("n")
    )  # fmt: skip
    return (
        selectors.league_list(user=user)
        .annotate(
            entrants=Coalesce(Subquery(entrants), 0),
            leader=Case(When(ladder_order=conservative, then=top(conservative)),
                        default=top(League.LadderOrder.ELO)),
        )
        .order_by("-created_at", "id")
    )  # fmt: skip


# --- home -----------------------------------------------------------------------------------


@dataclass
class LeagueSummary:
    league: League
    top: list[LeagueEntry]


def home_leagues(*, user: Any) -> list[LeagueSummary]:
    """Running (then paused, then closed) public leagues with their top entrants, by each
    league's own ladder order (``conservative`` annotated)."""
    leagues = list(
        selectors.league_list(user=None).exclude(status=League.Status.DRAFT)
        .order_by("status", "-created_at")[:12]
    )  # fmt: skip
    out = []
    for league in leagues:
        top = list(
            LeagueEntry.objects.filter(league=league)
            .select_related("bot_version__bot")
            .defer("chart")
            .annotate(conservative=selectors.CONSERVATIVE)
            .order_by(*selectors.LADDER_ORDERS[league.ladder_order])[:TOP_PER_LEAGUE]
        )
        out.append(LeagueSummary(league, top))
    order = {League.Status.RUNNING: 0, League.Status.PAUSED: 1, League.Status.CLOSED: 2}
    return sorted(out, key=lambda s: order.get(s.league.status, 3))


def matches_playing(*, user: Any, limit: int = HOME_MATCHES) -> list[Match]:
    return list(
        selectors.match_list(user=user).filter(status=Match.Status.RUNNING)
        .exclude(kind=Match.Kind.VALIDATION).order_by("-started_at", "-id")[:limit]
    )  # fmt: skip


def matches_finished(*, user: Any, limit: int = HOME_MATCHES) -> list[Match]:
    return list(
        selectors.match_list(user=user).filter(status=Match.Status.FINISHED)
        .exclude(kind=Match.Kind.VALIDATION).order_by("-finished_at", "-id")[:limit]
    )  # fmt: skip


def validation_match(*, version: BotVersion) -> Match | None:
    """The latest validation match that seated this version (its replay shows what happened)."""
    return (
        Match.objects.filter(kind=Match.Kind.VALIDATION, seats__bot_version=version)
        .order_by("-created_at", "-id").first()
    )  # fmt: skip
