"""Running an event: the organiser changing a draft's start time, entry deadline, cap on
entrants and Swiss points, and removing entries. The rules of those fields live in
`services/event_rules.py`; the beat job that starts a league at its start time is
`services.leagues.leagues_start_due`."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from .. import formats
from ..errors import Conflict, NotFound
from ..models import League, LeagueEntry, Match
from ..selectors.entries import active_entries
from .event_rules import event_problems, raise_problems
from .leagues import league_organiser_check, league_progress
from .leagues import leagues_start_due as leagues_start_due  # the beat job's part, kept here too
from .matches import league_count_ended

UNSET: Any = object()  # an argument not given (None is a value: "no deadline")


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


def league_entry_remove(*, league: League, user: Any, entry_id: int) -> LeagueEntry | None:
    """The organiser removes an entry. One that has not played is deleted (None is
    returned); one with results is withdrawn: kept, with its results, on the standings, never
    scheduled again, and its queued matches are cancelled."""
    league_organiser_check(league=league, user=user)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if league.status == League.Status.CLOSED:
            raise Conflict(Conflict.LEAGUE_CLOSED)
        fmt = formats.get(league.format)
        source = fmt.filled_by(league)
        if source is not None:
            raise Conflict(Conflict.PLAYOFF_FILLED.format(source=source.name))
        if not fmt.takes_withdrawals(league):
            raise Conflict(Conflict.NO_WITHDRAWALS)
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
    """A Swiss round whose last queued match was cancelled moves on at once (a continuous
    format tops itself up at the beat's next tick)."""
    if league.status == League.Status.RUNNING and not formats.get(league.format).continuous:
        with transaction.atomic():
            league_progress(league_id=league.pk)
