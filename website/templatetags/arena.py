"""Template helpers every page uses: a bot's colour and link, and a page link that keeps the
list's filters."""

from __future__ import annotations

from typing import Any

from django import template

from .. import links
from ..colours import bot_colour

register = template.Library()


@register.simple_tag
def upload_formats() -> str:
    """The formats a bot upload may take, in the one wording (tournament/bundle_formats.py),
    each file ending in <code>."""
    from django.utils.html import escape, format_html
    from django.utils.safestring import mark_safe

    from tournament.bundle_formats import formats_sentence

    sentence = formats_sentence(code=lambda s: format_html("<code>{}</code>", s), text=escape)
    return mark_safe(sentence)  # noqa: S308 - every part escaped above


@register.filter
def colour(bot_id: int) -> str:
    return bot_colour(bot_id)


@register.simple_tag
def bot_link(bot: Any, version: Any = None) -> str:
    """The bot's name after its colour dot, linked to its page (with " vN" for a version)."""
    return links.bot_link(bot.pk, bot.name, version.number if version is not None else None)


@register.simple_tag
def version_link(version: Any) -> str:
    return bot_link(version.bot, version)


@register.simple_tag
def page_url(query: str, number: int, param: str = "page") -> str:
    """?<the list's filters>&page=N, so paging keeps the filters."""
    return f"?{query}&{param}={number}" if query else f"?{param}={number}"


@register.filter
def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# Solo: the engine ranks the player 1 on a win and 2 otherwise, as if the sister held the other
# rank (a tie goes to her); "2nd" alone would not say against whom.
SOLO_OUTCOMES = {1: "won", 2: "sister won"}


@register.filter
def rank_text(rank: int, mode: str) -> str:
    """A seat's rank as the pages say it: an ordinal, or in solo who won."""
    if mode == "solo":
        return SOLO_OUTCOMES.get(rank, ordinal(rank))
    return ordinal(rank)
