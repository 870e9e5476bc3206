"""A ladder at rest: once its order is known well enough, it stops scheduling.

A ladder tops itself up for ever (services/leagues.py, `league_schedule_round`); an open ladder
whose entrants never change would keep a worker busy replaying results it already knows. So a
running ladder *rests* when either holds for its scheduled entries (suspended ones aside):

* every entrant's OpenSkill σ is below LADDER_REST_SIGMA (the belief is narrow enough), or
* every pair of entrants has met at least LADDER_REST_PAIR_GAMES times in its finished matches
  (a solo ladder: every entrant has played that many games against the sister), counted from
  the head-to-head records.

Nothing is stored: the state is computed from the entries, so a new entrant (σ at its start,
no games with anyone) or a bot's new version (entered as a new entry) wakes the ladder at once,
and it rests again when the newcomer's place is known. `rest_reason` is pure (it reads no
model); `ladder_rest_state` reads the league. The ladder page and the API show the state and
its reason.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.template.defaultfilters import pluralize

from . import formats
from .models import HeadToHead, League, LeagueEntry
from .selectors import league_list
from .selectors.entries import scheduled_entries


def _times(n: int) -> str:
    return f"{n} time" if n == 1 else f"{n} times"


@dataclass(frozen=True)
class RestState:
    """Whether a ladder rests, and why (or why not) in one sentence for its page."""

    resting: bool
    reason: str


def rest_reason(
    sigmas: Mapping[Any, float],
    pair_games: Mapping[frozenset, int],
    *,
    seats: int,
    sigma_limit: float,
    games_limit: int,
    solo_games: Mapping[Any, int] | None = None,
) -> RestState:
    """The rest state of a ladder whose entrants have these σ and pair meeting counts.

    ``sigmas``: entrant key -> σ; ``pair_games``: frozenset of two keys -> games between them
    (missing pairs have met 0 times); ``solo_games``: entrant key -> games (solo ladders).
    """
    if len(sigmas) < max(seats, 1):
        return RestState(False, "waits for entrants")
    widest = max(sigmas.values())
    if widest < sigma_limit:
        return RestState(
            True,
            f"every entrant's rating is known to σ < {sigma_limit:g} (the widest is"
            f" {widest:.2f}); a new entrant or version wakes it",
        )
    if seats == 1:
        counts = [(solo_games or {}).get(k, 0) for k in sigmas]
        fewest = min(counts)
        if fewest >= games_limit:
            return RestState(
                True,
                f"every entrant has played at least {games_limit} game{pluralize(games_limit)}; "
                "a new entrant or"
                " version wakes it",
            )
        return RestState(
            False,
            f"plays until every σ < {sigma_limit:g} (widest {widest:.2f}) or every entrant"
            f" has {games_limit} game{pluralize(games_limit)} (fewest {fewest})",
        )
    fewest = min(
        pair_games.get(frozenset(pair), 0) for pair in itertools.combinations(sigmas, 2)
    )
    if fewest >= games_limit:
        return RestState(
            True,
            f"every pair of entrants has met at least {_times(games_limit)}; a new entrant or"
            " version wakes it",
        )
    return RestState(
        False,
        f"plays until every σ < {sigma_limit:g} (widest {widest:.2f}) or every pair has met"
        f" {_times(games_limit)} (fewest {fewest})",
    )


def ladder_rest_state(league: Any, entries: Sequence[Any] | None = None) -> RestState | None:
    """The rest state of a ladder league (None for other formats). ``entries``: its scheduled
    entries when the caller has them (selectors.entries.scheduled_entries)."""
    if not formats.get(league.format).continuous:
        return None
    if entries is None:
        entries = list(scheduled_entries(league))
    return _state(league, entries, None)


def ladder_rest_states(leagues: Sequence[Any]) -> dict[int, RestState]:
    """The rest state of every running ladder among `leagues` (a page of a list), by league
    id, in two queries whatever their number: their scheduled entries (the few fields read
    here), then the head-to-head records of those whose σ alone does not decide."""
    running, continuous = League.Status.RUNNING, set(formats.continuous_keys())
    ladders = {lg.pk: lg for lg in leagues
               if lg.format in continuous and lg.status == running}  # fmt: skip
    if not ladders:
        return {}
    entries: dict[int, list[Any]] = {pk: [] for pk in ladders}
    scheduled = (
        LeagueEntry.objects.filter(league_id__in=ladders, bot_version__suspended_at__isnull=True,
                                   withdrawn_at__isnull=True)
        .only("pk", "league_id", "bot_version_id", "openskill_sigma", "games")
        .order_by("league_id", "pk")
    )  # fmt: skip
    for entry in scheduled:
        entries[entry.league_id].append(entry)
    limit = settings.LADDER_REST_SIGMA
    need_pairs = [pk for pk, lg in ladders.items() if _needs_pairs(lg, entries[pk], limit)]
    records: dict[int, list[tuple[int, int, int]]] = {pk: [] for pk in need_pairs}
    if need_pairs:
        rows = HeadToHead.objects.filter(league_id__in=need_pairs).values_list(
            "league_id", "subject_id", "opponent_id", "games"
        )
        for league_id, subject, opponent, games in rows:
            records[league_id].append((subject, opponent, games))
    return {pk: _state(lg, entries[pk], records.get(pk, [])) for pk, lg in ladders.items()}


def _needs_pairs(league: Any, entries: Sequence[Any], sigma_limit: float) -> bool:
    """Whether the pair meeting counts can change `rest_reason`'s answer: not when there are
    too few entrants, when every σ is already narrow enough, or in a solo ladder."""
    if league.seats <= 1 or len(entries) < max(league.seats, 2):
        return False
    return max(e.openskill_sigma for e in entries) >= sigma_limit


def _state(
    league: Any, entries: Sequence[Any], records: Sequence[tuple[int, int, int]] | None
) -> RestState:
    """`rest_reason` of a ladder's scheduled `entries`; `records`: (subject, opponent, games)
    of its head-to-head rows when the caller read them (any of the league's), else read
    here when they matter."""
    by_version = {e.bot_version_id: e.pk for e in entries}
    sigmas = {e.pk: e.openskill_sigma for e in entries}
    pair_games: dict[frozenset, int] = {}
    if _needs_pairs(league, entries, settings.LADDER_REST_SIGMA):
        if records is None:
            records = HeadToHead.objects.filter(
                league=league, subject_id__in=by_version, opponent_id__in=by_version
            ).values_list("subject_id", "opponent_id", "games")
        for subject, opponent, games in records:
            if subject in by_version and opponent in by_version:
                pair_games[frozenset((by_version[subject], by_version[opponent]))] = games
    return rest_reason(
        sigmas, pair_games, seats=league.seats,
        sigma_limit=settings.LADDER_REST_SIGMA, games_limit=settings.LADDER_REST_PAIR_GAMES,
        solo_games={e.pk: e.games for e in entries},
    )  # fmt: skip


def open_ladders(*, user: Any) -> list[Any]:
    """The running ladders `user` may see, which take entries at once, by mode then name."""
    return list(
        league_list(user=user)
        .filter(format__in=formats.continuous_keys(), status=League.Status.RUNNING)
        .order_by("mode", "name")
    )
