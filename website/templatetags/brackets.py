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
    its bracket page; a season linked both ways: on a league a playoff follows, that playoff
    (before and after its close), and on the playoff's own page, the league it follows."""
    bracket = formats.get(league.format).has_bracket
    closed = league.status == league.Status.CLOSED
    settings = bracket_selectors.bracket_settings(league=league) if bracket else None
    return {
        "league": league, "bracket": bracket and not on_bracket_page,
        "places": bracket_selectors.league_podium(league=league) if closed else [],
        "playoffs": [] if bracket else list(league.playoffs.select_related("league")),
        "season": settings if settings is not None and settings.playoff_of_id else None,
        "closed": closed, "on_bracket_page": on_bracket_page,
    }  # fmt: skip


@register.inclusion_tag("website/_titles.html", takes_context=True)
def bot_titles(context: Any, bot: Any) -> dict[str, Any]:
    request = context.get("request")
    user = request.user if request is not None else None
    return {"titles": bracket_selectors.bot_titles(bot=bot, user=user)}
