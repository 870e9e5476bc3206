"""What the match page shows of a match's win-chance analysis (tournament/services/analysis.py):
the chart geometry (website/chances_chart.py) and a table of the points; and, for each seat
the visitor may review, where it lost: its costliest decisions, or the button that asks."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from replayfile.decision_review import BLUNDER, MISTAKE
from replayfile.win_chances import ANALYSIS_VERSION
from tournament.models import Match, MatchAnalysis, SeatReview
from tournament.services.analysis import seat_reviews_for

from .chances_chart import chances_chart


def analysis_context(match: Match, user: Any = None) -> dict[str, Any]:
    """``analysis`` (the row or None) and, once done, ``chances`` (the chart),
    ``chances_names`` and ``chances_rows`` (the table), and ``reviews`` (where each seat
    ``user`` may review lost); nothing for an unfinished match."""
    if match.status != Match.Status.FINISHED or not match.replay_name:
        return {}
    analysis = MatchAnalysis.objects.filter(match=match).first()
    context: dict[str, Any] = {
        "reviews": _reviews(match, user), "review_thresholds": (round(MISTAKE * 100),
                                                                round(BLUNDER * 100)),
        "analysis": analysis, "show_chances": True,
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
    # a document of an older method is shown as it was, and says so
    context["chances_old"] = result.get("version") != ANALYSIS_VERSION
    context["chances_method"] = result.get("method") or "no interval (an older analysis)"
    context["chances_policy"] = result.get("policy") or "the house greedy bot"
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
        cells = [_cell(point, s) for s in range(len(point["chances"]))]
        if solo:
            cells.append(f"{point.get('sister', 0) * 100:.0f}%")
        rows.append({"label": label, "frame": point["frame"], "cells": cells})
    context["chances_rows"] = rows
    return context


def _previous_day(points: list[dict[str, Any]], i: int) -> Any:
    """The day that ended at point ``i``: the day of the point before."""
    return points[i - 1].get("day")


def _cell(point: dict[str, Any], seat: int) -> str:
    """A seat's chance with its 95% interval (none at the exact result) and expected score."""
    chance = point["chances"][seat]
    low, high = (point.get("low") or [None] * (seat + 1))[seat], \
        (point.get("high") or [None] * (seat + 1))[seat]
    spread = "" if low is None or low == high else f" [{low * 100:.0f}–{high * 100:.0f}%]"
    return f"{chance * 100:.0f}%{spread} ({point['expected'][seat]:g})"


def _reviews(match: Match, user: Any) -> list[dict[str, Any]]:
    """Each seat ``user`` may review: its name, its review (or None) and, once done, its
    costliest decisions with the frame that shows each (decision k is frame k + 1's move)."""
    names = {s.seat: f"{s.bot_version} (seat {s.seat})" for s in match.seats.all()}
    found = []
    for seat, review in seat_reviews_for(match=match, user=user):
        costliest = []
        if review is not None and review.status == SeatReview.Status.DONE:
            for d in (review.result or {}).get("costliest") or []:
                costliest.append({**d, "frame": d["step"] + 1,
                                  "loss_pct": round(d["loss"] * 100)})
        found.append({"seat": seat, "name": names.get(seat, f"seat {seat}"), "review": review,
                      "costliest": costliest})
    return found
