"""The match page's "Request analysis" and "Review seat K's decisions" buttons
(tournament/services/analysis.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournament import selectors
from tournament.errors import ArenaError
from tournament.models import MatchAnalysis, SeatReview
from tournament.services.analysis import match_analysis_request, seat_review_request

from .common import found


@login_required
@require_POST
def match_analysis(request: HttpRequest, match_id: int) -> HttpResponse:
    match = found(selectors.match_get(match_id=match_id, user=request.user), "match", match_id)
    try:
        analysis, created = match_analysis_request(match=match, user=request.user)
    except ArenaError as exc:
        messages.error(request, exc.message)
    else:
        analysis.refresh_from_db()
        if analysis.status == MatchAnalysis.Status.DONE:
            messages.success(request, "The analysis is ready: open “Who was winning”.")
        elif created:
            messages.success(request, "Analysis requested: a worker plays the game out from "
                                      "each day's end; the page shows it when it is ready.")
        else:
            messages.info(request, f"This match's analysis is {analysis.status} already.")
    return redirect(reverse("website:match", args=[match.pk]) + "#chances")


@login_required
@require_POST
def seat_review(request: HttpRequest, match_id: int, seat: int) -> HttpResponse:
    match = found(selectors.match_get(match_id=match_id, user=request.user), "match", match_id)
    try:
        review, created = seat_review_request(match=match, seat=seat, user=request.user)
    except ArenaError as exc:
        messages.error(request, exc.message)
    else:
        review.refresh_from_db()
        if review.status == SeatReview.Status.DONE:
            messages.success(request, f"Seat {seat}'s decisions are reviewed: see “Where it "
                                      f"lost”.")
        elif created:
            messages.success(request, f"Review of seat {seat} requested: a worker judges each "
                                      f"of its decisions; the page shows it when it is ready.")
        else:
            messages.info(request, f"Seat {seat}'s review is {review.status} already.")
    return redirect(reverse("website:match", args=[match.pk]) + "#where-lost")
