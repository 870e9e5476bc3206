"""Each seat's decision times from a replay's steps (replayfile/decision_times.py)."""

from __future__ import annotations

import pytest

from replayfile.decision_times import decision_times


def test_each_seat_counts_its_own_decisions_and_longest_step():
    steps = [
        {"seat": 0, "seconds": 0.010, "cpu": 0.008},
        {"seat": 1, "seconds": 0.002},
        {"seat": 0, "seconds": 0.050, "cpu": 0.040},
        {"seat": 0, "seconds": None},  # a step without a time: a decision of no time
    ]
    first, second, third = decision_times(steps, 3)
    assert (first.decisions, first.longest_step) == (3, 3)
    assert first.total_seconds == pytest.approx(0.060)
    assert first.mean_ms == pytest.approx(20.0) and first.longest_ms == pytest.approx(50.0)
    assert first.cpu_seconds == pytest.approx(0.048)
    assert (second.decisions, second.longest_step, second.cpu_seconds) == (1, 2, None)
    assert (third.decisions, third.mean_seconds, third.longest_step) == (0, 0.0, None)
