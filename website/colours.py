"""A bot's colour, derived from its id so it is the same on every page, chart and league."""

from __future__ import annotations

GOLDEN_ANGLE = 137.508  # successive ids land far apart on the colour wheel


def bot_hue(bot_id: int) -> int:
    return round((bot_id * GOLDEN_ANGLE) % 360)


def bot_colour(bot_id: int) -> str:
    """A mid-dark HSL colour: lines read on white, text on it is checked by axe (4.5:1)."""
    return f"hsl({bot_hue(bot_id)} 70% 36%)"
