"""The SPRT of paired comparisons (competition/sprt.py): the LLR by hand, its bounds, the interval
that agrees with the verdict, bad settings, and the simulation of its error rate.

The simulation draws group scores from the pentanomial of real random-against-random Duel
pairs played here by the engine (symmetrised: two copies of one bot are exchangeable, so Elo
0 is the truth), runs 200 SPRTs on them and checks the false-positive rate against α with a
binomial bound; greedy against random is played for real and stops early.
"""

from __future__ import annotations

import math
import random

import pytest

from competition import paired_stats as paired
from competition import sprt
from workers.paired_play import game_spec, result_of, run_local
from workers.runner import run_match

DEFAULT = sprt.SprtSettings()


def test_defaults_bounds_and_the_elo_scale():
    assert (DEFAULT.elo0, DEFAULT.elo1, DEFAULT.alpha, DEFAULT.beta) == (0, 40, 0.05, 0.05)
    assert DEFAULT.lower == pytest.approx(math.log(0.05 / 0.95))
    assert DEFAULT.upper == pytest.approx(math.log(0.95 / 0.05))
    assert sprt.score_of_elo(0) == 0.5
    assert sprt.elo_of_score(sprt.score_of_elo(40)) == pytest.approx(40)
    assert sprt.group_values(2) == [0, 0.25, 0.5, 0.75, 1]
    assert sprt.counts_of([0, 1, 0.5, 0.75, 1], 2) == [1, 0, 1, 1, 2]


def test_llr_by_hand_on_a_trinomial():
    """One rotation (solo): scores 0 and 1 only, 6 of 10 won. The constrained MLE of a
    distribution on {0, 1} with mean s is just (1 - s, s), so the LLR is the binomial one:
    6 ln(s1/s0) + 4 ln((1 - s1)/(1 - s0)) (the never-seen draw's regularised count barely
    moves it)."""
    s0, s1 = sprt.score_of_elo(0), sprt.score_of_elo(40)
    expected = 6 * math.log(s1 / s0) + 4 * math.log((1 - s1) / (1 - s0))
    assert sprt.llr([4, 0, 6], 1, DEFAULT) == pytest.approx(expected, abs=1e-3)


@pytest.mark.parametrize(
    "counts",
    [[0, 0, 0, 0, 30], [30, 0, 0, 0, 0], [10, 5, 40, 9, 20], [20, 8, 40, 4, 10], [1, 0, 2, 0, 1]],
)
@pytest.mark.parametrize("settings", [DEFAULT, sprt.SprtSettings(-10, 5, 0.2, 0.01)])
def test_the_interval_agrees_with_the_decision(counts, settings):
    state = sprt.evaluate(counts, 2, settings)
    assert state.elo_low <= state.elo <= state.elo_high
    if state.decision == sprt.H1:
        assert state.elo_low > settings.elo0
    if state.decision == sprt.H0:
        assert state.elo_high < settings.elo1
    verdict = sprt.verdict(state, capped=True)
    assert verdict.startswith({"H1": "H1 accepted", "H0": "H0 accepted", None: "inconclusive"}[
        state.decision
    ])


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ((5, 5, 0.05, 0.05), "elo0 (5) must be below elo1 (5)"),
        ((10, 2, 0.05, 0.05), "elo0 (10) must be below elo1 (2)"),
        ((0, 5, 0.5, 0.05), "alpha must be between 0 and 0.5"),
        ((0, 5, 0.05, 0), "beta must be between 0 and 0.5"),
        ((0, math.inf, 0.05, 0.05), "elo1 must be a number"),
    ],
)
def test_bad_settings_are_one_plain_error(values, message):
    with pytest.raises(sprt.BadSprt, match=re_escape(message)):
        sprt.SprtSettings(*values)


def re_escape(text: str) -> str:
    import re

    return re.escape(text)


def _real_pentanomial(seeds: int, base_seed: int) -> list[int]:
    """Random against random in the Duel, played by the engine: the counts of pair scores."""
    cells = {}
    for game in paired.plan(seeds=seeds, seats=2, opponents=1, base_seed=base_seed):
        spec = game_spec(game, mode="duel", a="random", b="random", opponents=["random"])
        cells[game.seed_index, game.rotation, game.arm] = result_of(game, run_match(spec).result)
    groups = [
        sum(sprt.outcome(cells[i, r, "B"].score, cells[i, r, "A"].score) for r in range(2)) / 2
        for i in range(seeds)
    ]
    return sprt.counts_of(groups, 2)


RUNS = 200
CAP = 2000  # seeds: far above the test's usual length, so the cap hardly ever decides


def binomial_upper(n: int, p: float, tail: float) -> int:
    """The least k with P(X > k) <= tail for X ~ Binomial(n, p)."""
    cumulative = 0.0
    for k in range(n + 1):
        cumulative += math.comb(n, k) * p**k * (1 - p) ** (n - k)
        if 1 - cumulative <= tail:
            return k
    return n


def test_false_positives_over_200_runs_of_random_against_random_stay_within_alpha():
    counts = _real_pentanomial(seeds=150, base_seed=777)
    assert counts[0] > 0 and counts[4] > 0 and counts[2] > 0  # real noise in every direction
    probs = sprt.symmetric(counts)
    rng = random.Random(2026)
    runs = [sprt.simulate(probs, 2, DEFAULT, cap=CAP, rng=rng) for _ in range(RUNS)]
    false_positives = sum(1 for decision, _ in runs if decision == sprt.H1)
    # Binomial(200, 0.05) exceeds 21 with chance below 0.1 %: more false positives than that
    # would mean the test's rate is above alpha.
    assert false_positives <= binomial_upper(RUNS, DEFAULT.alpha, 0.001) == 21, false_positives
    assert sum(1 for decision, _ in runs if decision == sprt.H0) >= RUNS - 20
    assert all(n < CAP for _, n in runs)


def test_greedy_against_random_stops_early_on_real_games():
    result = run_local(a="random", b="greedy", opponents=["random"], mode="duel", seats=2,
                       seeds=500, base_seed=5)  # fmt: skip
    assert result.decision == sprt.H1 and not result.capped
    assert result.games <= 200 < 500 * 4  # a few dozen pairs, not the cap's 2000 games
    assert result.course[-1][2] >= result.llr_upper > result.course[-2][2]


@pytest.mark.parametrize(("probs", "counts"), [
    ([0.05, 0.1, 0.3, 0.3, 0.25], [1, 2, 6, 6, 5]),  # B clearly stronger: H1 comes
    ([0.1, 0.2, 0.4, 0.2, 0.1], [1, 2, 4, 2, 1]),  # no difference: H0 comes, slowly
])
def test_the_expected_length_matches_simulated_runs(probs, counts):
    """``groups_left`` (the progress line's ETA) at a state whose estimate is the truth
    agrees with the mean length of simulated runs of that truth, within a quarter."""
    rng = random.Random(7)
    runs = [sprt.simulate(probs, 2, DEFAULT, cap=CAP, rng=rng)[1] for _ in range(150)]
    simulated = sum(runs) / len(runs)
    expected = sum(counts) + sprt.groups_left(counts, 2, DEFAULT, CAP)
    assert 0.75 * simulated <= expected <= 1.25 * simulated, (expected, simulated)
    assert expected < CAP / 2  # far from the cap the old ETA was computed against


def test_the_expected_length_is_none_without_an_estimate_and_never_past_the_cap():
    assert sprt.groups_left([0, 0, 0, 0, 0], 2, DEFAULT, CAP) is None
    assert sprt.groups_left([1, 2, 4, 2, 1], 2, DEFAULT, 12) == 12 - 10  # the cap bounds it
    decided = [0, 0, 1, 5, 30]
    assert sprt.llr(decided, 2, DEFAULT) >= DEFAULT.upper
    assert sprt.groups_left(decided, 2, DEFAULT, CAP) == 0
