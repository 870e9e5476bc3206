"""Round robin: every table of entrants plays, once per seed, in every seat rotation (or in
every seat order), all in one round queued at the start; it ends when the last one ends."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from competition.seeds import seed_from

from ..models import League, Match
from ..selectors.entries import scheduled_entries
from ..selectors.events import round_robin_plan
from .base import Format, create_league_match


def rotations(table: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Every cyclic seat order of a table, so each entrant sits in each seat once."""
    return [tuple(table[i:]) + tuple(table[:i]) for i in range(len(table))]


def round_robin_tables(
    entrants: Sequence[Any], seats: int, seeds: int, *, all_orders: bool = False
) -> list[tuple[int, tuple]]:
    """(seed index, seat order) of every match: each table of entrants, each seed, and each
    rotation (every entrant in every seat once: `seats` orders), or with `all_orders` every
    seat order (`seats`! of them: 24 at four seats)."""
    out = []
    for table in itertools.combinations(entrants, seats):
        orders = list(itertools.permutations(table)) if all_orders else rotations(table)
        for seed_index in range(seeds):
            out.extend((seed_index, order) for order in orders)
    return out


class RoundRobin(Format):
    key = League.Format.ROUND_ROBIN
    label = "Round Robin"
    description = "Round robin — every table of entrants, each entrant once in every seat"
    menu_order = 10
    league_fields = frozenset({"seeds", "all_seat_orders"})

    def schedule(self, league: League) -> list[Match]:
        if league.current_round:
            return []
        league.current_round = 1
        entries = list(scheduled_entries(league).order_by("pk"))
        created = []
        tables = round_robin_tables(entries, league.seats, league.seeds,
                                    all_orders=league.all_seat_orders)  # fmt: skip
        for seed_index, order in tables:
            table_key = "-".join(str(e.pk) for e in sorted(order, key=lambda e: e.pk))
            seed = seed_from(league.base_seed, table_key, seed_index)
            created.append(create_league_match(league, order, seed, 1))
        league.save(update_fields=["current_round"])
        return created

    def plan_summary(self, league: League, entrants: int) -> str | None:
        return round_robin_plan(league, entrants)
