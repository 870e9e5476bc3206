"""API of running an event: a Swiss league's standings (points and tiebreaks), and the
organiser removing an entry. The league's own fields (start time, deadline, cap, points
table) are read and changed through `leagues/<id>/` (views.LeagueDetailApi)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import formats, selectors
from ..errors import NotFound
from ..services import events as event_services
from ..standings import league_bye_points, league_points
from .base import found


class StandingRowOutput(serializers.Serializer):
    rank = serializers.IntegerField(help_text="equal points and tiebreaks share a rank")
    entry = serializers.IntegerField(source="entry.pk")
    bot = serializers.CharField(source="entry.bot_version.bot.name")
    bot_id = serializers.IntegerField(source="entry.bot_version.bot_id")
    bot_version = serializers.IntegerField(source="entry.bot_version_id")
    version = serializers.IntegerField(source="entry.bot_version.number")
    points = serializers.FloatField()
    played = serializers.IntegerField(help_text="tables played (byes not counted)")
    byes = serializers.IntegerField()
    buchholz = serializers.FloatField(help_text="the sum of the opponents' points")
    median_buchholz = serializers.FloatField(
        allow_null=True, help_text="two seats: Buchholz without the best and worst opponent"
    )
    opponents_points = serializers.FloatField(
        help_text="the points of every opponent met, once per table shared"
    )
    withdrawn = serializers.SerializerMethodField()

    def get_withdrawn(self, row: object) -> bool:
        return row.entry.withdrawn_at is not None  # type: ignore[attr-defined]


class StandingsOutput(serializers.Serializer):
    league = serializers.IntegerField()
    points_table = serializers.ListField(child=serializers.FloatField())
    bye_points = serializers.FloatField()
    tiebreaks = serializers.ListField(child=serializers.CharField())
    final = serializers.BooleanField(help_text="true once the league is closed")
    standings = StandingRowOutput(many=True)


def tiebreak_names(seats: int) -> list[str]:
    return ["buchholz", "median_buchholz"] if seats == 2 else ["opponents_points"]


class LeagueStandingsApi(APIView):
    @extend_schema(responses=StandingsOutput)
    def get(self, request: Request, league_id: int) -> Response:
        league = found(selectors.league_get(league_id=league_id, user=request.user), "League",
                       league_id)  # fmt: skip
        standings = formats.get(league.format).standings(league)
        if standings is None:
            raise NotFound(f"League {league.pk} is a {league.get_format_display()} league: "
                           "standings by points are kept for Swiss leagues; see its ladder.")
        body = {
            "league": league.pk, "points_table": list(league_points(league)),
            "bye_points": league_bye_points(league), "tiebreaks": tiebreak_names(league.seats),
            "final": league.status == league.Status.CLOSED, "standings": standings,
        }  # fmt: skip
        return Response(StandingsOutput(body).data)


class LeagueEntryDetailApi(APIView):
    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, league_id: int, entry_id: int) -> Response:
        league = found(selectors.league_get(league_id=league_id, user=request.user), "League",
                       league_id)  # fmt: skip
        event_services.league_entry_remove(league=league, user=request.user, entry_id=entry_id)
        return Response(status=204)
