"""Query-string filters of the list endpoints (django-filter)."""

from __future__ import annotations

import django_filters

from ..models import Bot, BotVersion, League, Match, RatingChange


class BotFilter(django_filters.FilterSet):
    owner = django_filters.CharFilter(field_name="owner__username")
    name = django_filters.CharFilter(field_name="name", lookup_expr="icontains")

    class Meta:
        model = Bot
        fields = ["owner", "name", "retired", "is_system"]


class LeagueFilter(django_filters.FilterSet):
    class Meta:
        model = League
        fields = ["mode", "format", "status", "seats"]


class MatchFilter(django_filters.FilterSet):
    bot = django_filters.NumberFilter(field_name="seats__bot_version__bot", distinct=True)
    bot_version = django_filters.NumberFilter(field_name="seats__bot_version", distinct=True)

    class Meta:
        model = Match
        fields = ["status", "mode", "kind", "league", "round", "bot", "bot_version"]


class BotVersionFilter(django_filters.FilterSet):
    class Meta:
        model = BotVersion
        fields = ["status"]


class RatingChangeFilter(django_filters.FilterSet):
    bot = django_filters.NumberFilter(field_name="bot_version__bot")

    class Meta:
        model = RatingChange
        fields = ["bot", "bot_version", "match"]
