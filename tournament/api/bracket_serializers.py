"""API shapes of brackets and podiums: the bracket settings a league is created with, a
league's podium (its final order with each entrant's points or results) and its bracket."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from ..models import Bracket, LeaguePlace


class BracketInputFields(serializers.Serializer):
    """Mixed into LeagueInput: what an elimination or knockout league is created with."""

    best_of = serializers.IntegerField(
        required=False, help_text="elimination: games of a series (odd); knockout: of a table"
    )
    seeding = serializers.CharField(
        required=False,
        help_text="standings (the final order of playoff_of), ratings or random; by default "
        "standings for a playoff, ratings for any other bracket",
    )  # fmt: skip
    advance = serializers.IntegerField(required=False, help_text="knockout: top k per table")
    playoff_of = serializers.IntegerField(
        required=False, help_text="a season: the league whose top entrants enter at its close"
    )
    playoff_top = serializers.IntegerField(required=False, help_text="how many of them enter")


BRACKET_FIELDS = tuple(BracketInputFields().fields)


class BracketSettingsOutput(serializers.ModelSerializer):
    class Meta:
        model = Bracket
        fields = ["best_of", "seeding", "advance", "playoff_of", "playoff_top", "started_at",
                  "finished_at"]  # fmt: skip


class PlaceOutput(serializers.ModelSerializer):
    entry = serializers.IntegerField(source="entry_id")
    bot = serializers.IntegerField(source="entry.bot_version.bot_id")
    bot_name = serializers.CharField(source="entry.bot_version.bot.name")
    bot_version = serializers.IntegerField(source="entry.bot_version_id")
    version = serializers.IntegerField(source="entry.bot_version.number")

    class Meta:
        model = LeaguePlace
        fields = ["place", "entry", "bot", "bot_name", "bot_version", "version", "result",
                  "figures"]  # fmt: skip


class TitleOutput(serializers.ModelSerializer):
    """A podium place a bot's version won: the bot page's titles."""

    league = serializers.IntegerField(source="league_id")
    league_name = serializers.CharField(source="league.name")
    format = serializers.CharField(source="league.format")
    bot_version = serializers.IntegerField(source="entry.bot_version_id")
    version = serializers.IntegerField(source="entry.bot_version.number")

    class Meta:
        model = LeaguePlace
        fields = ["place", "league", "league_name", "format", "bot_version", "version",
                  "result", "created_at"]  # fmt: skip


def _entrant(entry: Any) -> dict[str, Any] | None:
    if entry is None:
        return None
    v = entry.bot_version
    return {"entry": entry.pk, "bot": v.bot_id, "bot_name": v.bot.name, "bot_version": v.pk,
            "version": v.number}  # fmt: skip


def bracket_data(view: Any) -> dict[str, Any]:
    """The bracket as the page draws it: sections of columns of series, each with its slots
    (entrant or what fills it), points, winner and the ids of its matches."""
    return {
        "settings": BracketSettingsOutput(view.bracket).data,
        "live": view.live,
        "seeds": [_entrant(e) for e in view.seeds],
        "sections": [
            {
                "title": title,
                "columns": [
                    {
                        "title": column.title,
                        "series": [
                            {
                                "key": v.series.key, "stage": v.series.stage,
                                "round": v.series.round, "status": v.series.status,
                                "advance": v.series.advance,
                                "slots": [
                                    {"entrant": _entrant(slot.entry), "from": slot.label or None,
                                     "points": slot.points, "won": slot.won,
                                     "goes_on": slot.goes_on}
                                    for slot in v.slots
                                ],
                                "order": list(v.series.order),
                                "matches": [m.pk for m in v.matches],
                            }
                            for v in column.series
                        ],
                    }
                    for column in columns
                ],
            }
            for title, columns in view.sections
        ],
    }  # fmt: skip
