"""Win-chance analysis of a finished match, on request (Lichess's "request a computer
analysis"): the request is checked and queued here, a worker runs it (``arena.match_analyse``
in tournament/tasks.py calls ``match_analysis_run``), and the result is kept in a
``MatchAnalysis`` row beside the match.

One analysis per match, ever: a second request, by anyone, returns the row there is (queued,
running or done) and costs nothing; only a failed run may be asked again. Requests that do
start one are limited per user (``ANALYSIS_PER_HOUR`` in any rolling hour, counted from the
rows themselves, so the limit holds across web processes and for the API and the site alike).
"""

from __future__ import annotations

import math
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from replayfile import win_chances
from replayfile.format import decode
from replays.storage import open_replay

from ..errors import Conflict, RateLimited
from ..jobs import MATCH_ANALYSE, job
from ..models import Match, MatchAnalysis

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
    if existing is not None and existing.status != MatchAnalysis.Status.FAILED:
        return existing, False
    with transaction.atomic():
        if user is not None:
            # One user's requests queue up on their own row: two at once cannot both pass.
            get_user_model().objects.select_for_update().filter(pk=user.pk).first()
            _check_limit(user)
        analysis, created = MatchAnalysis.objects.select_for_update().get_or_create(
            match=match, defaults={"requested_by": user,
                                   "playouts": playouts or settings.ANALYSIS_PLAYOUTS})
        if not created and analysis.status != MatchAnalysis.Status.FAILED:
            return analysis, False
        if not created:  # a failed run, asked again
            analysis.status = MatchAnalysis.Status.QUEUED
            analysis.error = ""
            analysis.requested_by = user
            analysis.save(update_fields=["status", "error", "requested_by"])
        analysis_id = analysis.pk
        transaction.on_commit(lambda: _send(analysis_id))
    return analysis, True


def _send(analysis_id: int) -> None:
    job(MATCH_ANALYSE).delay(analysis_id)


def _check_limit(user: Any) -> None:
    now = timezone.now()
    per_hour = settings.ANALYSIS_PER_HOUR
    recent = list(
        MatchAnalysis.objects.filter(requested_by=user, created_at__gt=now - WINDOW)
        .order_by("-created_at").values_list("created_at", flat=True)[:per_hour]
    )  # fmt: skip
    if len(recent) >= per_hour:
        wait = (recent[-1] + WINDOW - now).total_seconds()
        raise RateLimited(RateLimited.ANALYSES_PER_HOUR.format(limit=per_hour),
                          retry_after=max(1, math.ceil(wait)))


def match_analysis_run(*, analysis_id: int) -> MatchAnalysis | None:
    """Run a queued analysis (the worker's task). A row that is done already is left as it
    is: a second delivery of the task recomputes nothing."""
    with transaction.atomic():
        analysis = (MatchAnalysis.objects.select_for_update().select_related("match")
                    .filter(pk=analysis_id).first())  # fmt: skip
        if analysis is None or analysis.status == MatchAnalysis.Status.DONE:
            return analysis
        analysis.status = MatchAnalysis.Status.RUNNING
        analysis.save(update_fields=["status"])
    match = analysis.match
    started = time.perf_counter()
    try:
        doc = decode(open_replay(match.replay_name, sha256=match.replay_sha256 or None))
        if match.result:
            doc["result"] = match.result  # the recorded (fault-adjusted) result
        result = win_chances.analyse(doc, analysis.playouts, seed=match.seed)
    except Exception as exc:  # noqa: BLE001 - recorded on the row; the match is untouched
        analysis.status = MatchAnalysis.Status.FAILED
        analysis.error = f"{type(exc).__name__}: {exc}"[:2000]
        analysis.finished_at = timezone.now()
        analysis.save(update_fields=["status", "error", "finished_at"])
        return analysis
    analysis.result = result
    analysis.engine_version = result["engine_version"]
    analysis.seconds = round(time.perf_counter() - started, 2)
    analysis.status = MatchAnalysis.Status.DONE
    analysis.finished_at = timezone.now()
    analysis.save(update_fields=["result", "engine_version", "seconds", "status",
                                 "finished_at"])
    return analysis
