"""The lines of the site's match tables (`_matches.html`), computed once in Python from match
summaries: links, seat cells, dates as text. The template then only prints strings; a page
of 25 matches used to reverse a URL and run a date and number filter per match and seat,
which cost more than its queries."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.template.defaultfilters import floatformat
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from tournament.match_summaries import MatchSummary, SeatSummary

from . import links
from .templatetags.arena import ordinal


@dataclass(frozen=True, slots=True)
class MatchRow:
    id: int
    url: str
    status: str
    seats: SafeString  # one <div> per seat: bot link · score (rank) and fault badge
    mode: str
    kind: str
    league_name: str | None
    league_url: str | None
    round: int | None
    when_iso: str  # finished, else created
    when_text: str


def _seat(seat: SeatSummary) -> SafeString:
    link = links.bot_link(seat.bot_id, seat.bot_name, seat.version)
    score = f" · {floatformat(seat.score, '-1')}" if seat.score is not None else ""
    rank = f" ({ordinal(seat.rank)})" if seat.rank else ""
    fault = format_html(' <span class="badge fault">{}</span>', seat.fault) if seat.fault else ""
    return format_html("<div>{}{}{}{}</div>", link, score, rank, fault)


def match_rows(matches: Iterable[MatchSummary]) -> list[MatchRow]:
    rows = []
    for m in matches:
        when = timezone.localtime(m.finished_at or m.created_at)
        rows.append(MatchRow(
            id=m.id, url=links.match_url(m.id), status=m.status,
            seats=format_html_join("", "{}", ((_seat(s),) for s in m.seats)),
            mode=m.mode, kind=m.kind, league_name=m.league_name,
            league_url=links.league_url(m.league_id) if m.league_id else None,
            round=m.round, when_iso=when.isoformat(), when_text=date_format(when, "M j, H:i"),
        ))  # fmt: skip
    return rows
