"""Rating-history charts as inline SVG data: pure arithmetic, no Django.

Each series is one entrant's rating after each of its rated matches, placed on a shared
x axis (the order of all rating changes in the league) so series can be compared.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

PALETTE = ("#1d6fa5", "#d64541", "#3fa34d", "#8e5cc2", "#f08a24", "#2aa198", "#b58900",
           "#6c71c4", "#cb4b16", "#859900")


@dataclass(frozen=True)
class Series:
    label: str
    colour: str
    points: str  # SVG polyline "x,y x,y ..."
    last: float


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    series: tuple[Series, ...]
    y_min: float
    y_max: float
    y_ticks: tuple[tuple[float, float], ...]  # (value, y pixel)


def rating_chart(
    changes: Iterable[tuple[str, float, float]], *, width: int = 640, height: int = 220,
    pad: int = 30,
) -> Chart | None:
    """``changes``: ``(label, before, after)`` in the order they happened. None if empty."""
    rows = list(changes)
    if not rows:
        return None
    paths: dict[str, list[tuple[int, float]]] = {}
    for i, (label, before, after) in enumerate(rows, start=1):
        path = paths.setdefault(label, [(0, before)])
        path.append((i, after))
    values = [v for path in paths.values() for _, v in path]
    lo, hi = min(values), max(values)
    if hi - lo < 20:
        mid = (hi + lo) / 2
        lo, hi = mid - 10, mid + 10
    n = len(rows)

    def px(i: int) -> float:
        return pad + (width - 2 * pad) * i / n

    def py(v: float) -> float:
        return height - pad - (height - 2 * pad) * (v - lo) / (hi - lo)

    series = []
    for k, (label, path) in enumerate(sorted(paths.items())):
        pts = " ".join(f"{px(i):.1f},{py(v):.1f}" for i, v in path)
        series.append(Series(label, PALETTE[k % len(PALETTE)], pts, path[-1][1]))
    ticks = tuple((round(v), round(py(v), 1)) for v in _ticks(lo, hi))
    return Chart(width, height, tuple(series), lo, hi, ticks)


def _ticks(lo: float, hi: float, count: int = 4) -> Sequence[float]:
    step = (hi - lo) / count
    return [lo + step * i for i in range(count + 1)]
