"""Applies a finished league match to its entrants' ratings and standings."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction

from .. import ratings as elo
from ..models import LeagueEntry, Match, RatingChange


def elo_k() -> float:
    return float(getattr(settings, "ELO_K", elo.DEFAULT_K))


def match_ranks(match: Match, seats: list[Any]) -> list[int]:
    """Ranks of the seats; a seat without a rank (it crashed out) counts as last."""
    worst = max((s.rank for s in seats if s.rank is not None), default=0) + 1
    return [s.rank if s.rank is not None else worst for s in seats]


def solo_margin(match: Match) -> float:
    result = match.result or {}
    if "margin" in result:
        return float(result["margin"])
    sister = result.get("sister")
    scores = result.get("scores") or [0]
    sister_score = sister.get("score", sister.get("total")) if isinstance(sister, dict) else sister
    return float(scores[0]) - float(sister_score or 0)


def rating_apply_match(*, match: Match) -> list[RatingChange]:
    """Update every entrant of a finished league match once (RatingChange is unique per
    match and bot version, and an existing change means the match was already applied)."""
    with transaction.atomic():
        if RatingChange.objects.filter(match=match).exists():
            return []
        seats = list(match.seats.order_by("seat"))
        version_ids = [s.bot_version_id for s in seats]
        entries = {
            e.bot_version_id: e
            for e in LeagueEntry.objects.select_for_update()
            .filter(league_id=match.league_id, bot_version_id__in=version_ids)
            .order_by("pk")
        }
        ordered = [entries[v] for v in version_ids]
        ranks = match_ranks(match, seats)
        before = [e.rating for e in ordered]
        solo = match.mode == "solo"
        margin = solo_margin(match) if solo else None
        after = elo.match_update(
            before, ranks, k=elo_k(),
            solo_difficulty=match.options.get("difficulty") if solo else None, margin=margin,
        )  # fmt: skip
        changes = []
        top = min(ranks)
        shared_top = ranks.count(top) > 1
        for entry, seat, rank, old, new in zip(ordered, seats, ranks, before, after, strict=True):
            entry.rating = new
            entry.last_change = new - old
            entry.games += 1
            entry.score_sum += seat.score or 0.0
            if solo:
                entry.margin_sum += margin
                outcome = "win" if margin > 0 else "draw" if margin == 0 else "loss"
            elif rank == top:
                outcome = "draw" if shared_top else "win"
            else:
                outcome = "loss"
            if outcome == "win":
                entry.wins += 1
            elif outcome == "draw":
                entry.draws += 1
            else:
                entry.losses += 1
            changes.append(
                RatingChange(
                    league_id=match.league_id,
                    entry=entry,
                    match=match,
                    bot_version_id=seat.bot_version_id,
                    before=old,
                    after=new,
                )  # fmt: skip
            )
        LeagueEntry.objects.bulk_update(
            ordered,
            [
                "rating",
                "last_change",
                "games",
                "score_sum",
                "margin_sum",
                "wins",
                "draws",
                "losses",
            ],
        )
        return RatingChange.objects.bulk_create(changes)
