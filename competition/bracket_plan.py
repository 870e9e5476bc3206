"""Brackets as pure functions (no Django): the plan of a single- or double-elimination
bracket, the tables of a multi-table knockout round, and how a series or a table is decided.

An elimination bracket is planned whole when it starts: every series has two *slots*, each
filled from a `Source` (a seed, or the winner or loser of an earlier series). A seed past the
number of entrants is a bye; a series with a bye in one slot is a walkover for the other, so
the byes fall to the top seeds (seed 1 meets the last position of a bracket padded to a power
of two). Byes flow on: the loser of a walkover is nobody, so the losers' bracket of a double
elimination simply skips them.

A multi-table knockout (3-4 seats, Board Game Arena style) cannot be planned whole, because who
meets whom in round r+1 depends on the places in round r; only the number of tables per round
is known in advance (`knockout_plan`). `services/brackets.py` stores and advances both.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

SINGLE = "single_elim"
DOUBLE = "double_elim"
KNOCKOUT = "knockout"

WINNERS, LOSERS, GRAND_FINAL, RESET, TABLE = "winners", "losers", "grand_final", "reset", "table"

MAX_ELIMINATION_ENTRANTS = 64
MAX_KNOCKOUT_ENTRANTS = 256
EXTRA_GAMES_FACTOR = 2  # a drawn-out series stops after this many times best-of games


@dataclass(frozen=True)
class Source:
    """Where a slot's entrant comes from: ("seed", 3), ("winner", "W1-2"), ("loser", "W1-2")."""

    kind: str
    ref: int | str

    def as_json(self) -> list:
        return [self.kind, self.ref]

    def label(self) -> str:
        if self.kind == "seed":
            return f"seed {self.ref}"
        return f"{self.kind} of {self.ref}"


@dataclass(frozen=True)
class SeriesPlan:
    key: str
    stage: str
    round: int
    position: int
    sources: tuple[Source, ...] = field(default_factory=tuple)


def bracket_size(entrants: int) -> int:
    """The power of two a bracket of `entrants` is padded to (at least 2)."""
    return max(2, 1 << (max(entrants, 1) - 1).bit_length())


def seed_positions(size: int) -> list[int]:
    """Seeds in bracket order, so the top seeds meet last: 8 -> 1 8 4 5 2 7 3 6."""
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [s for x in order for s in (x, n + 1 - x)]
    return order


def _winners_rounds(size: int) -> list[list[SeriesPlan]]:
    rounds: list[list[SeriesPlan]] = []
    positions = seed_positions(size)
    first = [
        SeriesPlan(f"W1-{i + 1}", WINNERS, 1, i + 1,
                   (Source("seed", positions[2 * i]), Source("seed", positions[2 * i + 1])))
        for i in range(size // 2)
    ]  # fmt: skip
    rounds.append(first)
    r = 1
    while len(rounds[-1]) > 1:
        r += 1
        prev = rounds[-1]
        rounds.append(
            [
                SeriesPlan(
                    f"W{r}-{i + 1}",
                    WINNERS,
                    r,
                    i + 1,
                    (Source("winner", prev[2 * i].key), Source("winner", prev[2 * i + 1].key)),
                )
                for i in range(len(prev) // 2)
            ]  # fmt: skip
        )
    return rounds


def elimination_plan(kind: str, entrants: int) -> list[SeriesPlan]:
    """Every series of a single- or double-elimination bracket, in an order in which each
    series comes after the series its slots come from."""
    size = bracket_size(entrants)
    winners = _winners_rounds(size)
    plan = [s for rnd in winners for s in rnd]
    if kind == SINGLE:
        return plan
    depth = len(winners)  # log2(size)
    losers: list[list[SeriesPlan]] = []
    if depth >= 2:
        w1 = winners[0]
        losers.append(
            [
                SeriesPlan(
                    f"L1-{i + 1}",
                    LOSERS,
                    1,
                    i + 1,
                    (Source("loser", w1[2 * i].key), Source("loser", w1[2 * i + 1].key)),
                )
                for i in range(len(w1) // 2)
            ]  # fmt: skip
        )
        for j in range(1, depth):
            # even round 2j: the survivors meet the losers of winners' round j+1, crossed over
            # on alternate rounds so early opponents do not meet again at once
            prev, dropping = losers[-1], winners[j]
            if j % 2 == 0:
                dropping = list(reversed(dropping))
            r = 2 * j
            losers.append(
                [
                    SeriesPlan(
                        f"L{r}-{i + 1}",
                        LOSERS,
                        r,
                        i + 1,
                        (Source("winner", prev[i].key), Source("loser", dropping[i].key)),
                    )
                    for i in range(len(prev))
                ]  # fmt: skip
            )
            if j < depth - 1:  # odd round 2j+1: the survivors meet each other
                prev = losers[-1]
                r = 2 * j + 1
                losers.append(
                    [
                        SeriesPlan(
                            f"L{r}-{i + 1}",
                            LOSERS,
                            r,
                            i + 1,
                            (
                                Source("winner", prev[2 * i].key),
                                Source("winner", prev[2 * i + 1].key),
                            ),
                        )
                        for i in range(len(prev) // 2)
                    ]  # fmt: skip
                )
        # order of play: each losers' round after the winners' round that feeds it
        plan = []
        for i, rnd in enumerate(winners):
            plan.extend(rnd)
            if i == 0:
                plan.extend(losers[0])
            else:
                plan.extend(losers[2 * i - 1])
                if 2 * i < len(losers):
                    plan.extend(losers[2 * i])
        losers_final = Source("winner", losers[-1][0].key)
    else:  # two entrants: the loser of the only series is the losers' finalist
        losers_final = Source("loser", winners[0][0].key)
    winners_final = Source("winner", winners[-1][0].key)
    plan.append(SeriesPlan("GF", GRAND_FINAL, 1, 1, (winners_final, losers_final)))
    plan.append(SeriesPlan("GF2", RESET, 2, 1, (Source("winner", "GF"), Source("loser", "GF"))))
    return plan


# --- deciding a series ------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """One finished game of a series: the entrants in seat order and their ranks (1 best),
    scores (may be None) — or `ranks` empty for a game that failed and counts for nobody."""

    order: tuple[int, ...]
    ranks: tuple[int, ...] = ()
    scores: tuple[float | None, ...] = ()


def series_points(slots: Sequence[int], games: Sequence[Game]) -> dict[int, float]:
    """Two-seat series: a win 1, a draw 1/2 for each entrant."""
    points = {e: 0.0 for e in slots}
    for g in games:
        if not g.ranks:
            continue
        by_entry = dict(zip(g.order, g.ranks, strict=True))
        best = min(by_entry.values())
        winners = [e for e, r in by_entry.items() if r == best]
        for e in winners:
            points[e] += 1.0 / len(winners)
    return points


def series_needs(best_of: int, slots: Sequence[int], games: Sequence[Game]) -> int:
    """How many more games a best-of series needs before it can be decided (0: decided).

    First to more than half of `best_of` points wins; games are scheduled in parallel as far as
    they are certain to be needed. Draws can leave it open after `best_of` games: it then goes
    on one game at a time, up to EXTRA_GAMES_FACTOR x best_of games, after which the higher
    seed goes through (`series_winner`)."""
    points = series_points(slots, games)
    need = best_of / 2
    lead = max(points.values())
    if lead > need or len(games) >= EXTRA_GAMES_FACTOR * best_of:
        return 0
    return max(1, math.ceil(need + 0.5 - lead - 1e-9))


def series_winner(slots: Sequence[int], games: Sequence[Game]) -> int:
    """The winner of a decided two-seat series: most points, then the higher seed (slot 0
    holds the higher seed)."""
    points = series_points(slots, games)
    return max(slots, key=lambda e: (points[e], -slots.index(e)))


def game_order(slots: Sequence[int], number: int) -> tuple[int, ...]:
    """The seat order of game `number` (0-based): the seats rotate each game (swapped in a
    two-seat series), so every entrant has each seat as often as the games allow."""
    shift = number % len(slots)
    return tuple(slots[shift:]) + tuple(slots[:shift])


def table_standing(slots: Sequence[int], games: Sequence[Game]) -> list[tuple[int, float, float]]:
    """A knockout table's standing: (entrant, points, score) best first. Each game gives
    seats - rank points (3-2-1-0 at four seats, shared ranks alike); ties are broken by the
    total score, then by the seed (slot order)."""
    seats = len(slots)
    points = {e: 0.0 for e in slots}
    score = {e: 0.0 for e in slots}
    for g in games:
        if not g.ranks:
            continue
        for e, r, s in zip(g.order, g.ranks, g.scores or [None] * len(g.order), strict=True):
            points[e] += seats - r
            score[e] += s or 0.0
    ranked = sorted(slots, key=lambda e: (-points[e], -score[e], slots.index(e)))
    return [(e, points[e], score[e]) for e in ranked]


# --- multi-table knockout ---------------------------------------------------------------------


@dataclass(frozen=True)
class KnockoutRound:
    entrants: int
    tables: int
    byes: int  # the top seeds who go straight to the next round
    advance: int  # per table


def knockout_plan(entrants: int, seats: int, advance: int) -> list[KnockoutRound]:
    """The rounds of a knockout: as many full tables as fit, the rest (the top seeds) a bye;
    the top `advance` of each table go on, more when fewer would not fill the next round's
    table. Ends with one table of `seats`, which decides the podium."""
    rounds = []
    n = entrants
    while True:
        if n == seats:
            rounds.append(KnockoutRound(n, 1, 0, 0))
            return rounds
        tables = n // seats
        byes = n - tables * seats
        per_table = min(seats - 1, max(advance, math.ceil((seats - byes) / tables)))
        rounds.append(KnockoutRound(n, tables, byes, per_table))
        n = tables * per_table + byes


def knockout_tables(
    ranked: Sequence[int], seats: int, tables: int
) -> tuple[list[list[int]], list[int]]:
    """Seat a round: the entrants in seed order (best first); the top ones past the full
    tables get a bye; the rest are dealt to the tables in a snake (1 2 3 3 2 1 …) so every
    table is as strong as the others."""
    byes = len(ranked) - tables * seats
    bye_list = list(ranked[:byes])
    playing = list(ranked[byes:])
    out: list[list[int]] = [[] for _ in range(tables)]
    for i, e in enumerate(playing):
        lap, pos = divmod(i, tables)
        out[pos if lap % 2 == 0 else tables - 1 - pos].append(e)
    return out, bye_list
