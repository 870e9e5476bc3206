"""The league page's event panels (Swiss standings, faults by kind, the round robin's plan,
start time, deadline and cap) and the organiser adding and removing entries."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from tournament import formats, selectors
from tournament.errors import ArenaError, NotFound
from tournament.models import Bot, League
from tournament.selectors import events as event_selectors
from tournament.services import events as event_services
from tournament.services import leagues as league_services
from tournament.services.divisions import league_divisions
from tournament.standings import league_bye_points, league_points

from .common import found


def league_event_context(league: League, *, organiser: bool, entrants: int) -> dict[str, Any]:
    """What the league page's event panels show (website/_event.html)."""
    context: dict[str, Any] = {
        "fault_table": event_selectors.league_fault_table(league=league),
    }
    fmt = formats.get(league.format)
    context["controls"] = league_controls(league, fmt)
    standings = fmt.standings(league)
    context["format_fields"] = fmt.league_fields  # the page names the ones in use
    context["by_points"] = standings is not None
    if standings is not None:  # standings by points (a Swiss): its ratings come second
        context.update(
            standings=standings,
            points_table=league_points(league),
            bye_points=league_bye_points(league),
        )
    if league.division_size:
        context["divisions"] = league_divisions(league=league)
    plan = fmt.plan_summary(league, entrants)
    if plan is not None:
        context["round_robin_plan"] = plan
    if organiser:
        context["organiser_entries"] = list(
            league.entries.select_related("bot_version__bot__owner").order_by("pk")
        )
    return context


def league_controls(league: League, fmt: Any) -> dict[str, Any]:
    """What the league page offers, as its format answers (never by the format's name): a
    bracket has no rating ladder to order, a playoff is filled and started by the league it
    follows, entries close when a league runs unless it is a ladder."""
    filled_by = fmt.filled_by(league)
    open_ = league.status != League.Status.CLOSED
    return {
        "rated_ladder": fmt.rated_ladder,
        "ladder_order": fmt.rated_ladder,
        "start": league.status == League.Status.DRAFT and filled_by is None,
        "filled_by": filled_by,
        "invite": open_ and not league.public,
        "entry_add": fmt.takes_entries(league),
        "entry_remove": fmt.takes_withdrawals(league),
        "entries": fmt.takes_entries(league) or fmt.takes_withdrawals(league),
    }


def _league(request: HttpRequest, league_id: int) -> League:
    return found(selectors.league_get(league_id=league_id, user=request.user), "league",
                 league_id)  # fmt: skip


@require_POST
@login_required
def league_entry_add(request: HttpRequest, league_id: int) -> HttpResponse:
    """The organiser enters any author's bot, by its name (its latest ready version)."""
    league = _league(request, league_id)
    name = request.POST.get("bot", "").strip()
    try:
        league_services.league_organiser_check(league=league, user=request.user)
        bot = Bot.objects.filter(name__iexact=name).first() if name else None
        if bot is None:
            raise NotFound(f"There is no bot named {name!r}." if name else "Give a bot's name.")
        entry = league_services.league_entry_add(league=league, user=request.user, bot_id=bot.pk)
    except ArenaError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{bot.name} v{entry.bot_version.number} is entered.")
    return redirect("website:league", league.pk)


@require_POST
@login_required
def league_entry_remove(request: HttpRequest, league_id: int, entry_id: int) -> HttpResponse:
    league = _league(request, league_id)
    try:
        entry = event_services.league_entry_remove(league=league, user=request.user,
                                                   entry_id=entry_id)  # fmt: skip
    except ArenaError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "The entry is removed." if entry is None else
                         "The entry is withdrawn: its results stay, it plays no more.")
    return redirect("website:league", league.pk)
