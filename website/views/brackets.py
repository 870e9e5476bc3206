"""The bracket page of an elimination or knockout league: the tree drawn in HTML and CSS,
every series linked to its matches; while it runs, website/static/website/bracket.js swaps in
the `?fragment=1` part of it every few seconds."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournament import selectors
from tournament.selectors import brackets as bracket_selectors

from ..bracket_cells import bracket_sections
from ..colours import page_colours
from .common import found


def league_bracket(request: HttpRequest, league_id: int) -> HttpResponse:
    league = found(selectors.league_get(league_id=league_id, user=request.user), "league",
                   league_id)  # fmt: skip
    view = bracket_selectors.bracket_view(league=league)
    if view is None:
        raise Http404(f"{league.name} is a {league.get_format_display().lower()}, not a bracket.")
    # the seeds' colours in seeding order, alike on the page and in the fragment swapped in
    page_colours().prime(e.bot_version.bot_id for e in view.seeds or ())
    template = "website/_bracket.html" if request.GET.get("fragment") else "website/bracket.html"
    return render(request, template, {"league": league, "view": view,
                                      "sections": bracket_sections(view)})  # fmt: skip
