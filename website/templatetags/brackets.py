"""Template parts of brackets and seasons that several pages show: a closed league's podium
panel (league page) and the titles of a bot (bot page). Inclusion tags, so the pages that
show them only add one line."""

from __future__ import annotations

from typing import Any

from django import template

from tournament import formats
from tournament.selectors import brackets as bracket_selectors

register = template.Library()


@register.inclusion_tag("website/_podium.html")
def podium_panel(league: Any, on_bracket_page: bool = False) -> dict[str, Any]:
    """The champion and podium once closed; on the league page of a bracket also the way to
    its bracket page, and on a league a playoff follows, that playoff."""
    bracket = formats.get(league.format).has_bracket
    closed = league.status == league.Status.CLOSED
    return {  # one query: places exist only once closed, a playoff waits on an open league
        "league": league, "bracket": bracket and not on_bracket_page,
        "places": bracket_selectors.league_podium(league=league) if closed else [],
        "playoffs": list(league.playoffs.select_related("league"))
        if not bracket and not closed else [],
    }  # fmt: skip


@register.inclusion_tag("website/_titles.html", takes_context=True)
def bot_titles(context: Any, bot: Any) -> dict[str, Any]:
    request = context.get("request")
    user = request.user if request is not None else None
    return {"titles": bracket_selectors.bot_titles(bot=bot, user=user)}
