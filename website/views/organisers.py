"""What an organiser does in the browser: create a league, invite users, start, pause and
close it. Each view calls one service; the services check who may do it."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournament import selectors
from tournament.errors import ArenaError
from tournament.selectors import brackets as bracket_selectors
from tournament.services import leagues as league_services

from ..forms import InviteForm, LeagueForm, add_service_error
from .common import found

ACTIONS = {
    "start": league_services.league_start,
    "pause": league_services.league_pause,
}
# The value of the confirmation checkbox of the close page (league_close.html).
CLOSE_CONFIRMED = "closed-for-good"
STATUS_MESSAGES = {
    "running": "{name} is running: its matches are queued for the workers.",
    "paused": "{name} is paused: queued matches wait until it is started again.",
    "closed": "{name} is closed.",
}


@login_required
def league_create(request: HttpRequest) -> HttpResponse:
    if not league_services.is_organiser(request.user):
        raise PermissionDenied("Only organisers can create leagues.")
    form = LeagueForm(request.POST or None,
                      playoff_sources=bracket_selectors.playoff_sources(user=request.user))
    if request.method == "POST" and form.is_valid():
        try:
            league = league_services.league_create(organiser=request.user,
                                                   **form.service_kwargs())  # fmt: skip
        except ArenaError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, f"{league.name} created as a draft: entries are open.")
            return redirect("website:league", league.pk)
    return render(request, "website/league_new.html", {"form": form})


@require_POST
@login_required
def league_action(request: HttpRequest, league_id: int, action: str) -> HttpResponse:
    league = found(selectors.league_get(league_id=league_id, user=request.user), "league",
                   league_id)  # fmt: skip
    return _act(request, league, ACTIONS[action])


@login_required
def league_close(request: HttpRequest, league_id: int) -> HttpResponse:
    """Closing for good cannot be undone, so it has a page of its own: what it cancels, and a
    box to tick before the button acts. A POST without the box ticked shows the page again."""
    league = found(selectors.league_get(league_id=league_id, user=request.user), "league",
                   league_id)  # fmt: skip
    confirmed = request.POST.get("confirm") == CLOSE_CONFIRMED
    if request.method == "POST" and confirmed:
        return _act(request, league, league_services.league_close)
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponseNotAllowed(["GET", "POST"])
    return render(request, "website/league_close.html", {
        "league": league, "queued": selectors.league_queued_count(league=league),
        "confirm_value": CLOSE_CONFIRMED, "unconfirmed": request.method == "POST",
    }, status=400 if request.method == "POST" else 200)  # fmt: skip


def _act(request: HttpRequest, league: Any, action: Any) -> HttpResponse:
    try:
        league = action(league=league, user=request.user)
    except ArenaError as exc:
        messages.error(request, exc.message)
    else:
        league.refresh_from_db()  # a short round robin may already have finished (and closed)
        message = STATUS_MESSAGES.get(league.status, "{name} is {status}.")
        messages.success(request, message.format(name=league.name, status=league.status))
    return redirect("website:league", league.pk)


@require_POST
@login_required
def league_order(request: HttpRequest, league_id: int) -> HttpResponse:
    """Change which rating orders the ladder (Elo or conservative OpenSkill)."""
    league = found(selectors.league_get(league_id=league_id, user=request.user), "league",
                   league_id)  # fmt: skip
    try:
        league_services.league_set_ladder_order(
            league=league, user=request.user, ladder_order=request.POST.get("ladder_order", "")
        )
    except ArenaError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "The ladder order is changed.")
    return redirect("website:league", league.pk)


@require_POST
@login_required
def league_invite(request: HttpRequest, league_id: int) -> HttpResponse:
    league = found(selectors.league_get(league_id=league_id, user=request.user), "league",
                   league_id)  # fmt: skip
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give a username to invite.")
        return redirect("website:league", league.pk)
    try:
        invitation = league_services.league_invite(
            league=league, user=request.user, username=form.cleaned_data["username"]
        )
    except ArenaError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{invitation.user.username} is invited.")
    return redirect("website:league", league.pk)
