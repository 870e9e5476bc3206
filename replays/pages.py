"""Spectator pages, server-rendered: leagues, a league's ladder and rating chart, matches,
a bot's versions and recent matches. Reads only through ``tournament.selectors``."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournament import selectors

from .charts import rating_chart

MATCHES_PER_PAGE = 50


def league_list(request: HttpRequest) -> HttpResponse:
    leagues = selectors.league_list(user=request.user).order_by("-created_at", "id")
    return render(request, "replays/leagues.html", {"leagues": leagues})


def league_detail(request: HttpRequest, league_id: int) -> HttpResponse:
    league = selectors.league_get(league_id=league_id, user=request.user)
    if league is None:
        raise Http404(f"No league {league_id}.")
    ladder = selectors.league_ladder(league=league)
    changes = [
        (f"{c.bot_version.bot.name} v{c.bot_version.number}", c.before, c.after)
        for c in selectors.league_rating_history(league=league).order_by("id")
    ]
    matches = selectors.match_list(user=request.user).filter(league=league)[:MATCHES_PER_PAGE]
    return render(request, "replays/league.html", {
        "league": league, "ladder": ladder, "chart": rating_chart(changes), "matches": matches,
    })


def match_list(request: HttpRequest) -> HttpResponse:
    matches = selectors.match_list(user=request.user).order_by("-created_at", "-id")
    page = Paginator(matches, MATCHES_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "replays/matches.html", {"page": page, "matches": page.object_list})


def bot_detail(request: HttpRequest, bot_id: int) -> HttpResponse:
    bot = selectors.bot_get(bot_id=bot_id)
    if bot is None:
        raise Http404(f"No bot {bot_id}.")
    return render(request, "replays/bot.html", {
        "bot": bot,
        "versions": list(bot.versions.all()),
        "ratings": selectors.bot_ratings(bot=bot, user=request.user),
        "matches": selectors.bot_recent_matches(bot=bot, user=request.user),
    })
