"""The tournament's view of a played match, and the one adapter from the runner's MatchOutcome.

Keeping the translation here means a change in workers/runner.py touches one function.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from workers.sandbox.isolation import INCOMPLETE

from .redact import redact_host_details


@dataclass(frozen=True)
class SeatOutcome:
    seat: int
    score: float | None
    rank: int | None
    fault: str = ""
    fault_detail: str = ""
    time_used: float | None = None
    log: str = ""
    fault_evidence: dict[str, Any] | None = None  # a timeout's {"cpu", "wall", "wait", "load"}


@dataclass(frozen=True)
class PlayedMatch:
    seats: list[SeatOutcome]
    result: dict[str, Any] = field(default_factory=dict)
    replay: bytes | None = None


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def outcome_from_runner(raw: Any) -> PlayedMatch:
    """Translate the runner's MatchOutcome (object or dict) into a PlayedMatch."""
    if isinstance(raw, PlayedMatch):
        return raw
    result = dict(_get(raw, "result") or {})
    scores = result.get("scores") or []
    ranks = result.get("ranks") or []
    seats_raw = _get(raw, "seats") or []
    seats = []
    for i, s in enumerate(seats_raw):
        fault = _get(s, "fault")
        fault_kind = getattr(fault, "value", fault) or ""
        seats.append(
            SeatOutcome(
                seat=_get(s, "seat", i),
                score=_get(s, "score", scores[i] if i < len(scores) else None),
                rank=_get(s, "rank", ranks[i] if i < len(ranks) else None),
                fault=str(fault_kind),
                fault_detail=redact_host_details(str(_get(s, "fault_detail", "") or "")),
                time_used=_get(s, "time_used"),
                log=redact_host_details(str(_get(s, "log", "") or ""))[-8000:],
                fault_evidence=_get(s, "fault_evidence"),
            )
        )
    note = _isolation_note(raw)
    if note:  # a deployment that requires no layer runs bots with fewer, and says so
        result["isolation"] = note
    return PlayedMatch(seats=seats, result=_jsonable(result), replay=_get(raw, "replay"))


def _isolation_note(raw: Any) -> str:
    """The runner's one line on the isolation layers its bots lacked ('' when they had every
    layer, or the match had no bot program)."""
    return next((w for w in _get(raw, "warnings") or [] if w.startswith(INCOMPLETE)), "")


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))
