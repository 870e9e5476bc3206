"""The Swiss pairing's promise, checked by hypothesis against a brute force: a round never
pairs two entrants who met before when some pairing of the whole round avoids every repeat.

Fields stay small enough (up to ten entrants at duels, nine at tables of three, eight at tables
of four) for the brute force to list every way to split them into tables, and for the pairing's
own search to finish inside its limit, where it promises the repeat-free round.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from competition.swiss import pair_round, repeat_pairs

FIELDS = {2: (4, 6, 8, 10), 3: (6, 9), 4: (8,)}


def all_rounds(players: Sequence[Hashable], seats: int):
    """Every split of ``players`` into tables of ``seats`` (the first player's table first)."""
    if not players:
        yield []
        return
    first, rest = players[0], list(players[1:])
    for companions in itertools.combinations(rest, seats - 1):
        left = [p for p in rest if p not in companions]
        for tail in all_rounds(left, seats):
            yield [(first, *companions), *tail]


@st.composite
def swiss_rounds(draw):
    seats = draw(st.sampled_from(sorted(FIELDS)))
    size = draw(st.sampled_from(FIELDS[seats]))
    players = list(range(size))
    earlier = draw(st.integers(min_value=0, max_value=4))
    history = []
    for _ in range(earlier):  # earlier rounds: any split of the field into tables
        order = draw(st.permutations(players))
        history += [tuple(order[i:i + seats]) for i in range(0, size, seats)]
    standing = draw(st.permutations(players))
    points = {p: draw(st.integers(min_value=0, max_value=3 * earlier)) for p in players}
    return seats, list(standing), history, points


@settings(max_examples=150, deadline=None)
@given(swiss_rounds())
def test_a_round_repeats_no_pair_when_a_repeat_free_round_exists(drawn) -> None:
    seats, standing, history, points = drawn
    tables = pair_round(standing, seats, history, points)
    assert sorted(p for table in tables for p in table) == sorted(standing)  # everyone, once
    clean_exists = any(repeat_pairs(r, history) == 0 for r in all_rounds(standing, seats))
    if clean_exists:
        assert repeat_pairs(tables, history) == 0
    else:  # the fewest repeats the pairing finds is still a whole round
        assert all(len(table) == seats for table in tables)


def test_the_brute_force_lists_every_round() -> None:
    """Its count is the number of ways to split 2n entrants into pairs, (2n-1)!!."""
    assert sum(1 for _ in all_rounds(list(range(8)), 2)) == 7 * 5 * 3
    assert sum(1 for _ in all_rounds(list(range(9)), 3)) == 280
