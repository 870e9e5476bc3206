"""The series of the bracket page (`_bracket.html`), written once in Python: a bracket of 64
is a hundred and thirty series with their entrants, points and game links, and the template's
logic per slot and per game was most of the page's cost. Each item is what the template used
to write, byte for byte (tests/website/test_bracket_pages.py)."""

from __future__ import annotations

from typing import Any

from django.template.defaultfilters import floatformat
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from competition import bracket_plan as plan

from . import links

TABLE_POINTS = "table points (3-2-1-0 per game at four seats)"
SERIES_POINTS = "games won (a draw a half)"


def _badge(view: Any) -> str:
    s = view.series
    if s.status == "playing":
        return '<span class="badge running live">playing</span>'
    if s.status == "waiting":
        return '<span class="badge queued">waiting</span>'
    if s.stage == "bye":
        return '<span class="badge">straight through</span>'
    if not view.matches:
        return '<span class="badge">walkover</span>'
    return ""


def _slot(slot: Any, table: bool) -> str:
    classes = ("won" if slot.won else "") + (" goes-on" if slot.goes_on else "")
    if slot.entry:
        version = slot.entry.bot_version
        who = links.bot_link(version.bot.pk, version.bot.name, version.number)
    else:
        who = f'<span class="muted">{escape(slot.label)}</span>'
    points = ""
    if slot.points is not None:
        title = TABLE_POINTS if table else SERIES_POINTS
        points = f' <span class="points" title="{title}">{floatformat(slot.points, "-1")}</span>'
    mark = ""
    if slot.won:
        what = "the final table" if table else "the series"
        mark = f' <span class="won-mark">won<span class="visually-hidden"> {what}</span></span>'
    elif slot.goes_on and table:
        mark = ' <span class="won-mark">goes on</span>'
    return f'\n            <li class="{classes}">{who}{points}{mark}</li>\n          '


def _places(view: Any) -> str:
    """A decided table's finishing order by name."""
    parts = []
    for place, entry_id in enumerate(view.series.order, start=1):
        names = [
            f"{place}. {escape(slot.entry.bot_version.bot.name)}"
            for slot in view.slots
            if slot.entry and slot.entry.pk == entry_id
        ]
        parts.append("".join(names))
    return f'<p class="muted order">Places: {", ".join(parts)}</p>'


def _games(view: Any) -> str:
    key = escape(view.series.key)
    games = " ".join(
        f'<a href="{links.match_url(m.pk)}" aria-label="game {n} of {key}, {m.status}" '
        f'class="game {m.status}">{n}</a>'
        for n, m in enumerate(view.matches, start=1)
    )
    return f'<p class="games">Games: {games}</p>'


def series_item(view: Any) -> SafeString:
    """One series of the bracket (a `tournament.selectors.brackets.SeriesView`) as its
    `<li class="series">`."""
    s = view.series
    table = s.stage == plan.TABLE
    key = escape(s.key)
    slots = "".join(_slot(slot, table) for slot in view.slots)
    places = _places(view) if table and s.status == "done" else ""
    games = _games(view) if view.matches else ""
    return mark_safe(  # every text from a row is escaped above
        f'\n        <li class="series {escape(s.status)}" id="series-{key}">\n'
        f'          <div class="series-head"><span>{escape(view.title)} <span class="muted">'
        f"{key}</span></span>{_badge(view)}</div>\n"
        f'          <ul class="slots">{slots}</ul>\n'
        f"          {places}\n"
        f"          {games}\n"
        f"        </li>"
    )


def bracket_sections(view: Any) -> list[tuple[str, list[tuple[str, list[SafeString]]]]]:
    """The view's sections as (title, [(column title, [series item, ...]), ...])."""
    return [
        (title, [(column.title, [series_item(v) for v in column.series]) for column in columns])
        for title, columns in view.sections
    ]
