"""What a spectator is shown besides the match itself: where a queued match stands in the
queue, and which running match most deserves watching now (the home page follows it)."""

from __future__ import annotations

from typing import Any

from .. import selectors
from ..models import LeagueEntry, Match, SeatMarks
from ..private_output import may_see_private
from .queue_place import matches_ahead

# Running matches considered for the home page's featured match (the newest first).
FEATURED_CANDIDATES = 20


def queue_place(match: Match) -> int | None:
    """1 for the next match a worker takes, 2 for the one after it…; None unless queued.
    Workers take the highest lane first, each lane in the order its matches were queued
    (queue_place.matches_ahead)."""
    ahead = matches_ahead(match)
    return None if ahead is None else ahead + 1


def featured_match(*, user: Any) -> Match | None:
    """The running match most worth watching: the closest ratings among its seats (the spread
    of their league ratings, smallest first), then the most seats, then the newest. A match
    outside a league (a challenge) counts as the widest spread. None when nothing is running."""
    running = list(
        selectors.match_list(user=user).filter(status=Match.Status.RUNNING)
        .exclude(kind=Match.Kind.VALIDATION).order_by("-started_at", "-id")[:FEATURED_CANDIDATES]
    )  # fmt: skip
    if not running:
        return None
    ratings: dict[tuple[int, int], float] = {}
    leagues = {m.league_id for m in running if m.league_id}
    for entry in LeagueEntry.objects.filter(league_id__in=leagues).values(
            "league_id", "bot_version_id", "rating"):
        ratings[(entry["league_id"], entry["bot_version_id"])] = entry["rating"]

    def spread(match: Match) -> float:
        seats = [ratings.get((match.league_id, s.bot_version_id)) for s in match.seats.all()]
        known = [r for r in seats if r is not None]
        if not match.league_id or len(known) < 2:
            return float("inf")
        return max(known) - min(known)

    order = {m.pk: i for i, m in enumerate(running)}
    return min(running, key=lambda m: (spread(m), -len(m.seats.all()), order[m.pk]))


def visible_marks(*, match: Match, user: Any) -> dict[int, list[list[Any]]]:
    """The bots' marks of a match that ``user`` may see: a seat's own owner sees its marks,
    everyone does in a league that makes them public (``League.marks_public``), staff too."""
    public = bool(match.league_id and match.league.marks_public)
    out: dict[int, list[list[Any]]] = {}
    rows = SeatMarks.objects.filter(seat__match=match).select_related("seat__bot_version__bot")
    for row in rows:
        if public or may_see_private(user, row.seat.bot_version.bot.owner_id):
            out[row.seat.seat] = row.steps
    return out
