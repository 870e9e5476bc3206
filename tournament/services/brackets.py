"""Creating a bracket league (single or double elimination, or a multi-table knockout) with
its bracket's settings in one call. The brackets themselves are formats: their settings,
seeding, series and final places live in `tournament/formats/bracket.py` and the modules of
each bracket format; seasons (a playoff following a league) in `tournament/formats/playoff.py`.
"""

from __future__ import annotations

from typing import Any

from ..models import League
from .leagues import league_create


def bracket_league_create(
    *,
    organiser: Any,
    best_of: int | None = None,
    seeding: str | None = None,
    advance: int | None = None,
    playoff_of: int | None = None,
    playoff_top: int | None = None,
    **league_fields: Any,
) -> League:
    """Create a bracket league and its settings in one go; every fault of the league's fields
    and of the bracket's is named in one 400 (ValidationFailed). No seeding: a playoff's is
    the final order of the league it follows, any other's the ratings."""
    own = {"best_of": best_of, "seeding": seeding, "advance": advance,
                "playoff_of": playoff_of, "playoff_top": playoff_top}  # fmt: skip
    return league_create(organiser=organiser, format_settings=own, **league_fields)
