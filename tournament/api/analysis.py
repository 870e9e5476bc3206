"""``/api/v1/matches/{id}/analysis/``: who was winning a finished match.

``GET`` answers the match's analysis (404 until one was requested); ``POST`` (signed in)
requests it: 202 with the queued analysis, or 200 with the one there is (an analysis is
computed once per match and never again). Over the user's hourly limit: 429 with
``Retry-After``. Only those who may see the match reach either (404 for the others).

With ``?seat=K`` both are about where seat K lost (``SeatReview``): each of its decisions
judged from its own information, ``decisions: [{step, taken, best, loss}]`` with each
action's chance, interval and playouts, and the method. Only the seat's owner, staff, or
anyone when the match is public may ask or read it (404 for the others, as for a match they
may not see).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import selectors
from ..errors import NotFound, ValidationFailed
from ..models import Match, MatchAnalysis, SeatReview
from ..services.analysis import match_analysis_request, seat_review_get, seat_review_request
from .base import found


class MatchAnalysisOutput(serializers.ModelSerializer):
    match = serializers.IntegerField(source="match_id")
    method = serializers.SerializerMethodField(
        help_text="how each chance's 95% interval is computed, and by which playout policy")
    points = serializers.SerializerMethodField(
        help_text="frame, day, chances (per seat, sum 1 with the solo sister's), expected "
                  "final scores; the last point is the recorded result")
    blunders = serializers.SerializerMethodField(
        help_text="the largest falls of a seat's chance between two points")

    class Meta:
        model = MatchAnalysis
        fields = ["match", "status", "playouts", "method", "engine_version", "seconds",
                  "created_at", "finished_at", "error", "points", "blunders"]

    def get_method(self, obj: MatchAnalysis) -> dict:
        result = obj.result or {}
        return {"version": result.get("version"), "policy": result.get("policy"),
                "interval": result.get("method")}

    def get_points(self, obj: MatchAnalysis) -> list:
        return (obj.result or {}).get("points") or []

    def get_blunders(self, obj: MatchAnalysis) -> list:
        return (obj.result or {}).get("blunders") or []


class SeatReviewOutput(serializers.ModelSerializer):
    match = serializers.IntegerField(source="match_id")
    method = serializers.SerializerMethodField(
        help_text="policy, interval method, worlds (determinizations), playouts per action, "
                  "candidates per decision and the ?/?? thresholds")
    decisions = serializers.SerializerMethodField(
        help_text="each decision of the seat with a choice: step, taken and best (text, "
                  "chance, low, high, playouts), loss (0 unless the intervals separate), mark")
    costliest = serializers.SerializerMethodField(help_text="the steps of the 5 costliest")

    class Meta:
        model = SeatReview
        fields = ["match", "seat", "version", "status", "method", "seconds", "created_at",
                  "finished_at", "error", "decisions", "costliest"]

    def get_method(self, obj: SeatReview) -> dict:
        result = obj.result or {}
        keys = ("policy", "method", "worlds", "playouts", "candidates", "thresholds",
                "cpu_seconds")
        return {k: result.get(k) for k in keys}

    def get_decisions(self, obj: SeatReview) -> list:
        keys = ("step", "taken", "best", "loss", "mark", "candidates", "legal")
        return [{k: d.get(k) for k in keys} for d in (obj.result or {}).get("decisions") or []]

    def get_costliest(self, obj: SeatReview) -> list:
        return [d["step"] for d in (obj.result or {}).get("costliest") or []]


def _seat(request: Request) -> int | None:
    raw = request.query_params.get("seat")
    if raw is None:
        return None
    if not raw.isdigit():
        raise ValidationFailed(f"seat must be a seat number (0, 1, ...), not {raw[:20]!r}")
    return int(raw)


class MatchAnalysisApi(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def _match(self, request: Request, match_id: int):
        return found(selectors.match_get(match_id=match_id, user=request.user), "Match",
                     match_id)  # fmt: skip

    def _seat_review(self, request: Request, match: Match, seat: int) -> Response:
        review = seat_review_get(match=match, seat=seat, user=request.user)
        if review is None:
            raise NotFound(f"Seat {seat} of match {match.pk} has not been reviewed; POST here "
                           f"to ask.")
        return Response(SeatReviewOutput(review).data)

    @extend_schema(responses={200: MatchAnalysisOutput, 404: OpenApiResponse(
        description="Not analysed yet, or (with ?seat=K) a seat the user may not review.")})
    def get(self, request: Request, match_id: int) -> Response:
        match = self._match(request, match_id)
        seat = _seat(request)
        if seat is not None:
            return self._seat_review(request, match, seat)
        analysis = MatchAnalysis.objects.filter(match=match).first()
        if analysis is None:
            raise NotFound(f"Match {match_id} has not been analysed; POST here to ask.")
        return Response(MatchAnalysisOutput(analysis).data)

    @extend_schema(request=None, responses={
        202: MatchAnalysisOutput, 200: MatchAnalysisOutput,
        409: OpenApiResponse(description="The match is not finished or has no replay."),
        429: OpenApiResponse(description="Over the user's hourly analysis limit."),
    })
    def post(self, request: Request, match_id: int) -> Response:
        match = self._match(request, match_id)
        seat = _seat(request)
        if seat is not None:
            review, created = seat_review_request(match=match, seat=seat, user=request.user)
            review.refresh_from_db()
            return Response(SeatReviewOutput(review).data, status=202 if created else 200)
        analysis, created = match_analysis_request(match=match, user=request.user)
        analysis.refresh_from_db()  # eager tasks (tests, the demo) have run it already
        return Response(MatchAnalysisOutput(analysis).data, status=202 if created else 200)
