"""Keeping the bots' marks (workers/protocol/marks.py) of a played match: one SeatMarks row per seat
that sent any, written when the match has been recorded."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..models import MatchSeat, SeatMarks


def marks_by_seat(actions: Iterable[Mapping[str, Any]] | None) -> dict[int, list[list[Any]]]:
    """``{seat: [[step, marks], ...]}`` from the runner's action log (its records' index is
    the step: the viewer's frame ``step + 1`` shows the position after it)."""
    out: dict[int, list[list[Any]]] = {}
    for i, record in enumerate(actions or ()):
        marks = record.get("marks")
        if marks:
            out.setdefault(int(record["seat"]), []).append([int(record.get("step", i)), marks])
    return out


def marks_store(*, match_id: int, actions: Iterable[Mapping[str, Any]] | None) -> int:
    """Store each seat's marks (replacing those of an earlier play); the number of seats."""
    by_seat = marks_by_seat(actions)
    seats = {s.seat: s for s in MatchSeat.objects.filter(match_id=match_id)}
    SeatMarks.objects.filter(seat__match_id=match_id).delete()
    SeatMarks.objects.bulk_create(
        SeatMarks(seat=seats[seat], steps=steps) for seat, steps in by_seat.items()
        if seat in seats
    )
    return len(by_seat)
