"""What the match page shows of a match's win-chance analysis (tournament/services/analysis.py):
the chart geometry (website/chances_chart.py) and a table of the points."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from replayfile.win_chances import BLUNDER_DROP
from tournament.models import Match, MatchAnalysis

from .chances_chart import chances_chart


def analysis_context(match: Match) -> dict[str, Any]:
    """``analysis`` (the row or None) and, once done, ``chances`` (the chart),
    ``chances_names`` and ``chances_rows`` (the table); nothing for an unfinished match."""
    if match.status != Match.Status.FINISHED or not match.replay_name:
        return {}
    analysis = MatchAnalysis.objects.filter(match=match).first()
    context: dict[str, Any] = {
        "analysis": analysis, "show_chances": True, "blunder_drop": round(BLUNDER_DROP * 100),
        # what a request plays: the playouts of each point, said as they are
        "analysis_playouts": analysis.playouts if analysis else settings.ANALYSIS_PLAYOUTS,
    }  # fmt: skip
    if analysis is None or analysis.status != MatchAnalysis.Status.DONE:
        return context
    result = analysis.result or {}
    seats = {s.seat: s for s in match.seats.all()}
    names = [f"{seats[s].bot_version} (seat {s})" if s in seats else name
             for s, name in enumerate(result.get("names") or [])]
    context["chances"] = chances_chart(result, names)
    solo = result.get("mode") == "solo"
    context["chances_names"] = names + (["the sister"] if solo else [])
    rows = []
    points = result.get("points") or []
    for i, point in enumerate(points):
        if i == 0:
            label = "start"
        elif point.get("final"):
            label = "result"
        else:
            label = f"end of day {_previous_day(points, i)}"  # the viewer's word, the Duel's too
        cells = [f"{c * 100:.0f}% ({e:g})" for c, e in zip(point["chances"], point["expected"],
                                                           strict=True)]
        if solo:
            cells.append(f"{point.get('sister', 0) * 100:.0f}%")
        rows.append({"label": label, "frame": point["frame"], "cells": cells})
    context["chances_rows"] = rows
    return context


def _previous_day(points: list[dict[str, Any]], i: int) -> Any:
    """The day that ended at point ``i``: the day of the point before."""
    return points[i - 1].get("day")
