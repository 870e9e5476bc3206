"""The cells of the league page's head-to-head table, written once in Python: an entrant
against every other is the square of the ladder, and per-cell template logic was most of the
page's rendering time. Each cell is what the template used to write."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.template.defaultfilters import floatformat, pluralize
from django.utils.safestring import SafeString, mark_safe

SELF = '<td class="self">—</td>'
NEVER = '<td><span class="muted">·</span></td>'


def _cell(record: Any) -> str:
    if record is None:
        return SELF
    if not record.games:
        return NEVER
    title = f"{record.games} game{pluralize(record.games)}"
    if record.mean_score_diff is not None:
        title += f", mean score difference {floatformat(record.mean_score_diff, 1)}"
    ahead = "rec-ahead" if record.wins > record.losses else ""
    ahead = "rec-behind" if record.losses > record.wins else ahead
    return (f'<td title="{title}"><span class="{ahead}">'
            f"{record.wins}–{record.draws}–{record.losses}</span></td>")  # fmt: skip


def head_to_head_cells(table: Sequence[tuple[Any, Sequence[Any]]]) -> list[tuple[Any, SafeString]]:
    """(entry, its row's cells as HTML) for each row of `selectors.league_head_to_head`;
    the cells hold numbers only, nothing to escape."""
    return [(entry, mark_safe("".join(_cell(r) for r in cells))) for entry, cells in table]
