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


def chances_chart(result: Mapping[str, Any], names: Sequence[str]) -> ChancesChart | None:
    """None when the analysis has fewer than two points."""
    points = list(result.get("points") or [])
    if len(points) < 2:
        return None
    seats = len(points[0]["chances"])
    last_frame = max(1, int(result.get("frames") or points[-1]["frame"]))
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def px(frame: float) -> float:
        return round(LEFT + (right - LEFT) * frame / last_frame, 1)

    def py(chance: float) -> float:
        return round(bottom - (bottom - TOP) * chance, 1)

    rows: list[tuple[int, str, list[float]]] = [
        (s, names[s] if s < len(names) else f"seat {s}", [p["chances"][s] for p in points])
        for s in range(seats)]
    if result.get("mode") == "solo":
        rows.append((-1, "the sister", [p.get("sister", 0.0) for p in points]))
    lines = []
    for seat, label, values in rows:
        dots = tuple((px(p["frame"]), py(v)) for p, v in zip(points, values, strict=True))
        lines.append(ChanceLine(seat, label, "var(--muted)" if seat < 0 else
                                f"var(--seat-{seat % 4})", " ".join(f"{x},{y}" for x, y in dots),
                                dots, round(values[-1] * 100, 1)))
    blunders = []
    for b in result.get("blunders") or []:
        seat = int(b["seat"])
        label = names[seat] if seat < len(names) else f"seat {seat}"
        word = "round" if result.get("mode") == "duel" else "day"
        day = f" in {word} {b['day']}" if b.get("day") is not None else ""
        blunders.append(BlunderMark(
            seat, label, int(b["frame"]), px(b["frame"]), py(b["after"]),
            f"{label}{day}: {_pct(b['before'])} → {_pct(b['after'])} (step {b['frame']})"))
    x_ticks = tuple(Tick(f"{v:g}", px(v)) for v in nice_ticks(0, last_frame, 6)
                    if v == int(v) and v <= last_frame)
    y_ticks = tuple(Tick(f"{v:g}%", py(v / 100)) for v in (0, 25, 50, 75, 100))
    day_ticks = tuple(Tick(str(p["day"]), px(p["frame"])) for p in points[1:-1]
                      if p.get("day") is not None)
    summary = ("Chance of winning at each day's end: " + "; ".join(
        f"{line.label} {', '.join(_pct(v) for v in values)}"
        for line, (_s, _l, values) in zip(lines, rows, strict=True)) + ".")
    return ChancesChart(WIDTH, HEIGHT, LEFT, right, TOP, bottom, "Step",
                        "Chance of winning", tuple(lines), tuple(blunders), x_ticks, y_ticks,
                        day_ticks, summary, last_frame)
