"""Divisions of a ladder league, kept on its entries (`LeagueEntry.division`): the scheduler
asks here for the next tables when the league has a `division_size`, and every
`division_every` rounds the divisions are refreshed (new entrants placed after their
placement matches, promotion and relegation). The rules are competition/division_plan.py's."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from competition import division_plan as divisions
from competition import ladder_scheduling as scheduling
from competition import skill

from ..models import League, LeagueEntry


def _rating(entry: LeagueEntry) -> float:
    return skill.conservative(entry.openskill_mu, entry.openskill_sigma)


def divisions_refresh(league: League, entries: Sequence[LeagueEntry], rnd: int) -> None:
    """Place the entrants whose placement matches are played, split again divisions that no
    longer fit the ladder's size, and every `division_every` rounds promote and relegate
    (competition/division_plan.py: `refresh`). A ladder without divisions yet is split once enough
    have played."""
    placed = {e.pk: e.division for e in entries if e.division is not None}
    ratings = {e.pk: _rating(e) for e in entries}
    ready = [e.pk for e in entries if e.games >= divisions.DEFAULT_PLACEMENT]
    promote_round = bool(league.division_every) and rnd % league.division_every == 0
    after = divisions.refresh(placed, ratings, ready, league.division_size,
                              entrants=len(entries), promote_round=promote_round)  # fmt: skip
    changed = {k: d for k, d in after.items() if placed.get(k) != d}
    if changed:
        for e in entries:
            if e.pk in changed:
                e.division = changed[e.pk]
        LeagueEntry.objects.bulk_update([e for e in entries if e.pk in changed], ["division"])


def division_tables(
    league: League,
    entries: Sequence[LeagueEntry],
    candidates: Sequence[scheduling.Candidate],
    count: int,
    rng: random.Random,
    recent_meetings: Mapping[frozenset, int],
) -> list[tuple[Any, ...]]:
    """The next tables, mostly inside one division (placement matches across them)."""
    division = {e.pk: e.division for e in entries if e.division is not None}
    return divisions.division_tables(candidates, division, league.seats, count, rng,
                                     recent_meetings=recent_meetings)  # fmt: skip


def league_divisions(*, league: League) -> list[tuple[int | None, list[LeagueEntry]]]:
    """(division, its entrants best first) from the top; unplaced entrants last (None)."""
    entries = list(league.entries.select_related("bot_version__bot").filter(
        withdrawn_at__isnull=True))  # fmt: skip
    groups: dict[int | None, list[LeagueEntry]] = {}
    for e in sorted(entries, key=lambda e: -_rating(e)):
        groups.setdefault(e.division, []).append(e)
    return sorted(groups.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))
