"""Knockout: a multi-table bracket for 3 and 4 seats. Each round seats tables of the seats by
seed (the byes go on at once), each table plays `best_of` games with the seats rotating, and
the top `advance` of each table go on, until the final table."""

from __future__ import annotations

from collections.abc import Sequence

from competition import bracket_plan as plan

from ..errors import Faults
from ..models import Bracket, BracketSeries, League
from .bracket import DONE, BracketFormat

MAX_TABLE_GAMES = 12


class Knockout(BracketFormat):
    key = League.Format.KNOCKOUT
    label = "Knockout"
    description = "Knockout — 3-4 seats: tables of the seats, the top of each table go on"
    menu_order = 60
    most_entrants = plan.MAX_KNOCKOUT_ENTRANTS

    def least_of(self, seats: int) -> int:
        return seats

    def default_best_of(self, seats: int) -> int:
        return seats  # one game per seat

    def _shape_problems(self, faults: Faults, seats: int, best_of: int | None) -> None:
        if seats not in (3, 4):
            faults.add("seats", "A knockout is for 3- and 4-seat modes; use an elimination "
                       "bracket for 2 seats.", "3 or 4 seats only")  # fmt: skip
        if best_of is not None and not 1 <= best_of <= MAX_TABLE_GAMES:
            faults.add("best_of", f"Best of: a knockout table plays 1 to {MAX_TABLE_GAMES} "
                       "games.", f"1..{MAX_TABLE_GAMES}")  # fmt: skip

    def _advance_problems(self, faults: Faults, seats: int, advance: int | None) -> None:
        if seats in (3, 4) and advance is not None and not 1 <= advance < seats:
            faults.add("advance", f"Advance per table (how many of each table go on) must be "
                       f"{_one_to(seats - 1)} at {seats} seats.", f"1..{seats - 1}")  # fmt: skip

    def _first_round(self, league: League, bracket: Bracket, entrants: int) -> None:
        _seat_round(league, bracket, 1, bracket.seeds)

    def _next_round(self, league: League, bracket: Bracket, rows: dict[str, BracketSeries]) -> bool:
        """Seat the next round once every table of this one is decided."""
        number = max(s.round for s in rows.values())
        this_round = [s for s in rows.values() if s.round == number]
        if any(s.status != DONE for s in this_round):
            return False
        rounds = plan.knockout_plan(len(bracket.seeds), league.seats, bracket.advance)
        if number >= len(rounds):
            return False
        seed_index = {e: i for i, e in enumerate(bracket.seeds)}
        going: list[tuple[int, int, int]] = []  # (place at its table, seed, entry); a bye: 0
        for s in this_round:
            for place, e in enumerate(s.order[: s.advance], start=1):
                going.append((0 if s.stage == "bye" else place, seed_index[e], e))
        _seat_round(league, bracket, number + 1, [e for _, _, e in sorted(going)])
        return True

    def _finished(self, rows: dict[str, BracketSeries]) -> bool:
        final = [s for s in rows.values() if s.stage == plan.TABLE and s.advance == 0]
        return bool(final) and final[0].status == DONE


def _one_to(most: int) -> str:
    """"1" or "from 1 to 3": a range of whole numbers as a sentence says it."""
    return "1" if most == 1 else f"from 1 to {most}"


def _seat_round(league: League, bracket: Bracket, number: int, ranked: Sequence[int]) -> None:
    rounds = plan.knockout_plan(len(bracket.seeds), league.seats, bracket.advance)
    this = rounds[number - 1]
    tables, byes = plan.knockout_tables(list(ranked), league.seats, this.tables)
    final = number == len(rounds)
    rows = [
        BracketSeries(bracket=bracket, key=f"R{number}-T{i + 1}", stage=plan.TABLE,
                      round=number, position=i + 1, slots=list(table),
                      status=BracketSeries.Status.PLAYING,
                      advance=0 if final else this.advance)
        for i, table in enumerate(tables)
    ]  # fmt: skip
    if byes:
        rows.append(
            BracketSeries(bracket=bracket, key=f"R{number}-B", stage="bye", round=number,
                          position=len(tables) + 1, slots=list(byes), order=list(byes),
                          status=DONE, advance=len(byes))
        )  # fmt: skip
    BracketSeries.objects.bulk_create(rows)
    league.current_round = number
    league.save(update_fields=["current_round"])
