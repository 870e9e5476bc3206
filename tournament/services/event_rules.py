"""The rules of an event's fields (its start time, entry deadline and cap on entrants, the
Swiss points table, divisions, seed privacy) and whether a league still takes entries.

`services.leagues.league_create` (a new league) and `services.events.league_event_update` (a
draft's settings changed later) both check with `event_problems`, so both answer a bad value
with the same plain sentence.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.template.defaultfilters import pluralize
from django.utils import timezone

from competition import swiss

from .. import formats
from ..errors import Conflict, ValidationFailed
from ..models import League
from ..seed_privacy import seed_privacy_problem
from ..selectors.entries import active_entries

MAX_ENTRANTS_CEILING = 10_000

Problems = list[tuple[str, str]]  # (field, plain message)


def _uses(format: str, field: str) -> bool:  # noqa: A002 - the API's word
    """Whether the format uses a League field only some formats use (an unknown one: none)."""
    fmt = formats.find(format)
    return fmt is not None and field in fmt.league_fields


def event_problems(
    *,
    seats: int,
    format: str,  # noqa: A002 - the API's word
    points_table: list[Any] | None,
    bye_points: float | None,
    starts_at: datetime | None,
    entry_deadline: datetime | None,
    max_entrants: int | None,
    entrants: int = 0,
    now: datetime | None = None,
    starts_at_changed: bool = True,
    seed_privacy: str = "public",
    division_size: int = 0,
    division_every: int = 10,
) -> Problems:
    """(field, plain message) of every bad event field; empty when all are fine."""
    out = _division_problems(format, seats, division_size, division_every)
    privacy = seed_privacy_problem(seed_privacy, seats)
    if privacy:
        out.append(("seed_privacy", privacy))
    out += _points_problems(format, seats, points_table, bye_points)
    out += _time_problems(now or timezone.now(), starts_at, entry_deadline, starts_at_changed)
    if max_entrants is not None:
        out += _cap_problems(seats, max_entrants, entrants)
    return out


def _division_problems(format: str, seats: int, size: int, every: int) -> Problems:  # noqa: A002
    out = []
    if size and not _uses(format, "division_size"):
        out.append(("division_size", "Divisions are for ladders."))
    elif size and not 2 * seats <= size <= 1000:
        out.append(("division_size", f"A division holds {2 * seats} to 1000 entrants "
                                     "(0: no divisions)."))  # fmt: skip
    if not 1 <= every <= 1000:
        out.append(("division_every", "Promotion and relegation come every 1 to 1000 rounds."))
    return out


def _points_problems(
    format: str,  # noqa: A002 - the API's word
    seats: int,
    points_table: list[Any] | None,
    bye_points: float | None,
) -> Problems:
    out = []
    problem = swiss.points_table_problem(points_table, seats) if seats in (1, 2, 3, 4) else None
    if problem:
        out.append(("points_table", problem))
    if points_table and not _uses(format, "points_table"):
        out.append(("points_table", "A points table is for Swiss leagues only."))
    if bye_points is not None and not 0 <= bye_points <= 1000:
        out.append(("bye_points", "Bye points must be between 0 and 1000."))
    return out


def _time_problems(
    now: datetime, starts_at: datetime | None, entry_deadline: datetime | None, changed: bool
) -> Problems:
    out = []
    if starts_at is not None and changed and starts_at < now:
        out.append(("starts_at", "The start time is in the past: leave it empty to start by "
                                 "hand, or pick a later time."))  # fmt: skip
    if starts_at is not None and entry_deadline is not None and entry_deadline < starts_at:
        out.append((
            "entry_deadline",
            "The entry deadline is before the start time: entries stay open until the start "
            "anyway, so set the deadline at or after the start, or leave it empty.",
        ))  # fmt: skip
    return out


def _cap_problems(seats: int, max_entrants: int, entrants: int) -> Problems:
    least = max(1 if seats == 1 else seats, entrants)
    if max_entrants < least:
        why = (f"the league already has {entrants} entrant{'s' if entrants != 1 else ''}"
               if entrants > (1 if seats == 1 else seats)
               else f"a match needs {seats} entrant{'s' if seats != 1 else ''}")  # fmt: skip
        return [("max_entrants", f"The cap on entrants must be at least {least}: {why}.")]
    if max_entrants > MAX_ENTRANTS_CEILING:
        return [("max_entrants", f"The cap on entrants is at most {MAX_ENTRANTS_CEILING}.")]
    return []


def raise_problems(problems: Problems) -> None:
    if problems:
        fields: dict[str, list[str]] = {}
        for field, message in problems:
            fields.setdefault(field, []).append(message)
        raise ValidationFailed(" ".join(m for _, m in problems), fields=fields)


def entry_open_check(league: League, *, now: datetime | None = None) -> None:
    """Conflict when the league takes no more entries: past its deadline, or at its cap."""
    now = now or timezone.now()
    if league.entry_deadline is not None and now >= league.entry_deadline:
        raise Conflict(
            f"Entries closed at the deadline, {league.entry_deadline:%Y-%m-%d %H:%M} UTC.",
            fields={"entries": ["past the deadline"]},
        )
    if league.max_entrants is not None and active_entries(league).count() >= league.max_entrants:
        raise Conflict(
            f"The league is full: it takes at most {league.max_entrants} "
            f"entrant{pluralize(league.max_entrants)}.",
            fields={"entries": ["full"]},
        )
