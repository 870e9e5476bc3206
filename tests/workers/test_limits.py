"""Limits: defaults, validation with readable errors, partial overrides."""

from __future__ import annotations

import pytest

from competition.limits import Limits


def test_defaults_are_the_documented_ones() -> None:
    limits = Limits()
    assert (limits.decision_seconds, limits.bank_seconds) == (1.0, 30.0)
    assert limits.reply_bytes == 1 << 20 and limits.debug_chars == 200
    assert (limits.stderr_lines, limits.stderr_bytes) == (50, 8192)


def test_from_json_and_back() -> None:
    limits = Limits.from_json({"decision_seconds": 0.5, "memory_mb": 128})
    assert limits.decision_seconds == 0.5 and limits.memory_mb == 128
    assert Limits.from_json(limits.to_json()) == limits
    assert Limits.from_json(None) == Limits()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"decision_secs": 1}, "unknown limit(s) ['decision_secs']"),
        ({"decision_seconds": -1}, "must be positive"),
        ({"decision_seconds": 0}, "must be positive"),
        ({"memory_mb": 1.5}, "must be an integer"),
        ({"memory_mb": True}, "must be a number"),
        ({"bank_seconds": "30"}, "must be a number"),
    ],
)
def test_bad_limits_are_rejected_with_a_reason(data: dict, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        Limits.from_json(data)
    assert message in str(caught.value)


def test_a_zero_bank_is_allowed() -> None:
    assert Limits(bank_seconds=0).bank_seconds == 0


def test_override_keeps_what_is_none() -> None:
    limits = Limits().override(decision_seconds=2.0, bank_seconds=None, memory_mb=64)
    assert (limits.decision_seconds, limits.bank_seconds, limits.memory_mb) == (2.0, 30.0, 64)


def test_protocol_view_hides_internal_limits() -> None:
    view = Limits().protocol_view()
    assert view["decision_seconds"] == 1.0 and "stderr_lines" not in view
