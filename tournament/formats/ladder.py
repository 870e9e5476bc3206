"""Ladder: runs on without an end, taking entries while it runs. It keeps about one open
match per entrant, its tables chosen by expected information (`competition/ladder_scheduling.py`),
mostly inside divisions when it has them (`services/divisions.py`), and rests once its order is
known (`tournament/ladder_rest.py`)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from competition import ladder_scheduling as scheduling
from competition.seeds import seed_from

from ..ladder_rest import ladder_rest_state
from ..models import League, LeagueEntry, Match
from ..selectors.entries import scheduled_entries
from ..services import divisions as division_services
from .base import OPEN, Format, create_league_match, open_matches

LADDER_QUEUE_PER_ENTRANT = 1  # a ladder keeps about this many open matches per entrant


def ladder_tables(
    league: League, entries: Sequence[LeagueEntry], count: int, rng: random.Random
) -> list[tuple[LeagueEntry, ...]]:
    """The next tables of a ladder, chosen by expected information
    (`competition/ladder_scheduling.py`):
    the least certain entrants first (new ones at once), unpredictable tables, and no pair
    meeting more than the cap within the recent window of the league's matches."""
    by_version = {e.bot_version_id: e for e in entries}
    recent = (
        league.matches.exclude(status=Match.Status.CANCELLED)
        .order_by("-created_at", "-id")
        .prefetch_related("seats")[: scheduling.pair_window(len(entries))]
    )
    recent_tables = []
    busy: set[int] = set()
    for match in recent:
        versions = [s.bot_version_id for s in match.seats.all()]
        recent_tables.append([by_version[v].pk for v in versions if v in by_version])
        if match.status in OPEN:
            busy.update(by_version[v].pk for v in versions if v in by_version)
    candidates = [
        scheduling.Candidate(e.pk, e.openskill_mu, e.openskill_sigma, e.games, e.pk in busy)
        for e in entries
    ]
    by_pk = {e.pk: e for e in entries}
    if league.division_size:  # mostly inside a division (services/divisions.py)
        tables = division_services.division_tables(
            league, entries, candidates, count, rng, scheduling.meetings(recent_tables)
        )
        return [tuple(by_pk[k] for k in table) for table in tables]
    tables = scheduling.information_tables(
        candidates, league.seats, count, rng, recent_meetings=scheduling.meetings(recent_tables)
    )
    return [tuple(by_pk[k] for k in table) for table in tables]


def _newcomer_first(order: Sequence[LeagueEntry], opened: tuple | None) -> bool:
    """Does the table seat the first match of an entrant that joined the ladder after its
    first match (`opened`)? Such a match goes ahead of the backlog; the entrants of the start
    all begin together and take their turn."""
    return opened is not None and any(e.games == 0 and e.created_at > opened[0] for e in order)


class Ladder(Format):
    key = League.Format.LADDER
    label = "Ladder"
    description = "Ladder — runs continuously; entries welcome while it runs"
    menu_order = 30
    continuous = True
    league_fields = frozenset({"division_size", "division_every"})

    def schedule(self, league: League) -> list[Match]:
        """Top the ladder up to about one open match per entrant, unless it rests. A table
        seating an entrant's first rated match goes ahead of the backlog, so a new version
        plays within minutes even when every bot submits at once before a deadline
        (bench/season.py)."""
        entries = list(scheduled_entries(league).order_by("pk"))
        open_count = open_matches(league).count()
        wanted = max(1, len(entries) * LADDER_QUEUE_PER_ENTRANT // league.seats)
        if open_count >= wanted or len(entries) < self.least_entrants(league):
            return []
        if ladder_rest_state(league, entries).resting:
            return []  # its order is known: it waits for a new entrant or version
        league.current_round += 1
        rnd = league.current_round
        rng = random.Random(seed_from(league.base_seed, "ladder", rnd))
        if league.division_size:
            division_services.divisions_refresh(league, entries, rnd)
        opened = league.matches.order_by("created_at").values_list("created_at").first()
        created = []
        for t, order in enumerate(ladder_tables(league, entries, wanted - open_count, rng)):
            seed = seed_from(league.base_seed, rnd, t)
            created.append(create_league_match(league, order, seed, rnd,
                                               ahead=_newcomer_first(order, opened)))  # fmt: skip
        league.save(update_fields=["current_round"])
        return created

    def after_match(self, league: League) -> None:
        self.schedule(league)  # keep the ladder busy between beat ticks

    def is_over(self, league: League) -> bool:
        return False  # until its organiser closes it
