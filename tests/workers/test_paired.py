"""Paired comparisons (duplicate format): the plan, the statistics, and real engine games.

The engine games use the built-in bots in-process through the match runner, so the Must-show
figures (random vs greedy in the Duel; random vs itself) are measured on real play.
"""

from __future__ import annotations

from collections import Counter

import pytest

from competition import paired_stats as paired
from competition import sprt
from workers.paired_play import game_spec, run_local


def test_plan_plays_every_seed_in_every_rotation_with_both_arms():
    games = paired.plan(seeds=3, seats=3, opponents=2, base_seed=7)
    assert len(games) == 3 * 3 * 2
    cells = Counter((g.seed_index, g.rotation) for g in games)
    assert set(cells.values()) == {2}
    by_cell = {}
    for g in games:
        by_cell.setdefault((g.seed_index, g.rotation), {})[g.arm] = g
    for (_, r), arms in by_cell.items():
        a, b = arms["A"], arms["B"]
        assert a.seed == b.seed  # the same deal
        assert a.lineup[r] == "A" and b.lineup[r] == "B"  # the tested seat is the rotation
        others_a = [w for s, w in enumerate(a.lineup) if s != r]
        others_b = [w for s, w in enumerate(b.lineup) if s != r]
        assert others_a == others_b and sorted(others_a) == [0, 1]  # same opponents, same seats
        assert a.bot_seed != b.bot_seed  # each arm's own randomness
    # every opponent sits in every seat once per seed, and seeds have different deals
    seats_of_0 = Counter(g.lineup.index(0) for g in games if g.arm == "A" and g.seed_index == 0)
    assert set(seats_of_0) == {0, 1, 2}
    assert len({g.seed for g in games}) == 3
    assert paired.plan(seeds=3, seats=3, opponents=2, base_seed=7) == games  # reproducible
    assert paired.opponent_lineup(1, 4) == [0, 0, 0]
    with pytest.raises(ValueError, match="at least one opponent"):
        paired.plan(seeds=1, seats=2, opponents=0, base_seed=0)
    with pytest.raises(ValueError, match="at least one seed"):
        paired.plan(seeds=0, seats=2, opponents=1, base_seed=0)


def _results(diffs_by_seed, rotations=2, base=10.0):
    out = []
    for i, diffs in enumerate(diffs_by_seed):
        for r in range(rotations):
            out.append(paired.GameResult(i, r, "A", base, won=False))
            out.append(paired.GameResult(i, r, "B", base + diffs[r], won=diffs[r] > 0))
    return out


def test_analysis_by_hand():
    # Group scores: seed 0 (2, 4) -> 1, seed 1 (0, 2) -> 0.75 (a tie is half), seed 2 (-1, 3)
    # -> 0.5, seed 3 (4, 4) -> 1: pentanomial counts [0, 0, 1, 1, 2].
    result = paired.analyse(_results([(2, 4), (0, 2), (-1, 3), (4, 4)]), rotations=2, cap=4)
    assert result.seeds == 4 and result.games == 16
    assert result.counts == [0, 0, 1, 1, 2]
    assert result.mean_diff == pytest.approx(2.25)
    # B ahead in 6 of the 8 paired games, ties (the 0) count half: 6.5 / 8.
    assert result.b_ahead_rate == pytest.approx(6.5 / 8)
    assert (result.win_rate_a, result.win_rate_b) == (0.0, 6 / 8)
    assert [c[0] for c in result.course] == [1, 2, 3, 4] and result.course[-1][2] == result.llr
    assert result.decision is None and result.capped
    assert result.verdict == "inconclusive at the cap (4 seeds): neither bound reached"
    assert result.elo_low < result.elo < result.elo_high


def test_the_sprt_stops_at_the_first_seed_that_crosses_a_bound():
    # B outscores A in every rotation: the LLR climbs by the same step each seed (about 0.108
    # at the default bounds [0, 40]) and crosses ln(19) = 2.944 at the 28th seed; later seeds
    # (games already in flight) are left out of the figures.
    result = paired.analyse(_results([(3, 3)] * 40), rotations=2, cap=40)
    assert result.decision == "H1" and result.seeds == 28 and result.games == 112
    assert result.course[-2][2] < result.llr_upper <= result.llr
    assert result.verdict.startswith("H1 accepted") and result.elo_low > result.elo0
    worse = paired.analyse(_results([(-3, -3)] * 40), rotations=2, cap=40)
    assert worse.decision == "H0" and worse.elo_high < worse.elo1
    assert worse.verdict.startswith("H0 accepted")
    # upto: only seeds below it count (the server's decided prefix).
    assert paired.analyse(_results([(3, 3)] * 40), rotations=2, upto=10).seeds == 10


def test_a_seed_with_a_missing_game_is_dropped_whole():
    results = _results([(1, 1), (2, 2), (3, 3)])
    results = [r for r in results if not (r.seed_index == 1 and r.arm == "B" and r.rotation == 0)]
    result = paired.analyse(results, rotations=2)
    assert result.seeds == 2 and result.mean_diff == pytest.approx(2.0)
    with pytest.raises(ValueError, match="no seed"):
        paired.analyse([], rotations=2)


def test_paired_module_imports_neither_django_nor_the_engine():
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(paired))
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not any(n.startswith(("django", "engine", "tournament")) for n in names)


def test_game_spec_gives_the_tested_seat_its_own_seed():
    game = paired.plan(seeds=1, seats=2, opponents=1, base_seed=0)[3]  # rotation 1, arm B
    spec = game_spec(game, mode="duel", a="random", b="greedy", opponents=["random"])
    assert [s.builtin for s in spec.seats] == ["random", "greedy"]
    assert spec.seats[1].bot_seed == game.bot_seed and spec.seats[0].bot_seed is None
    assert spec.seed == game.seed


# --- on real Duel games ----------------------------------------------------------------------


def test_greedy_is_better_than_random_in_the_duel():
    result = run_local(a="random", b="greedy", opponents=["random"], mode="duel", seats=2,
                       seeds=200)  # fmt: skip
    assert result.decision == "H1" and result.verdict.startswith("H1 accepted")
    assert result.games <= 200  # stops early: a quarter of the cap (800 games) or less
    assert result.elo0 < result.elo_low <= result.elo
    assert result.win_rate_b > result.win_rate_a


def test_random_against_itself_accepts_h0_with_an_interval_that_agrees():
    """The case that used to disagree (an interval clear of 0 beside "no difference"): now one
    test gives the verdict and its interval together. The bounds are 0 and +80 Elo, twice as
    far apart as the default ones: the rule is the same at any bounds, and H0 is reached in
    about 400 games instead of 1,700."""
    result = run_local(a="random", b="random", opponents=["random"], mode="duel", seats=2,
                       seeds=500, base_seed=1000,
                       settings=sprt.SprtSettings(elo0=0.0, elo1=80.0))  # fmt: skip
    assert result.decision == "H0", result
    assert result.elo_high < result.elo1 and result.llr <= result.llr_lower
    # Not a tautology: on one deal the two copies of random really play different games
    # (each arm's own seed), while the deal itself is the same.
    from workers.runner import run_match

    arm_a, arm_b = paired.plan(seeds=1, seats=2, opponents=1, base_seed=0)[:2]
    outcomes = [
        run_match(game_spec(g, mode="duel", a="random", b="random", opponents=["random"]))
        for g in (arm_a, arm_b)
    ]
    assert outcomes[0].result["state_hash"] != outcomes[1].result["state_hash"]
    assert outcomes[0].result["seed"] == outcomes[1].result["seed"]


def test_a_seat_that_faulted_counts_no_more_than_the_tables_lowest_score():
    assert paired.tested_score([30, 12, 25], 0, faulted=False) == 30
    assert paired.tested_score([30, 12, 25], 0, faulted=True) == 12  # its default policy won
    assert paired.tested_score([5, 12, 25], 0, faulted=True) == 5  # already the lowest


def test_a_crashing_bot_never_profits_from_its_fault_in_a_comparison():
    """B crashes at startup in every game and its seat is played by the default policy: B
    never wins a game and never scores above its opponent, whatever the default policy did."""
    from pathlib import Path

    from workers.paired_play import result_of
    from workers.runner import run_match

    crasher = str(Path(__file__).parent / "hostile" / "crash_at_start.py")
    games = [g for g in paired.plan(seeds=4, seats=2, opponents=1, base_seed=0) if g.arm == "B"]
    for game in games:
        spec = game_spec(game, mode="duel", a="random", b=crasher, opponents=["random"])
        outcome = run_match(spec)
        counted = result_of(game, outcome.result)
        assert outcome.result["faulted"] == [game.tested_seat]
        assert not counted.won and counted.rank == 2
        assert counted.score == min(outcome.result["scores"])
    result = run_local(a="random", b=crasher, opponents=["random"], mode="duel", seats=2,
                       seeds=3)  # fmt: skip
    assert result.win_rate_b == 0
