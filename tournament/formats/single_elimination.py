"""Single elimination, and what it shares with double elimination: two seats, best-of series
(each game on its own deal, the seats swapped), byes to the top seeds; the loser of a series
is out."""

from __future__ import annotations

from competition import bracket_plan as plan

from ..errors import Faults
from ..models import Bracket, BracketSeries, League
from .bracket import BracketFormat

MAX_BEST_OF = 9


class EliminationFormat(BracketFormat):
    most_entrants = plan.MAX_ELIMINATION_ENTRANTS

    def form_fields(self) -> frozenset[str]:
        return super().form_fields() - {"advance"}  # a series has one winner

    def _shape_problems(self, faults: Faults, seats: int, best_of: int | None) -> None:
        if seats != 2:
            faults.add("seats", "Single and double elimination are for 2-seat modes; "
                       "use a knockout for 3 or 4 seats.", "2 seats only")  # fmt: skip
        if best_of is not None and not (1 <= best_of <= MAX_BEST_OF and best_of % 2 == 1):
            faults.add("best_of", f"Best of must be an odd number from 1 to {MAX_BEST_OF}.",
                       f"odd, 1..{MAX_BEST_OF}")  # fmt: skip

    def _first_round(self, league: League, bracket: Bracket, entrants: int) -> None:
        """The whole bracket is planned at the start; later series wait for their slots."""
        BracketSeries.objects.bulk_create(
            [
                BracketSeries(
                    bracket=bracket,
                    key=s.key,
                    stage=s.stage,
                    round=s.round,
                    position=s.position,
                    sources=[x.as_json() for x in s.sources],
                )
                for s in plan.elimination_plan(self.key, entrants)
            ]  # fmt: skip
        )


class SingleElimination(EliminationFormat):
    key = League.Format.SINGLE_ELIMINATION
    label = "Single Elimination"
    description = "Single elimination — 2 seats: best-of series, the loser is out"
    menu_order = 40
