"""Which entries of a league count: the active ones (not withdrawn by the organiser) and the
scheduled ones, those new matches are made of."""

from __future__ import annotations

from django.db.models import QuerySet

from ..models import League, LeagueEntry


def active_entries(league: League) -> QuerySet[LeagueEntry]:
    """The entries that count: every one the organiser has not withdrawn."""
    return league.entries.filter(withdrawn_at__isnull=True)


def scheduled_entries(league: League) -> QuerySet[LeagueEntry]:
    """The entries new matches are made of: every entry but those whose version is suspended
    for faulting (services/bots.py, FAULT_SUSPEND_AFTER) and those the organiser withdrew."""
    return league.entries.select_related("bot_version").filter(
        bot_version__suspended_at__isnull=True, withdrawn_at__isnull=True
    )
