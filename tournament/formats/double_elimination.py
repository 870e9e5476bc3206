"""Double elimination: out after two lost series; the losers' bracket's winner meets the
winners' in a grand final, played again (the reset) when the losers' finalist wins it."""

from __future__ import annotations

from ..models import League
from .single_elimination import EliminationFormat


class DoubleElimination(EliminationFormat):
    key = League.Format.DOUBLE_ELIMINATION
    label = "Double Elimination"
    description = ("Double elimination — 2 seats: out after two lost series; grand final "
                   "with reset")  # fmt: skip
    menu_order = 50
