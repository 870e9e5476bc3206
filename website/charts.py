"""Rating charts as inline SVG geometry: pure arithmetic, no Django, no JavaScript.

A chart has a y axis (rating) and an x axis (matches played), tick labels on both, axis titles
and one polyline per series in the series' own colour (its bot's colour on the page).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

from .colours import PageColours

WIDTH, HEIGHT = 720, 260
LEFT, RIGHT, TOP, BOTTOM = 66, 16, 14, 44  # room for tick labels and axis titles


@dataclass(frozen=True)
class SeriesInput:
    label: str
    colour: str
    points: Sequence[tuple[float, float]]  # (x, rating), x ascending
    bot_id: int | None = None  # the bot the line is of, when it is one bot's


@dataclass(frozen=True)
class Series:
    label: str
    colour: str
    points: str  # SVG polyline "x,y x,y ..."
    last: float
    end_x: float
    end_y: float
    bot_id: int | None = None


@dataclass(frozen=True)
class Tick:
    value: str
    pos: float


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    right: float  # x pixel of the plot's right edge
    top: int
    bottom: float  # y pixel of the plot's bottom edge
    x_title: str
    y_title: str
    series: tuple[Series, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    summary: str  # what a screen reader hears


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values (1, 2 or 5 times a power of ten) covering [lo, hi]."""
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / max(1, count)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(lo / step) * step
    ticks = []
    value = first
    while value <= hi + 1e-9:
        ticks.append(round(value, 6))
        value += step
    return ticks


def rating_chart(
    series: Sequence[SeriesInput], *, x_title: str = "Rated matches played in the league",
    y_title: str = "Elo rating", width: int = WIDTH, height: int = HEIGHT,
) -> Chart | None:
    """None when there is nothing to draw."""
    series = [s for s in series if s.points]
    if not series:
        return None
    xs = [x for s in series for x, _ in s.points]
    ys = [y for s in series for _, y in s.points]
    x_lo, x_hi = min(xs), max(xs)
    if x_hi == x_lo:
        x_hi = x_lo + 1
    y_lo, y_hi = min(ys), max(ys)
    if y_hi - y_lo < 20:
        mid = (y_hi + y_lo) / 2
        y_lo, y_hi = mid - 10, mid + 10
    pad = (y_hi - y_lo) * 0.06
    y_lo, y_hi = y_lo - pad, y_hi + pad
    right, bottom = width - RIGHT, height - BOTTOM

    def px(x: float) -> float:
        return LEFT + (right - LEFT) * (x - x_lo) / (x_hi - x_lo)

    def py(y: float) -> float:
        return bottom - (bottom - TOP) * (y - y_lo) / (y_hi - y_lo)

    drawn = []
    for s in series:
        pts = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in s.points)
        x_end, y_end = s.points[-1]
        drawn.append(Series(s.label, s.colour, pts, y_end, round(px(x_end), 1),
                            round(py(y_end), 1), s.bot_id))  # fmt: skip
    x_ticks = tuple(
        Tick(f"{v:g}", round(px(v), 1)) for v in nice_ticks(x_lo, x_hi, 6) if v == int(v)
    )
    y_ticks = tuple(Tick(f"{v:g}", round(py(v), 1)) for v in nice_ticks(y_lo, y_hi, 4))
    summary = f"{y_title} against {x_title.lower()}: " + "; ".join(
        f"{s.label} {s.last:.0f}" for s in drawn
    )
    return Chart(width, height, LEFT, right, TOP, bottom, x_title, y_title, tuple(drawn),
                 x_ticks, y_ticks, summary)  # fmt: skip


def league_series(lines: Sequence, colours: PageColours) -> list[SeriesInput]:
    """One series per entrant (`site_selectors.ChartLine`), highest rating first, each in its
    bot's colour on the page (the dot beside its name in the tables).

    x is the league's rated-match count (the first match that changed any rating is 1), so
    lines of entrants who joined late start where they joined.
    """
    ordered = sorted(lines, key=lambda line: -line.points[-1][2])
    return [
        SeriesInput(line.label, colours(line.bot_id), [(p[0], p[2]) for p in line.points],
                    line.bot_id)  # fmt: skip
        for line in ordered
    ]


def bot_series_by_league(
    lines: Sequence, bot_id: int, colours: PageColours
) -> dict[int, list[SeriesInput]]:
    """Per league id, one series per version of one bot: its rating after each of its games
    (x = the version's games in that league). The first version drawn is in the bot's colour,
    the others each in a colour of the page's own (`colours.PageColours`), so they are told
    apart from it and from the other bots the page shows."""
    out: dict[int, list[SeriesInput]] = {}
    for line in lines:
        points = [(p[1], p[2]) for p in line.points]
        series = out.setdefault(line.league_id, [])
        key = bot_id if not series else ("version", bot_id, line.version)
        series.append(SeriesInput(f"v{line.version}", colours(key), points))
    return out


# the stylesheet's accent, ok and bad colours
LLR_COLOUR, H1_COLOUR, H0_COLOUR = "#0b6e8a", "#1d7a3a", "#b3261e"


def llr_chart(result: dict) -> Chart | None:
    """A paired comparison's SPRT: its LLR after every seed (x: games played) and the two
    bounds it stops at, as horizontal lines; None before the first seed is read."""
    course = result.get("course") or []
    if not course or result.get("llr_upper") is None:
        return None
    end = course[-1][1]
    upper, lower = result["llr_upper"], result["llr_lower"]
    series = [
        SeriesInput(f"H1 accepted at LLR {upper:+.2f}", H1_COLOUR, [(0, upper), (end, upper)]),
        SeriesInput(f"H0 accepted at LLR {lower:+.2f}", H0_COLOUR, [(0, lower), (end, lower)]),
        SeriesInput("LLR", LLR_COLOUR, [(0, 0.0)] + [(games, llr) for _, games, llr in course]),
    ]
    chart = rating_chart(series, x_title="Games played", y_title="Log-likelihood ratio")
    if chart is None:
        return None
    summary = (f"The SPRT's log-likelihood ratio over {end} games played ends at "
               f"{course[-1][2]:+.2f}; it stops at {upper:+.2f} (H1) or {lower:+.2f} (H0).")
    return dataclasses.replace(chart, summary=summary)
