"""Template helpers every page uses: a bot's colour and link, a page link that keeps the
list's filters, a match status as visitors read it, and the banner that tells organisers and
staff that no worker is taking matches."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe

from tournament.bundle_formats import formats_sentence
from tournament.selectors.health import worker_alarm

from .. import links
from ..colours import bot_colour
from ..spoilers import spoilers_shown

register = template.Library()


@register.simple_tag
def upload_formats() -> str:
    """The formats a bot upload may take, in the one wording (tournament/bundle_formats.py),
    each file ending in <code>."""
    sentence = formats_sentence(code=lambda s: format_html("<code>{}</code>", s), text=escape)
    return mark_safe(sentence)  # noqa: S308 - every part escaped above


@register.filter
def colour(bot_id: int) -> str:
    return bot_colour(bot_id)


@register.simple_tag
def bot_link(bot: Any, version: Any = None) -> str:
    """The bot's name after its colour dot, linked to its page (with " vN" for a version, or
    " (draft)")."""
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


# A queued match is waiting for a worker to take it: say so, rather than a status word
# that reads like "it is playing".
STATUS_TEXT = {"queued": "waiting for a worker"}


@register.filter
def match_status_text(status: str) -> str:
    return STATUS_TEXT.get(str(status), str(status))


@register.inclusion_tag("website/_worker_banner.html", takes_context=True)
def worker_banner(context: template.Context) -> dict[str, Any]:
    """The banner of base.html: shown to organisers and staff when no match worker has checked
    in for WORKER_STALE_SECONDS (tournament.selectors.health.worker_alarm)."""
    request = context.get("request")
    alarm = worker_alarm(user=getattr(request, "user", None))
    if alarm is None:
        return {"alarm": None}
    silence = alarm["silence"]
    if silence is None:
        since = "yet"
    elif silence < 120:
        since = f"for {silence:.0f} s"
    elif silence < 7200:
        since = f"for {silence / 60:.0f} min"
    else:
        since = f"for {silence / 3600:.0f} h"
    return {"alarm": alarm, "since": since}


@register.simple_tag(takes_context=True)
def spoilers_class(context: template.Context) -> str:
    """The ``<html>`` class of the visitor's spoiler setting (website/spoilers.py)."""
    return "spoilers-shown" if spoilers_shown(context.get("request")) else "spoilers-hidden"


@register.inclusion_tag("website/_spoiler_toggle.html", takes_context=True)
def spoiler_toggle(context: template.Context) -> dict[str, Any]:
    """The link that shows (or hides again) results in lists."""
    request = context.get("request")
    return {"shown": spoilers_shown(request),
            "next": request.get_full_path() if request is not None else "/"}
