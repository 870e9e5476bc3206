"""Colours of bots: one per bot on every page (its dot beside its name), and, inside one chart
or one match, colours that are told apart at a glance.

A colour from the bot's id alone (`bot_colour`) lands two bots of one league on neighbouring
hues often enough (two greens, two magentas in one Swiss), so a chart colours its lines with
`distinct_colours`: the palette below in order, whose first eight are at least ΔE 25 (CIE76)
apart and each readable on white (4.5:1), then hues from the id for a ninth bot and beyond."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

GOLDEN_ANGLE = 137.508  # successive ids land far apart on the colour wheel

# Dark enough for text on white (4.5:1), far apart from each other (tests/website/test_colours).
PALETTE = (
    "#1f5f99",  # blue
    "#c0392b",  # red
    "#1e7a35",  # green
    "#7b3fa0",  # purple
    "#8a5a00",  # ochre
    "#00727d",  # teal
    "#b0186e",  # magenta
    "#3d4852",  # slate
    "#5d6b00",  # olive
    "#a04000",  # rust
)


def bot_hue(bot_id: int) -> int:
    return round((bot_id * GOLDEN_ANGLE) % 360)


def bot_colour(bot_id: int) -> str:
    """A mid-dark HSL colour: lines read on white, text on it is checked by axe (4.5:1)."""
    return f"hsl({bot_hue(bot_id)} 70% 36%)"


def distinct_colours(keys: Iterable[Hashable]) -> dict[Hashable, str]:
    """A colour per key (bots of one chart, in the order given: the ladder's), all distinct:
    the palette first, then the id's hue for keys past its end."""
    out: dict[Hashable, str] = {}
    for i, key in enumerate(dict.fromkeys(keys)):
        if i < len(PALETTE):
            out[key] = PALETTE[i]
        else:
            out[key] = bot_colour(key if isinstance(key, int) else i)
    return out
