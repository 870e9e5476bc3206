"""The pure bracket functions (competition/bracket_plan.py): plans, byes, series and tables."""

from __future__ import annotations

from competition import bracket_plan as b


def test_seed_positions_put_the_top_seeds_apart():
    assert b.seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert b.bracket_size(5) == 8 and b.bracket_size(2) == 2 and b.bracket_size(8) == 8


def test_single_elimination_of_five_gives_the_byes_to_the_top_three():
    plan = b.elimination_plan(b.SINGLE, 5)
    first = [s for s in plan if s.round == 1]
    byes = [s for s in first if any(x.kind == "seed" and x.ref > 5 for x in s.sources)]
    assert sorted(x.ref for s in byes for x in s.sources if x.ref <= 5) == [1, 2, 3]
    assert [s.key for s in plan][-1] == "W3-1"


def test_double_elimination_of_eight_has_losers_rounds_and_a_reset():
    plan = b.elimination_plan(b.DOUBLE, 8)
    keys = [s.key for s in plan]
    assert sum(1 for s in plan if s.stage == b.WINNERS) == 7
    assert sum(1 for s in plan if s.stage == b.LOSERS) == 6  # 2 + 2 + 1 + 1
    assert keys[-2:] == ["GF", "GF2"]
    # every source comes earlier in the plan
    seen = set()
    for s in plan:
        for x in s.sources:
            if x.kind != "seed":
                assert x.ref in seen, (s.key, x)
        seen.add(s.key)
    # each winners' loser (the winners' final's too) drops into the losers' bracket once
    dropped = [x.ref for s in plan if s.stage == b.LOSERS for x in s.sources if x.kind == "loser"]
    assert sorted(dropped) == sorted(k for k in keys if k.startswith("W"))


def test_double_elimination_of_two_sends_the_loser_to_the_grand_final():
    plan = b.elimination_plan(b.DOUBLE, 2)
    gf = next(s for s in plan if s.key == "GF")
    assert [x.as_json() for x in gf.sources] == [["winner", "W1-1"], ["loser", "W1-1"]]


def test_best_of_three_schedules_two_then_a_decider():
    slots = [1, 2]
    assert b.series_needs(3, slots, []) == 2
    split = [b.Game((1, 2), (1, 2)), b.Game((2, 1), (1, 2))]
    assert b.series_needs(3, slots, split) == 1
    sweep = [b.Game((1, 2), (1, 2)), b.Game((2, 1), (2, 1))]
    assert b.series_needs(3, slots, sweep) == 0 and b.series_winner(slots, sweep) == 1
    # a draw and a win each: still open after best_of games, goes on one by one
    drawn = [b.Game((1, 2), (1, 1)), b.Game((2, 1), (1, 2)), b.Game((1, 2), (1, 2))]
    assert b.series_points(slots, drawn) == {1: 1.5, 2: 1.5}
    assert b.series_needs(3, slots, drawn) == 1
    # failed games count toward the cap, after which the higher seed goes through
    failed = [b.Game((1, 2))] * 6
    assert b.series_needs(3, slots, failed) == 0 and b.series_winner(slots, failed) == 1


def test_seats_swap_each_game():
    assert [b.game_order([7, 9], n) for n in range(3)] == [(7, 9), (9, 7), (7, 9)]
    assert b.game_order([1, 2, 3, 4], 1) == (2, 3, 4, 1)


def test_table_standing_by_placing_points_then_score():
    games = [b.Game((1, 2, 3, 4), (1, 2, 3, 4), (40, 30, 20, 10)),
             b.Game((2, 3, 4, 1), (1, 2, 3, 4), (40, 30, 20, 10))]  # fmt: skip
    standing = b.table_standing([1, 2, 3, 4], games)
    assert [e for e, _, _ in standing] == [2, 1, 3, 4]  # 2: 3+2=5 ... 1: 3+0=3, 3: 1+1=2 ...
    assert standing[0][1] == 5


def test_knockout_plan_fills_every_table():
    assert b.knockout_plan(16, 4, 2) == [
        b.KnockoutRound(16, 4, 0, 2), b.KnockoutRound(8, 2, 0, 2), b.KnockoutRound(4, 1, 0, 0)
    ]  # fmt: skip
    # 5 at 4 seats: one table and a bye; 3 advance so the final table is full
    assert b.knockout_plan(5, 4, 2) == [b.KnockoutRound(5, 1, 1, 3), b.KnockoutRound(4, 1, 0, 0)]
    for n in range(3, 60):
        for seats in (3, 4):
            if n < seats:
                continue
            rounds = b.knockout_plan(n, seats, 1)
            assert rounds[-1].entrants == seats
            for this, nxt in zip(rounds, rounds[1:], strict=False):
                assert nxt.entrants == this.tables * this.advance + this.byes < this.entrants


def test_knockout_tables_snake_and_byes_to_top_seeds():
    tables, byes = b.knockout_tables(list(range(1, 10)), 4, 2)
    assert byes == [1]
    assert tables == [[2, 5, 6, 9], [3, 4, 7, 8]]
