"""Running an event: its start time, entry deadline and cap on entrants, the Swiss points
table, the organiser adding and removing entries, and the beat job that starts a league at
its start time.

The checks of these fields live here, used by `services.leagues.league_create` (a new
league) and `league_event_update` (a draft's settings changed later), so both answer a bad
value with the same plain sentence.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from competition import swiss

from ..errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from ..models import League, LeagueEntry, Match
from ..seed_privacy import seed_privacy_problem
from .matches import league_count_ended

log = logging.getLogger(__name__)
MAX_ENTRANTS_CEILING = 10_000

UNSET: Any = object()  # an argument not given (None is a value: "no deadline")


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
) -> list[tuple[str, str]]:
    """(field, plain message) of every bad event field; empty when all are fine."""
    out: list[tuple[str, str]] = []
    if division_size and format != League.Format.LADDER:
        out.append(("division_size", "Divisions are for ladders."))
    elif division_size and not 2 * seats <= division_size <= 1000:
        out.append(("division_size", f"A division holds {2 * seats} to 1000 entrants "
                                     "(0: no divisions)."))  # fmt: skip
    if not 1 <= division_every <= 1000:
        out.append(("division_every", "Promotion and relegation come every 1 to 1000 rounds."))
    privacy = seed_privacy_problem(seed_privacy, seats)
    if privacy:
        out.append(("seed_privacy", privacy))
    problem = swiss.points_table_problem(points_table, seats) if seats in (1, 2, 3, 4) else None
    if problem:
        out.append(("points_table", problem))
    if points_table and format != League.Format.SWISS:
        out.append(("points_table", "A points table is for Swiss leagues only."))
    if bye_points is not None and not 0 <= bye_points <= 1000:
        out.append(("bye_points", "Bye points must be between 0 and 1000."))
    now = now or timezone.now()
    if starts_at is not None and starts_at_changed and starts_at < now:
        out.append(("starts_at", "The start time is in the past: leave it empty to start by "
                                 "hand, or pick a later time."))  # fmt: skip
    if starts_at is not None and entry_deadline is not None and entry_deadline < starts_at:
        out.append((
            "entry_deadline",
            "The entry deadline is before the start time: entries stay open until the start "
            "anyway, so set the deadline at or after the start, or leave it empty.",
        ))  # fmt: skip
    if max_entrants is not None:
        least = max(1 if seats == 1 else seats, entrants)
        if max_entrants < least:
            why = (f"the league already has {entrants} entrant{'s' if entrants != 1 else ''}"
                   if entrants > (1 if seats == 1 else seats)
                   else f"a match needs {seats} entrant{'s' if seats != 1 else ''}")  # fmt: skip
            out.append(("max_entrants", f"The cap on entrants must be at least {least}: {why}."))
        elif max_entrants > MAX_ENTRANTS_CEILING:
            out.append(("max_entrants", f"The cap on entrants is at most {MAX_ENTRANTS_CEILING}."))
    return out


def raise_problems(problems: list[tuple[str, str]]) -> None:
    if problems:
        fields: dict[str, list[str]] = {}
        for field, message in problems:
            fields.setdefault(field, []).append(message)
        raise ValidationFailed(" ".join(m for _, m in problems), fields=fields)


def league_event_update(
    *,
    league: League,
    user: Any,
    starts_at: Any = UNSET,
    entry_deadline: Any = UNSET,
    max_entrants: Any = UNSET,
    points_table: Any = UNSET,
    bye_points: Any = UNSET,
) -> League:
    """Change a league's start time, deadline, cap or Swiss points (only the given ones). The
    points and the start time only while it is a draft: a round already scored keeps its
    table."""
    from .leagues import league_organiser_check

    league_organiser_check(league=league, user=user)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if league.status == League.Status.CLOSED:
            raise Conflict(Conflict.LEAGUE_CLOSED)
        draft_only = {"starts_at": starts_at, "points_table": points_table,
                      "bye_points": bye_points}  # fmt: skip
        changed = [k for k, v in draft_only.items() if v is not UNSET]
        if changed and league.status != League.Status.DRAFT:
            raise Conflict(
                f"{', '.join(changed)} can only change while the league is a draft.",
                fields={k: ["not a draft"] for k in changed},
            )
        values = {
            "starts_at": league.starts_at if starts_at is UNSET else starts_at,
            "entry_deadline": league.entry_deadline if entry_deadline is UNSET
            else entry_deadline,
            "max_entrants": league.max_entrants if max_entrants is UNSET else max_entrants,
            "points_table": league.points_table if points_table is UNSET else points_table,
            "bye_points": league.bye_points if bye_points is UNSET else bye_points,
        }  # fmt: skip
        raise_problems(event_problems(
            seats=league.seats, format=league.format, **values,
            entrants=active_entries(league).count(),
            starts_at_changed=starts_at is not UNSET and starts_at != league.starts_at,
        ))  # fmt: skip
        if values["points_table"]:
            values["points_table"] = [float(p) for p in values["points_table"]]
        for name, value in values.items():
            setattr(league, name, value if value is not None or name != "points_table" else [])
        league.save(update_fields=list(values))
    return league


def active_entries(league: League) -> Any:
    """The entries that count: every one the organiser has not withdrawn."""
    return league.entries.filter(withdrawn_at__isnull=True)


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
            f"The league is full: it takes at most {league.max_entrants} entrants.",
            fields={"entries": ["full"]},
        )


def league_entry_remove(*, league: League, user: Any, entry_id: int) -> LeagueEntry | None:
    """The organiser removes an entry. One that has not played is deleted (None is
    returned); one with results is withdrawn: kept, with its results, on the standings, never
    scheduled again, and its queued matches are cancelled."""
    from .leagues import league_organiser_check

    league_organiser_check(league=league, user=user)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if league.status == League.Status.CLOSED:
            raise Conflict(Conflict.LEAGUE_CLOSED)
        entry = league.entries.filter(pk=entry_id).select_related("bot_version").first()
        if entry is None:
            raise NotFound(f"Entry {entry_id} is not in this league.")
        seated = Match.objects.filter(league=league, seats__bot_version=entry.bot_version_id)
        if not seated.exclude(status=Match.Status.CANCELLED).exists():
            entry.delete()
            return None
        if entry.withdrawn_at is not None:
            raise Conflict("This entry is already withdrawn.", fields={"entry": ["withdrawn"]})
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["withdrawn_at"])
        queued = seated.filter(status=Match.Status.QUEUED).values("pk")
        cancelled = Match.objects.filter(pk__in=queued).update(
            status=Match.Status.CANCELLED, finished_at=timezone.now()
        )
        league_count_ended(league_id=league.pk, status=Match.Status.CANCELLED, n=cancelled)
    _progress_after_removal(league)
    return entry


def _progress_after_removal(league: League) -> None:
    """A Swiss round whose last queued match was cancelled moves on at once."""
    from .leagues import league_progress

    if league.status == League.Status.RUNNING and league.format != League.Format.LADDER:
        with transaction.atomic():
            league_progress(league_id=league.pk)


def leagues_start_due(*, now: datetime | None = None) -> list[int]:
    """The beat job's part: start every draft whose start time has come. One with too few
    entrants stays a draft (logged), and is tried again at the next tick until its organiser
    moves the time or closes it. Returns the ids started."""
    from .leagues import league_start

    now = now or timezone.now()
    started = []
    due = League.objects.filter(status=League.Status.DRAFT, starts_at__lte=now)
    for league in due.select_related("organiser"):
        try:
            league_start(league=league, user=league.organiser, automatic=True)
        except (Conflict, PermissionDenied) as exc:
            log.info("league %s not started at its start time: %s", league.pk, exc.message)
            continue
        started.append(league.pk)
    return started
