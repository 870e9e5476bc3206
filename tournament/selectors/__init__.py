"""Reads of tournament data for the API, the replay viewer and the spectator pages, with the
joins spelled out (select_related / prefetch_related) so lists cost a fixed number of queries."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet, Sum

from competition import head_to_head_tally as h2h
from competition import skill

from ..match_summaries import MatchSummary, summaries_of
from ..models import (
    Bot,
    BotVersion,
    HeadToHead,
    League,
    LeagueEntry,
    LeagueInvitation,
    Match,
    MatchSeat,
    PairedComparison,
    RatingChange,
)
from ..paging import NEWEST_FIRST
from ..private_output import may_see_private
from ..seed_privacy import hidden_matches_q

RECENT_MATCHES = 10


def _visible_leagues_q(user: Any, prefix: str = "") -> Q:
    """Public leagues for everyone; a private one for its organiser, the users it invited, the
    owners of its entrants and admins."""
    if user is not None and user.is_authenticated:
        if user.is_superuser:
            return Q()
        entered = LeagueEntry.objects.filter(bot_version__bot__owner=user).values("league_id")
        invited = LeagueInvitation.objects.filter(user=user).values("league_id")
        return (
            Q(**{f"{prefix}public": True})
            | Q(**{f"{prefix}organiser": user})
            | Q(**{f"{prefix}pk__in": entered})
            | Q(**{f"{prefix}pk__in": invited})
        )
    return Q(**{f"{prefix}public": True})


def bot_list() -> QuerySet[Bot]:
    return Bot.objects.select_related("owner").prefetch_related(
        Prefetch("versions", queryset=BotVersion.objects.order_by("number"))
    )


def bot_get(*, bot_id: int) -> Bot | None:
    return bot_list().filter(pk=bot_id).first()


def bot_version_get(*, version_id: int, user: Any = None) -> BotVersion | None:
    """A version by id; a draft snapshot only for its owner and staff (for anyone else it
    does not exist, like the draft it was taken from)."""
    version = BotVersion.with_drafts.select_related("bot__owner").filter(pk=version_id).first()
    if version is not None and version.is_draft and not may_see_private(user, version.bot.owner_id):
        return None
    return version


def bot_ratings(*, bot: Bot, user: Any = None) -> QuerySet[LeagueEntry]:
    return (
        LeagueEntry.objects.filter(bot_version__bot=bot)
        .filter(_visible_leagues_q(user, "league__"))
        .select_related("league", "bot_version")
        .defer("chart")
        .order_by("league_id", "bot_version__number")
    )


def visible_matches(*, user: Any = None, test_games: bool = False) -> QuerySet[Match]:
    """Matches of visible leagues plus challenges and validation matches: the rows of every
    match list, to page (`tournament.paging`) and summarise (`match_summaries`).

    Test games are private (services/test_games.py): no list shows them, and ``test_games``
    (a single match's page, API, replay, frames and pictures) adds those the user may see,
    their own and, for staff, everyone's."""
    visible = Q(league__isnull=True) | Q(league__in=league_list(user=user).values("pk"))
    matches = Match.objects.filter(visible)
    if not test_games:
        matches = matches.exclude(kind=Match.Kind.TEST)
    elif not _sees_every_test_game(user):
        others = Q(kind=Match.Kind.TEST)
        if user is not None and user.is_authenticated:
            others &= ~Q(requested_by=user)
        matches = matches.exclude(others)
    hidden = hidden_matches_q(user)  # hidden seeds of solo leagues until they close
    if hidden is not None:
        return matches.exclude(hidden)
    return matches


def _sees_every_test_game(user: Any) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_staff)


def test_game_list(*, user: Any) -> QuerySet[Match]:
    """The test games a user asked for (their own list: `arena test`, the API)."""
    return visible_matches(user=user, test_games=True).filter(
        kind=Match.Kind.TEST, requested_by=user
    )


def match_list(*, user: Any = None, test_games: bool = False) -> QuerySet[Match]:
    """`visible_matches` as models with their league and seats (a match's page, the API's
    match detail)."""
    return (
        visible_matches(user=user, test_games=test_games)
        .select_related("league")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=MatchSeat.objects.select_related("bot_version__bot").order_by("seat"),
            )
        )
    )


def match_replay_fields(*, match_id: int, user: Any = None) -> Match | None:
    """A visible match with only what its replay download reads (no seats, no result); a
    test game for its author and staff only."""
    return (
        visible_matches(user=user, test_games=True).only("id", "replay_name", "replay_sha256")
        .filter(pk=match_id).first()
    )  # fmt: skip


def match_get(*, match_id: int, user: Any = None) -> Match | None:
    """One match its reader may see: a test game for its author and staff only."""
    return match_list(user=user, test_games=True).filter(pk=match_id).first()


def challenge_list(*, user: Any) -> QuerySet[Match]:
    """The challenge matches a user requested (to page and summarise)."""
    return visible_matches(user=user).filter(kind=Match.Kind.CHALLENGE, requested_by=user)


def challenge_versions() -> QuerySet[BotVersion]:
    """What a challenge may seat: ready versions of bots that are not retired, built-ins
    included, by bot name and newest version first."""
    return (
        BotVersion.objects.filter(status=BotVersion.Status.READY, bot__retired=False)
        .select_related("bot__owner")
        .order_by("bot__name", "-number")
    )


def seated(*, bot_id: int | None = None, bot_version_id: int | None = None) -> Exists:
    """Matches where the bot (or the bot version) has a seat: an EXISTS over the seats'
    (bot_version, match) index, so the list needs no join and no DISTINCT."""
    seats = MatchSeat.objects.filter(match=OuterRef("pk"))
    if bot_id is not None:
        seats = seats.filter(bot_version__bot_id=bot_id)
    if bot_version_id is not None:
        seats = seats.filter(bot_version_id=bot_version_id)
    return Exists(seats)


def bot_recent_matches(
    *, bot: Bot, user: Any = None, limit: int = RECENT_MATCHES
) -> list[MatchSummary]:
    recent = visible_matches(user=user).filter(seated(bot_id=bot.pk)).order_by(*NEWEST_FIRST)
    return summaries_of(recent[:limit])


def league_list(*, user: Any = None) -> QuerySet[League]:
    return League.objects.filter(_visible_leagues_q(user)).select_related("organiser")


def league_get(*, league_id: int, user: Any = None) -> League | None:
    return league_list(user=user).filter(pk=league_id).first()


def league_queued_count(*, league: League) -> int:
    """Matches of the league still waiting for a worker: what closing it would cancel."""
    return league.matches.filter(status=Match.Status.QUEUED).count()


# The conservative rating μ − 3σ of a LeagueEntry row, in SQL (the same formula as skill.py's)
CONSERVATIVE = skill.conservative(F("openskill_mu"), F("openskill_sigma"))
# Each needs ``conservative=CONSERVATIVE`` annotated. Past the two ratings and games, entries
# that have played as many games are compared by their totals, which then order as their means
# do: the margin over the sister (solo, where the ratings only see wins and losses) and the score.
_TIES = ("-games", "-margin_sum", "-score_sum", "pk")
LADDER_ORDERS = {
    League.LadderOrder.ELO: ("-rating", "-conservative", *_TIES),
    League.LadderOrder.CONSERVATIVE: ("-conservative", "-rating", *_TIES),
}


def league_ladder(*, league: League, order: str | None = None) -> list[LeagueEntry]:
    """Entrants ranked by `order` (Elo or the conservative OpenSkill rating μ − 3σ; the league's
    own choice when None), then by the other one, games, mean margin over the sister (solo),
    mean score and entry order, with rank numbers set on each and `conservative` annotated."""
    keys = LADDER_ORDERS[order or league.ladder_order]
    entries = list(
        LeagueEntry.objects.filter(league=league)
        .select_related("bot_version__bot")
        .defer("chart")  # the charts read it on their own (site_selectors)
        .annotate(conservative=CONSERVATIVE)
        .order_by(*keys)
    )
    for i, entry in enumerate(entries, start=1):
        entry.rank = i
    return entries


def league_rating_history(*, league: League) -> QuerySet[RatingChange]:
    # the match itself is not read (its id is on the row): joining it would load every result
    return RatingChange.objects.filter(league=league).select_related("bot_version__bot")


def league_invitations(*, league: League, user: Any = None) -> QuerySet[LeagueInvitation]:
    """Every invitation for the league's organiser and admins; one's own for anyone else."""
    invitations = league.invitations.select_related("user", "invited_by").order_by("pk")
    if user is not None and (user.is_superuser or league.organiser_id == user.pk):
        return invitations
    if user is not None and user.is_authenticated:
        return invitations.filter(user=user)
    return invitations.none()


# --- head-to-head ---------------------------------------------------------------------------


COUNTED = ("games", "wins", "draws", "losses", "score_diff_sum")


def _record(subject: Any, opponent: Any, counts: dict[str, Any]) -> h2h.HeadToHeadRecord:
    return h2h.HeadToHeadRecord(subject, opponent, **{name: counts[name] for name in COUNTED})


def league_head_to_head(
    *, league: League, entries: list[LeagueEntry] | None = None
) -> list[tuple[LeagueEntry, list[h2h.HeadToHeadRecord | None]]]:
    """Each entrant in ladder order with its record against every entrant (same order; None
    against itself), from the league's finished matches (the `HeadToHead` rows counted with
    each result). Every record has `opponent_entry`. `entries`: the league's ladder, when
    the caller has read it already."""
    entries = league_ladder(league=league) if entries is None else entries
    rows = HeadToHead.objects.filter(league=league).values("subject_id", "opponent_id", *COUNTED)
    records = {(r["subject_id"], r["opponent_id"]): _record(r["subject_id"], r["opponent_id"], r)
               for r in rows}  # fmt: skip
    keys = [e.bot_version_id for e in entries]
    table = h2h.matrix(keys, records)
    for cells in table:
        for entry, record in zip(entries, cells, strict=True):
            if record is not None:
                record.opponent_entry = entry
    return list(zip(entries, table, strict=True))


def bot_head_to_head(
    *, bot: Bot, user: Any = None, league: League | None = None
) -> list[h2h.HeadToHeadRecord]:
    """The bot's record against every other bot it met in finished league and challenge matches
    the user may see (or only in `league`), most games first: its versions' `HeadToHead` rows
    summed by opponent bot. Each record has `opponent_bot`."""
    rows = HeadToHead.objects.filter(subject__bot=bot).exclude(opponent__bot=bot)
    if league is not None:
        rows = rows.filter(league=league)
    else:
        visible = league_list(user=user).values("pk")
        rows = rows.filter(Q(league__isnull=True) | Q(league__in=visible))
    sums = (
        rows.values("opponent__bot_id")
        .annotate(games=Sum("games"), wins=Sum("wins"), draws=Sum("draws"),
                  losses=Sum("losses"), score_diff_sum=Sum("score_diff_sum"))
        .order_by()
    )  # fmt: skip
    records = [_record(bot.pk, row["opponent__bot_id"], row) for row in sums]
    opponents = Bot.objects.in_bulk([r.opponent for r in records])
    for record in records:
        record.opponent_bot = opponents[record.opponent]
    return sorted(records, key=lambda r: (-r.games, r.opponent_bot.name.lower()))


# --- paired comparisons ---------------------------------------------------------------------


def paired_list(*, bot_id: int | None = None) -> QuerySet[PairedComparison]:
    """Comparisons, newest first, with their progress (`games_total`, `games_done`); with
    `bot_id`, those where the bot is A or B (the bot page's list)."""
    decided = [Match.Status.FINISHED, Match.Status.FAILED, Match.Status.CANCELLED]
    comparisons = PairedComparison.objects.select_related(
        "version_a__bot", "version_b__bot", "requested_by"
    ).annotate(
        games_total=Count("games"),
        games_done=Count("games", filter=Q(games__match__status__in=decided)),
    )
    if bot_id is not None:
        comparisons = comparisons.filter(Q(version_a__bot_id=bot_id) | Q(version_b__bot_id=bot_id))
    return comparisons.order_by("-created_at", "-id")


def paired_of_bot(*, bot_id: int, limit: int) -> list[PairedComparison]:
    """The bot's latest comparisons (as A or B) with their progress. Their ids first, from
    the comparisons alone: most bots have none, and the list with its progress counts joins
    six tables."""
    ids = list(
        PairedComparison.objects.filter(Q(version_a__bot_id=bot_id) | Q(version_b__bot_id=bot_id))
        .order_by("-created_at", "-id").values_list("pk", flat=True)[:limit]
    )  # fmt: skip
    return list(paired_list().filter(pk__in=ids)) if ids else []


def paired_get(*, comparison_id: int) -> PairedComparison | None:
    return paired_list().filter(pk=comparison_id).first()
