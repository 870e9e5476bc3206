"""The "who was winning" chart of an analysed match as inline SVG geometry: pure arithmetic,
no Django, drawn like website/charts.py (same margins, grid, axis titles and classes) with
each seat's chance of winning (0-100 %) at each analysed point, x being the step, and a mark
at each blunder (replayfile/win_chances.py) that links to its step."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .charts import BOTTOM, LEFT, RIGHT, TOP, Tick, nice_ticks

WIDTH, HEIGHT = 720, 260


@dataclass(frozen=True)
class ChanceLine:
    seat: int
    label: str
    colour: str  # a CSS colour: the seat's (var(--seat-N))
    points: str  # SVG polyline "x,y x,y ..."
    dots: tuple[tuple[float, float], ...]
    last: float  # the final chance, in percent


@dataclass(frozen=True)
class BlunderMark:
    seat: int
    label: str
    frame: int
    x: float
    y: float
    text: str  # what the mark says: who, which day, from and to


@dataclass(frozen=True)
class ChancesChart:
    width: int
    height: int
    left: int
    right: float
    top: int
    bottom: float
    x_title: str
    y_title: str
    lines: tuple[ChanceLine, ...]
    blunders: tuple[BlunderMark, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    day_ticks: tuple[Tick, ...]
    summary: str
    frames: int  # the game's last frame (the x axis' end)


def _pct(value: float) -> str:
    return f"{value * 100:.0f}%"


@dataclass(frozen=True)
class _Axes:
    """The plot area: steps 0..``last_frame`` across, chances 0..1 up."""

    right: float
    bottom: float
    last_frame: int

    def px(self, frame: float) -> float:
        return round(LEFT + (self.right - LEFT) * frame / self.last_frame, 1)

    def py(self, chance: float) -> float:
        return round(self.bottom - (self.bottom - TOP) * chance, 1)


def _seat_label(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else f"seat {seat}"


def _chance_rows(
    result: Mapping[str, Any], points: Sequence[Mapping[str, Any]], names: Sequence[str]
) -> list[tuple[int, str, list[float]]]:
    """(seat, label, chance at each point) per seat; in solo also the sister's, as seat -1."""
    seats = len(points[0]["chances"])
    rows: list[tuple[int, str, list[float]]] = [
        (s, _seat_label(names, s), [p["chances"][s] for p in points]) for s in range(seats)]
    if result.get("mode") == "solo":
        rows.append((-1, "the sister", [p.get("sister", 0.0) for p in points]))
    return rows


def _chance_line(axes: _Axes, points: Sequence[Mapping[str, Any]], seat: int, label: str,
                 values: Sequence[float]) -> ChanceLine:
    dots = tuple((axes.px(p["frame"]), axes.py(v)) for p, v in zip(points, values, strict=True))
    return ChanceLine(seat, label, "var(--muted)" if seat < 0 else f"var(--seat-{seat % 4})",
                      " ".join(f"{x},{y}" for x, y in dots), dots, round(values[-1] * 100, 1))


def _blunder_mark(axes: _Axes, blunder: Mapping[str, Any], names: Sequence[str],
                  mode: Any) -> BlunderMark:
    seat = int(blunder["seat"])
    label = _seat_label(names, seat)
    day = f" in day {blunder['day']}" if blunder.get("day") is not None else ""  # the viewer's word
    return BlunderMark(
        seat, label, int(blunder["frame"]), axes.px(blunder["frame"]), axes.py(blunder["after"]),
        f"{label}{day}: {_pct(blunder['before'])} → {_pct(blunder['after'])}"
        f" (step {blunder['frame']})")


def _x_ticks(axes: _Axes) -> tuple[Tick, ...]:
    """Whole steps only, none past the game's end."""
    return tuple(Tick(f"{v:g}", axes.px(v)) for v in nice_ticks(0, axes.last_frame, 6)
                 if v == int(v) and v <= axes.last_frame)


def _day_ticks(axes: _Axes, points: Sequence[Mapping[str, Any]]) -> tuple[Tick, ...]:
    """The days ended between the first and the last point."""
    return tuple(Tick(str(p["day"]), axes.px(p["frame"])) for p in points[1:-1]
                 if p.get("day") is not None)


def _summary(rows: Sequence[tuple[int, str, list[float]]]) -> str:
    """The chart in words: the SVG's title, which screen readers read."""
    return ("Chance of winning at each day's end: " + "; ".join(
        f"{label} {', '.join(_pct(v) for v in values)}" for _s, label, values in rows) + ".")


def chances_chart(result: Mapping[str, Any], names: Sequence[str]) -> ChancesChart | None:
    """None when the analysis has fewer than two points."""
    points = list(result.get("points") or [])
    if len(points) < 2:
        return None
    last_frame = max(1, int(result.get("frames") or points[-1]["frame"]))
    axes = _Axes(WIDTH - RIGHT, HEIGHT - BOTTOM, last_frame)
    rows = _chance_rows(result, points, names)
    lines = tuple(_chance_line(axes, points, *row) for row in rows)
    blunders = tuple(_blunder_mark(axes, b, names, result.get("mode"))
                     for b in result.get("blunders") or [])
    y_ticks = tuple(Tick(f"{v:g}%", axes.py(v / 100)) for v in (0, 25, 50, 75, 100))
    return ChancesChart(WIDTH, HEIGHT, LEFT, axes.right, TOP, axes.bottom, "Step",
                        "Chance of winning", lines, blunders, _x_ticks(axes), y_ticks,
                        _day_ticks(axes, points), _summary(rows), last_frame)
