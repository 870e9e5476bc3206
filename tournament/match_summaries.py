"""Match summaries: what every match list shows of a match (the API's summary rows, the match
list, league and bot pages), read as plain values in two queries for a whole page.

No model is built per row and nothing heavy is read: no `result` blob, no error text, no
seat's stderr log, no bot version's manifest or build log. Building Django models for a page
of 50 matches and their seats cost several times the queries themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .models import Match, MatchSeat


@dataclass(slots=True)
class SeatSummary:
    seat: int
    bot_version_id: int
    version: int
    bot_id: int
    bot_name: str
    bot_owner_id: int
    bot_sha256: str
    score: float | None
    rank: int | None
    fault: str
    fault_detail: str
    time_used: float | None
    fault_evidence: dict | None


@dataclass(slots=True)
class MatchSummary:
    id: int
    kind: str
    league_id: int | None
    league_name: str | None
    round: int | None
    mode: str
    options: dict
    seed: int
    engine_version: str
    status: str
    attempts: int
    decision_time_limit: float
    time_bank: float
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    replay_name: str
    replay_sha256: str
    replay_size: int
    seats: list[SeatSummary] = field(default_factory=list)

    @property
    def pk(self) -> int:
        return self.id


MATCH_FIELDS = (
    "id", "kind", "league_id", "league__name", "round", "mode", "options", "seed",
    "engine_version", "status", "attempts", "decision_time_limit", "time_bank", "created_at",
    "started_at", "finished_at", "replay_name", "replay_sha256", "replay_size",
)  # fmt: skip
SEAT_FIELDS = (
    "match_id", "seat", "bot_version_id", "bot_version__number", "bot_version__bot_id",
    "bot_version__bot__name", "bot_version__bot__owner_id", "bot_sha256", "score", "rank",
    "fault", "fault_detail", "time_used", "fault_evidence",
)  # fmt: skip


def summaries(ids: Sequence[int]) -> list[MatchSummary]:
    """The summaries of these matches, in the order of `ids` (two queries, none if empty).
    Visibility is the caller's: `ids` come from a list the reader may see."""
    if not ids:
        return []
    rows = Match.objects.filter(pk__in=ids).values_list(*MATCH_FIELDS)
    by_id: dict[int, MatchSummary] = {row[0]: MatchSummary(*row) for row in rows}
    seats = MatchSeat.objects.filter(match_id__in=ids).order_by("match_id", "seat")
    for match_id, *values in seats.values_list(*SEAT_FIELDS):
        by_id[match_id].seats.append(SeatSummary(*values))
    return [by_id[pk] for pk in ids if pk in by_id]


def summaries_of(matches: Any) -> list[MatchSummary]:
    """Summaries of an ordered, sliced queryset of matches (its ids, then `summaries`)."""
    return summaries(list(matches.values_list("pk", flat=True)))
