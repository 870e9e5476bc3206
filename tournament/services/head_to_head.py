"""Head-to-head records kept with the results: each finished league or challenge match adds
its pairs of seats to the `HeadToHead` rows of its league (or of the challenges), in the
transaction that records the result. The league and bot pages then read a few rows whatever
the length of the history; `head_to_head_rebuild` computes the same rows from history (the
bench's fill uses it, the tests compare both)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from competition import head_to_head_tally as h2h

from ..models import BotVersion, HeadToHead, Match, MatchSeat

HEAD_TO_HEAD_KINDS = (Match.Kind.LEAGUE, Match.Kind.CHALLENGE)  # not validation or paired runs
COUNTED = ("games", "wins", "draws", "losses", "score_diff_sum")


def _add(row: HeadToHead, record: h2h.HeadToHeadRecord) -> None:
    for name in COUNTED:
        setattr(row, name, getattr(row, name) + getattr(record, name))


def head_to_head_record_match(*, match: Match, seats: Iterable[Any]) -> int:
    """Count a finished match's seats (with their final rank and score) in its league's
    records; returns the number of (subject, opponent) records it touched. The caller
    records the result and counts each match once (match_record_result)."""
    if match.kind not in HEAD_TO_HEAD_KINDS or match.status != Match.Status.FINISHED:
        return 0
    rows = [h2h.SeatRow(match.pk, s.bot_version_id, s.rank, s.score) for s in seats]
    records = h2h.tally(rows)
    if not records:
        return 0
    versions = sorted({r.key for r in rows})
    with transaction.atomic():
        # results of matches that seat the same versions wait for each other here, so that
        # neither adds to a row the other has read (locks taken in one order: no deadlock)
        list(BotVersion.objects.select_for_update().filter(pk__in=versions).order_by("pk")
             .values_list("pk", flat=True))  # fmt: skip
        existing = {
            (row.subject_id, row.opponent_id): row
            for row in HeadToHead.objects.filter(
                league_id=match.league_id, subject_id__in=versions, opponent_id__in=versions
            )
        }
        new, changed = [], []
        for (subject, opponent), record in records.items():
            row = existing.get((subject, opponent))
            if row is None:
                row = HeadToHead(league_id=match.league_id, subject_id=subject,
                                 opponent_id=opponent)  # fmt: skip
                new.append(row)
            else:
                changed.append(row)
            _add(row, record)
        HeadToHead.objects.bulk_create(new)
        HeadToHead.objects.bulk_update(changed, COUNTED)
    return len(records)


def head_to_head_from_history(
    *, league_id: int | None = None, challenges: bool = False
) -> dict[tuple[int | None, int, int], h2h.HeadToHeadRecord]:
    """What the records of every league (or one, or the challenges) are from the finished
    matches themselves, keyed by (league id or None, subject, opponent)."""
    matches = Match.objects.filter(status=Match.Status.FINISHED, kind__in=HEAD_TO_HEAD_KINDS)
    if challenges:
        matches = matches.filter(league__isnull=True)
    elif league_id is not None:
        matches = matches.filter(league_id=league_id)
    seats = MatchSeat.objects.filter(match__in=matches).order_by("match_id", "seat")
    by_league: dict[int | None, list[h2h.SeatRow]] = {}
    for match_id, league, version, rank, score in seats.values_list(
        "match_id", "match__league_id", "bot_version_id", "rank", "score"
    ).iterator():
        by_league.setdefault(league, []).append(h2h.SeatRow(match_id, version, rank, score))
    out = {}
    for league, rows in by_league.items():
        for (subject, opponent), record in h2h.tally(rows).items():
            out[league, subject, opponent] = record
    return out


def head_to_head_rebuild() -> int:
    """Replace every record by what the history gives (after bulk imports that bypass the
    result service, such as the web bench's fill). Returns the number of rows written."""
    records = head_to_head_from_history()
    with transaction.atomic():
        HeadToHead.objects.all().delete()
        HeadToHead.objects.bulk_create(
            [
                HeadToHead(league_id=league, subject_id=subject, opponent_id=opponent,
                           **{name: getattr(record, name) for name in COUNTED})  # fmt: skip
                for (league, subject, opponent), record in records.items()
            ],
            batch_size=2000,
        )
    return len(records)
