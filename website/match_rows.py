"""The lines of the site's match tables (`_matches.html`), computed once in Python from match
summaries: links, seat cells, dates as text. The template then only prints strings; a page
of 25 matches used to reverse a URL and run a date and number filter per match and seat,
which cost more than its queries."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.template.defaultfilters import floatformat
from django.utils import timezone
from django.utils.dates import MONTHS_3
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from tournament.match_summaries import MatchSummary, SeatSummary

from . import links
from .templatetags.arena import rank_text


@dataclass(frozen=True, slots=True)
class MatchRow:
    id: int
    url: str
    status: str
    seats: SafeString  # one <div> per seat: bot link · score (rank, or solo's outcome), fault
    mode: str
    kind: str
    league_name: str | None
    league_url: str | None
    round: int | None
    when_iso: str  # finished, else created
    when_text: str


def _score(score: float) -> str:
    """`floatformat:"-1"`: no decimals for a whole score, else one."""
    return str(int(score)) if float(score).is_integer() else floatformat(score, "-1")


def _when(value: datetime) -> tuple[str, str]:
    """`date:"c"` and `date:"M j, H:i"` in the current time zone, without the template
    filter's per-call cost (the same month names: django.utils.dates)."""
    local = timezone.localtime(value)
    return local.isoformat(), f"{MONTHS_3[local.month].title()} {local.day}, {local:%H:%M}"


def _seat(seat: SeatSummary, mode: str) -> str:
    link = links.bot_link(seat.bot_id, seat.bot_name, seat.version)
    score = f" · {_score(seat.score)}" if seat.score is not None else ""
    rank = f" ({rank_text(seat.rank, mode)})" if seat.rank else ""
    fault = f' <span class="badge fault">{escape(seat.fault)}</span>' if seat.fault else ""
    result = score + rank + fault
    # a spoiler: hidden by the visitor's setting unless they ask (website/spoilers.py)
    if not result:
        return f"<div>{link}</div>"
    return f'<div>{link}<span class="spoiler">{result}</span></div>'



def match_rows(matches: Iterable[MatchSummary]) -> list[MatchRow]:
    rows = []
    for m in matches:
        when_iso, when_text = _when(m.finished_at or m.created_at)
        rows.append(MatchRow(
            id=m.id, url=links.match_url(m.id), status=m.status,
            seats=mark_safe("".join(_seat(s, m.mode) for s in m.seats)),  # every part escaped
            mode=m.mode, kind=m.kind, league_name=m.league_name,
            league_url=links.league_url(m.league_id) if m.league_id else None,
            round=m.round, when_iso=when_iso, when_text=when_text,
        ))  # fmt: skip
    return rows
