"""The arena's statistics against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from arena.stats import elo_from_pairs, mean_interval, pair_results, wilson


def test_wilson_interval() -> None:
    low, high = wilson(8, 10)
    assert (round(low, 3), round(high, 3)) == (0.49, 0.943)
    assert wilson(0, 20)[0] == 0.0 and wilson(0, 20)[1] == pytest.approx(0.1611, abs=1e-4)
    assert wilson(20, 20)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_interval() -> None:
    mean, low, high = mean_interval([1, 2, 3, 4])
    assert mean == 2.5 and high - mean == pytest.approx(1.959964 * math.sqrt(5 / 3 / 4))
    assert mean - low == pytest.approx(high - mean)
    assert mean_interval([7]) == (7, 7, 7)
    assert all(math.isnan(x) for x in mean_interval([]))


def test_pair_results_by_rank_skipping_a_bot_against_itself() -> None:
    # seats held by bots 0, 1, 0, 2 with ranks 1, 2, 2, 4
    assert pair_results([0, 1, 0, 2], [1, 2, 2, 4]) == [
        (0, 1, 1.0), (0, 2, 1.0), (1, 0, 0.5), (1, 2, 1.0), (0, 2, 1.0),
    ]  # fmt: skip


def test_elo_hand_computed() -> None:
    # 3 wins, 1 loss, plus one virtual draw: 3.5 of 5 points, odds 7:3.
    a, b = elo_from_pairs(2, [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)])
    assert a - b == pytest.approx(400 * math.log10(7 / 3), abs=1e-6)
    assert (a + b) / 2 == pytest.approx(1500)


def test_elo_of_a_cycle_is_flat_and_order_free() -> None:
    cycle = [(0, 1, 1.0), (1, 2, 1.0), (2, 0, 1.0)]
    assert elo_from_pairs(3, cycle) == pytest.approx([1500.0] * 3)
    assert elo_from_pairs(3, cycle[::-1]) == pytest.approx(elo_from_pairs(3, cycle))


def test_elo_orders_a_transitive_field_and_stays_finite() -> None:
    results = [(0, 1, 1.0)] * 10 + [(1, 2, 1.0)] * 10 + [(0, 2, 1.0)] * 10
    ratings = elo_from_pairs(3, results)
    assert ratings[0] > ratings[1] > ratings[2]
    assert all(math.isfinite(r) for r in ratings)
    assert elo_from_pairs(1, []) == [1500.0]
