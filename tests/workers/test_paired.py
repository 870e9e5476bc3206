"""Paired comparisons (duplicate format): the plan, the statistics, and real engine games.

The engine games use the built-in bots in-process through the match runner, so the Must-show
figures (random vs greedy in the Duel; random vs itself) are measured on real play.
"""

from __future__ import annotations

from collections import Counter

import pytest

from workers import paired
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
    # Seed means of B - A: (2+4)/2 = 3, (0+2)/2 = 1, (-1+3)/2 = 1, (4+4)/2 = 4; mean 2.25.
    # Sample variance: (0.5625 + 1.5625 + 1.5625 + 3.0625) / 3 = 2.25, s.e. = sqrt(2.25/4)
    # = 0.75; t(0.975, 3) = 3.182446: interval 2.25 -/+ 2.386835 = [-0.136835, 4.636835].
    result = paired.analyse(_results([(2, 4), (0, 2), (-1, 3), (4, 4)]), rotations=2)
    assert result.seeds == 4 and result.games == 16
    assert result.mean_diff == pytest.approx(2.25)
    assert (result.ci_low, result.ci_high) == pytest.approx((-0.136835, 4.636835), abs=1e-5)
    assert result.verdict == "no difference detected at 4 seeds"
    # B ahead in 6 of the 8 paired games, ties (the 0) count half: 6.5 / 8.
    assert result.b_ahead_rate == pytest.approx(6.5 / 8)
    assert (result.win_rate_a, result.win_rate_b) == (0.0, 6 / 8)
    # Sign test over seeds: 4 positive, 0 negative: 2 * (1/2)^4 = 0.125.
    assert result.sign_test_p == pytest.approx(0.125)
    # At level 0.2 the interval excludes 0 and the sign test agrees (0.125 < 0.2): a claim.
    wider = paired.analyse(_results([(2, 4), (0, 2), (-1, 3), (4, 4)]), rotations=2, level=0.2)
    assert wider.ci_low > 0 and wider.verdict == "B is better"
    worse = _results([(-3, -4), (-2, -3), (-5, -4), (-4, -4), (-3, -3), (-2, -5)])
    worse = paired.analyse(worse, rotations=2)
    assert worse.verdict == "A is better" and worse.ci_high < 0
    assert worse.sign_test_p == pytest.approx(2 / 64)


def test_a_claim_needs_the_sign_test_too():
    # Three seeds all favour B with an interval clear of 0, but three signs cannot reach
    # p < 0.05 (2 / 8 = 0.25): no claim. A clear interval with mixed signs neither.
    few = paired.analyse(_results([(5, 5), (6, 6), (5, 6)]), rotations=2)
    assert few.ci_low > 0 and few.sign_test_p == pytest.approx(0.25)
    assert few.verdict == "no difference detected at 3 seeds"
    mixed = _results([(20, 20), (20, 20), (20, 20), (20, 20), (20, 20), (-1, -1), (-1, -1)])
    mixed = paired.analyse(mixed, rotations=2)
    assert mixed.ci_low > 0 and mixed.sign_test_p > 0.05
    assert mixed.verdict.startswith("no difference")


def test_a_seed_with_a_missing_game_is_dropped_whole():
    results = _results([(1, 1), (2, 2), (3, 3)])
    results = [r for r in results if not (r.seed_index == 1 and r.arm == "B" and r.rotation == 0)]
    result = paired.analyse(results, rotations=2)
    assert result.seeds == 2 and result.mean_diff == pytest.approx(2.0)
    with pytest.raises(ValueError, match="no seed"):
        paired.analyse([], rotations=2)


def test_statistics_helpers():
    # Student t quantiles from tables.
    for df, expected in ((1, 12.7062), (4, 2.7764), (9, 2.2622), (29, 2.0452), (120, 1.9799)):
        assert paired.t_quantile(0.975, df) == pytest.approx(expected, abs=1e-4)
    assert paired.t_cdf(0.0, 5) == pytest.approx(0.5)
    assert paired.sign_test(9, 1) == pytest.approx(22 / 1024)  # 2 * (1 + 10) / 2^10
    assert paired.sign_test(0, 0) == 1.0 and paired.sign_test(5, 5) == 1.0
    assert paired.mean_interval([3.0]) == (3.0, 3.0)


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


# --- Must show, on real Duel games ------------------------------------------------------------


def test_greedy_is_better_than_random_in_the_duel():
    result = run_local(a="random", b="greedy", opponents=["random"], mode="duel", seats=2, seeds=6)
    assert result.verdict == "B is better"
    assert 0 < result.ci_low <= result.mean_diff <= result.ci_high
    assert result.win_rate_b > result.win_rate_a
    assert result.sign_test_p == pytest.approx(2 / 2**6)  # all six seeds favour B


REPEATS = 20
LEVEL = 0.05
ALLOWED_FALSE_CLAIMS = int(REPEATS * LEVEL)  # one in twenty at 5 %


def test_random_against_itself_finds_no_difference_as_often_as_the_level_allows():
    verdicts = [
        run_local(
            a="random", b="random", opponents=["random"], mode="duel", seats=2, seeds=10,
            base_seed=1000 + repeat, level=LEVEL,
        ).verdict
        for repeat in range(REPEATS)
    ]  # fmt: skip
    assert verdicts[0] == "no difference detected at 10 seeds"
    claims = sum(1 for v in verdicts if not v.startswith("no difference"))
    assert claims <= ALLOWED_FALSE_CLAIMS, verdicts
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
