"""bench/forward.py --rounds: each figure is the median of the rounds, per side and case."""

from __future__ import annotations

from bench.forward import _median


def test_each_figure_is_the_median_of_its_rounds() -> None:
    runs = [{"duel-2": {"clone_per_second": c, "playouts_per_second": p}}
            for c, p in ((3.0, 10.0), (1.0, 30.0), (2.0, 20.0))]
    assert _median(runs) == {"duel-2": {"clone_per_second": 2.0, "playouts_per_second": 20.0}}


def test_an_even_count_takes_the_lower_middle_figure() -> None:
    runs = [{"standard-4": {"clone_per_second": 5.0}}, {"standard-4": {"clone_per_second": 4.0}}]
    assert _median(runs) == {"standard-4": {"clone_per_second": 4.0}}
    assert _median(runs[:1]) == runs[0]
