"""Every mode is in every build: the one check that replaces the guards that used to leave a
mode out of lists (forms, error messages, test parameters) when it failed to import."""

from __future__ import annotations

from engine import available_modes, mode_class
from website.forms import mode_choices


def test_every_mode_is_available() -> None:
    assert available_modes() == ["standard", "family", "solo", "duel"]
    for mode in available_modes():
        assert mode_class(mode).game_type.min_seats >= 1
    assert [mode for mode, _ in mode_choices()] == available_modes()
