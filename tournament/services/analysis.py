"""Win-chance analysis of a finished match, on request (Lichess's "request a computer
analysis"): the request is checked and queued here, a worker runs it (``arena.match_analyse``
in tournament/tasks.py calls ``match_analysis_run``), and the result is kept in a
``MatchAnalysis`` row beside the match.

One analysis per match, ever: a second request, by anyone, returns the row there is (queued,
running or done) and costs nothing; only a failed run may be asked again. Requests that do
start one are limited per user (``ANALYSIS_PER_HOUR`` in any rolling hour, counted from the
rows themselves, so the limit holds across web processes and for the API and the site alike).
An analysis of an older method (``win_chances.ANALYSIS_VERSION``) is shown as it was; a new
request computes it again.

**Where a seat lost** (``SeatReview``): each decision of one seat judged from that seat's own
information (replayfile/decision_review.py), on request, by a worker (``arena.seat_review``),
once per (match, seat, version of the review). Only the seat's owner, staff, or anyone when
the match is public (seen by everyone, signed in or not: its replay is public then) may ask
or read it; in a league that shows its matches only to their own authors until it closes, a
rival may not study a seat's decisions (``may_review_seat``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from replayfile import decision_review, win_chances
from replayfile.format import decode
from replays.storage import open_replay

from .. import selectors
from ..errors import Conflict, NotFound, RateLimited
from ..jobs import MATCH_ANALYSE, SEAT_REVIEW, job
from ..models import Match, MatchAnalysis, SeatReview
from ..private_output import may_see_private

WINDOW = timedelta(hours=1)


class NotAnalysable(Conflict):
    NOT_FINISHED = "Only a finished match with a replay can be analysed."


def match_analysis_request(*, match: Match, user: Any,
                           playouts: int | None = None) -> tuple[MatchAnalysis, bool]:
    """The match's analysis, queued now unless there is one: ``(analysis, created)``.
    ``playouts`` (per point) defaults to ``ANALYSIS_PLAYOUTS``; the demo asks for fewer."""
    if match.status != Match.Status.FINISHED or not match.replay_name:
        raise NotAnalysable(NotAnalysable.NOT_FINISHED)
    existing = MatchAnalysis.objects.filter(match=match).first()
    if existing is not None and not _may_run_again(existing):
        return existing, False
    with transaction.atomic():
        if user is not None:
            # One user's requests queue up on their own row: two at once cannot both pass.
            get_user_model().objects.select_for_update().filter(pk=user.pk).first()
            _check_limit(user)
        analysis, created = MatchAnalysis.objects.select_for_update().get_or_create(
            match=match, defaults={"requested_by": user,
                                   "playouts": playouts or settings.ANALYSIS_PLAYOUTS})
        if not created and not _may_run_again(analysis):
            return analysis, False
        if not created:  # a failed run or an older method's, asked again
            analysis.status = MatchAnalysis.Status.QUEUED
            analysis.error = ""
            analysis.requested_by = user
            analysis.playouts = playouts or settings.ANALYSIS_PLAYOUTS
            analysis.save(update_fields=["status", "error", "requested_by", "playouts"])
        analysis_id = analysis.pk
        transaction.on_commit(lambda: _send(analysis_id))
    return analysis, True


def _may_run_again(analysis: MatchAnalysis) -> bool:
    """A failed run, or a finished one by an older method."""
    if analysis.status == MatchAnalysis.Status.FAILED:
        return True
    return analysis.status == MatchAnalysis.Status.DONE and \
        (analysis.result or {}).get("version") != win_chances.ANALYSIS_VERSION


def _send(analysis_id: int) -> None:
    job(MATCH_ANALYSE).delay(analysis_id)


def _check_limit(user: Any, rows: Any = MatchAnalysis) -> None:
    now = timezone.now()
    per_hour = settings.ANALYSIS_PER_HOUR
    recent = list(
        rows.objects.filter(requested_by=user, created_at__gt=now - WINDOW)
        .order_by("-created_at").values_list("created_at", flat=True)[:per_hour]
    )  # fmt: skip
    if len(recent) >= per_hour:
        wait = (recent[-1] + WINDOW - now).total_seconds()
        raise RateLimited(RateLimited.ANALYSES_PER_HOUR.format(limit=per_hour),
                          retry_after=max(1, math.ceil(wait)))


def match_analysis_run(*, analysis_id: int) -> MatchAnalysis | None:
    """Run a queued analysis (the worker's task). A row that is done already is left as it
    is: a second delivery of the task recomputes nothing."""

    def compute(analysis: MatchAnalysis, doc: dict[str, Any]) -> dict[str, Any]:
        if analysis.match.result:
            doc["result"] = analysis.match.result  # the recorded (fault-adjusted) result
        result = win_chances.analyse(doc, analysis.playouts, seed=analysis.match.seed)
        analysis.engine_version = result["engine_version"]
        return result

    return _run_queued(MatchAnalysis, analysis_id, compute, also=("engine_version",))


def _run_queued(model: Any, row_id: int, compute: Callable[[Any, dict[str, Any]], Any],
                also: tuple[str, ...] = ()) -> Any:  # fmt: skip
    """Claim a queued row of ``model`` (a ``MatchAnalysis`` or a ``SeatReview``), compute its
    result from its match's replay with ``compute(row, replay)`` and record it, or the error,
    on the row; the match itself is never touched. A row that is done already is returned as
    it is, so a second delivery of the task recomputes nothing. ``also``: fields ``compute``
    sets on the row beside its result."""
    with transaction.atomic():
        row = (model.objects.select_for_update().select_related("match")
               .filter(pk=row_id).first())  # fmt: skip
        if row is None or row.status == model.Status.DONE:
            return row
        row.status = model.Status.RUNNING
        row.save(update_fields=["status"])
    match = row.match
    started = time.perf_counter()
    try:
        doc = decode(open_replay(match.replay_name, sha256=match.replay_sha256 or None))
        row.result = compute(row, doc)
    except Exception as exc:  # noqa: BLE001 - recorded on the row; the match is untouched
        row.status = model.Status.FAILED
        row.error = f"{type(exc).__name__}: {exc}"[:2000]
        row.finished_at = timezone.now()
        row.save(update_fields=["status", "error", "finished_at"])
        return row
    row.seconds = round(time.perf_counter() - started, 2)
    row.status = model.Status.DONE
    row.finished_at = timezone.now()
    row.save(update_fields=["result", "seconds", "status", "finished_at", *also])
    return row


class NotReviewable(NotFound):
    """A seat the user may not review answers like a match they may not see."""

    NOT_YOURS = ("Only the seat's owner and staff may review its decisions until the match "
                 "is public.")
    NO_SEAT = "Match {match} has no seat {seat}."


def may_review_seat(*, match: Match, seat: int, user: Any) -> bool:
    """The seat's owner, staff, or anyone when everyone may see the match (its replay is
    public then). ``match`` is one the user may see (``selectors.match_get``)."""
    owner = (match.seats.filter(seat=seat).values_list("bot_version__bot__owner_id", flat=True)
             .first())  # fmt: skip
    if may_see_private(user, owner):
        return True
    return selectors.match_get(match_id=match.pk, user=None) is not None


def _reviewable(match: Match, seat: int, user: Any) -> None:
    if not match.seats.filter(seat=seat).exists():
        raise NotReviewable(NotReviewable.NO_SEAT.format(match=match.pk, seat=seat))
    if not may_review_seat(match=match, seat=seat, user=user):
        raise NotReviewable(NotReviewable.NOT_YOURS)


def seat_review_get(*, match: Match, seat: int, user: Any) -> SeatReview | None:
    """The current review of ``seat`` (None if none was asked), for those who may read it."""
    _reviewable(match, seat, user)
    return SeatReview.objects.filter(match=match, seat=seat,
                                     version=decision_review.REVIEW_VERSION).first()


def seat_reviews_for(*, match: Match, user: Any) -> list[tuple[int, SeatReview | None]]:
    """``(seat, its current review or None)`` for each seat of the match ``user`` may
    review (the match page's "Where it lost" and the viewer's marks)."""
    owners = dict(match.seats.values_list("seat", "bot_version__bot__owner_id"))
    public = None
    reviews = {r.seat: r for r in SeatReview.objects.filter(
        match=match, version=decision_review.REVIEW_VERSION)}
    found: list[tuple[int, SeatReview | None]] = []
    for seat in sorted(owners):
        if not may_see_private(user, owners[seat]):
            if public is None:
                public = selectors.match_get(match_id=match.pk, user=None) is not None
            if not public:
                continue
        found.append((seat, reviews.get(seat)))
    return found


def seat_review_request(*, match: Match, seat: int, user: Any) -> tuple[SeatReview, bool]:
    """The seat's review by the current method, queued now unless there is one:
    ``(review, created)``. Counted against the user's hourly analysis limit."""
    _reviewable(match, seat, user)
    if match.status != Match.Status.FINISHED or not match.replay_name:
        raise NotAnalysable(NotAnalysable.NOT_FINISHED)
    version = decision_review.REVIEW_VERSION
    existing = SeatReview.objects.filter(match=match, seat=seat, version=version).first()
    if existing is not None and existing.status != SeatReview.Status.FAILED:
        return existing, False
    with transaction.atomic():
        if user is not None:
            get_user_model().objects.select_for_update().filter(pk=user.pk).first()
            _check_limit(user, SeatReview)
        review, created = SeatReview.objects.select_for_update().get_or_create(
            match=match, seat=seat, version=version, defaults={"requested_by": user})
        if not created and review.status != SeatReview.Status.FAILED:
            return review, False
        if not created:
            review.status = SeatReview.Status.QUEUED
            review.error = ""
            review.requested_by = user
            review.save(update_fields=["status", "error", "requested_by"])
        review_id = review.pk
        transaction.on_commit(lambda: job(SEAT_REVIEW).delay(review_id))
    return review, True


def seat_review_run(*, review_id: int) -> SeatReview | None:
    """Run a queued review (the worker's task); a done one is left as it is."""
    return _run_queued(
        SeatReview, review_id,
        lambda review, doc: decision_review.review_seat(doc, review.seat, seed=review.match.seed),
    )  # fmt: skip
