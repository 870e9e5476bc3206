"""An entrant's rating history kept short for its charts, as pure functions (no Django).

Each rated match adds a point `[league match number, games played, rating after]` to the
entrant's `LeagueEntry.chart`, after a first point `[number - 1, 0, rating before]`. Points
are kept only every `stride` games (the newest one always), and when there would be more than
`2 * MAX_POINTS` the stride doubles and the points off it are dropped. So a chart has at most
`2 * MAX_POINTS + 1` points, evenly spaced in games, whatever the length of the history, and
adding the same results one by one or all at once (a rebuild) gives the same points.
"""

from __future__ import annotations

from typing import Any

MAX_POINTS = 200  # a chart is 720 px wide: more points than this draw nothing new


def add_point(
    chart: dict[str, Any] | None, *, league_match: int, games: int, before: float,
    after: float,
) -> dict[str, Any]:
    """`chart` ({"stride", "points"}) with the result of one more rated match."""
    stride = int((chart or {}).get("stride", 1))
    points = [list(p) for p in (chart or {}).get("points", [])]
    if not points:
        points.append([league_match - 1, 0, before])
    elif points[-1][1] % stride:
        points.pop()  # the newest point of last time, kept only while it was the newest
    points.append([league_match, games, after])
    while len(points) > 2 * MAX_POINTS:
        stride *= 2
        points = [p for p in points[:-1] if p[1] % stride == 0] + [points[-1]]
    return {"stride": stride, "points": points}
