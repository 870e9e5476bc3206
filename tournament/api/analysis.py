"""``/api/v1/matches/{id}/analysis/``: who was winning a finished match.

``GET`` answers the match's analysis (404 until one was requested); ``POST`` (signed in)
requests it: 202 with the queued analysis, or 200 with the one there is (an analysis is
computed once per match and never again). Over the user's hourly limit: 429 with
``Retry-After``. Only those who may see the match reach either (404 for the others).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import selectors
from ..errors import NotFound
from ..models import MatchAnalysis
from ..services.analysis import match_analysis_request
from .base import found


class MatchAnalysisOutput(serializers.ModelSerializer):
    match = serializers.IntegerField(source="match_id")
    points = serializers.SerializerMethodField(
        help_text="frame, day, chances (per seat, sum 1 with the solo sister's), expected "
                  "final scores; the last point is the recorded result")
    blunders = serializers.SerializerMethodField(
        help_text="the largest falls of a seat's chance between two points")

    class Meta:
        model = MatchAnalysis
        fields = ["match", "status", "playouts", "engine_version", "seconds", "created_at",
                  "finished_at", "error", "points", "blunders"]

    def get_points(self, obj: MatchAnalysis) -> list:
        return (obj.result or {}).get("points") or []

    def get_blunders(self, obj: MatchAnalysis) -> list:
        return (obj.result or {}).get("blunders") or []


class MatchAnalysisApi(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def _match(self, request: Request, match_id: int):
        return found(selectors.match_get(match_id=match_id, user=request.user), "Match",
                     match_id)  # fmt: skip

    @extend_schema(responses=MatchAnalysisOutput)
    def get(self, request: Request, match_id: int) -> Response:
        match = self._match(request, match_id)
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
        analysis, created = match_analysis_request(match=match, user=request.user)
        analysis.refresh_from_db()  # eager tasks (tests, the demo) have run it already
        return Response(MatchAnalysisOutput(analysis).data, status=202 if created else 200)
