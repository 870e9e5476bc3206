"""Links to the site's pages, built by string formatting around one `reverse()` per kind of
page: a list of 50 matches has hundreds of links, and reversing each one was the slowest part
of rendering it. The result is what `reverse()` gives (tests/website/test_pages.py checks)."""

from __future__ import annotations

import functools

from django.urls import get_script_prefix, reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from competition.versions import version_label

from .colours import bot_colour

_PLACEHOLDER = 918273645  # an id no row has, cut out of the reversed URL


@functools.cache
def _around(name: str, script_prefix: str) -> tuple[str, str]:
    head, found, tail = reverse(name, args=[_PLACEHOLDER]).partition(str(_PLACEHOLDER))
    if not found:
        raise ValueError(f"{name}: the URL does not hold its one argument as is")
    return head, tail


def url_of(name: str, pk: int) -> str:
    """`reverse(name, args=[pk])` for a URL with one integer argument."""
    head, tail = _around(name, get_script_prefix())
    return f"{head}{int(pk)}{tail}"


def bot_url(bot_id: int) -> str:
    return url_of("website:bot", bot_id)


def match_url(match_id: int) -> str:
    return url_of("website:match", match_id)


def league_url(league_id: int) -> str:
    return url_of("website:league", league_id)


def bot_link(bot_id: int, name: str, version: int | None = None) -> SafeString:
    """The bot's name after its colour dot, linked to its page (with " vN" for a version, or
    " (draft)" for a snapshot of the workshop draft: `version_label`). Written out with one
    escape (the name): it is on every line of every table."""
    label = escape(version_label(name, version) if version is not None else name)
    return mark_safe(  # the URL and colour come from an int, the label is escaped
        f'<a class="bot" href="{bot_url(bot_id)}"><span class="dot" style="--c: '
        f'{bot_colour(bot_id)}" aria-hidden="true"></span>{label}</a>'
    )
