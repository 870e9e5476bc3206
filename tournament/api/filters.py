"""Query-string filters of the list endpoints (django-filter)."""

from __future__ import annotations

import django_filters
from django.db.models import Q, QuerySet

from ..models import Bot, BotVersion, League, Match, PairedComparison, RatingChange
from ..selectors import seated


class BotFilter(django_filters.FilterSet):
    owner = django_filters.CharFilter(field_name="owner__username")
    name = django_filters.CharFilter(field_name="name", lookup_expr="icontains")

    class Meta:
        model = Bot
        fields = ["owner", "name", "retired", "is_system"]


class LeagueFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(field_name="name", lookup_expr="icontains")

    class Meta:
        model = League
        fields = ["name", "mode", "format", "status", "seats"]


class MatchFilter(django_filters.FilterSet):
    bot = django_filters.NumberFilter(method="filter_bot", help_text="a bot with a seat")
    bot_version = django_filters.NumberFilter(
        method="filter_bot_version", help_text="a bot version with a seat"
    )

    class Meta:
        model = Match
        fields = ["status", "mode", "kind", "league", "round", "bot", "bot_version"]

    # EXISTS over the seats, not a join: no duplicate rows, so no DISTINCT on the list
    def filter_bot(self, queryset: QuerySet, name: str, value: int) -> QuerySet:
        return queryset.filter(seated(bot_id=value))

    def filter_bot_version(self, queryset: QuerySet, name: str, value: int) -> QuerySet:
        return queryset.filter(seated(bot_version_id=value))


class BotVersionFilter(django_filters.FilterSet):
    class Meta:
        model = BotVersion
        fields = ["status"]


class RatingChangeFilter(django_filters.FilterSet):
    bot = django_filters.NumberFilter(field_name="bot_version__bot")

    class Meta:
        model = RatingChange
        fields = ["bot", "bot_version", "match"]


class PairedFilter(django_filters.FilterSet):
    bot = django_filters.NumberFilter(method="filter_bot", help_text="the bot is A or B")

    class Meta:
        model = PairedComparison
        fields = ["status", "mode", "bot"]

    def filter_bot(self, queryset: QuerySet, name: str, value: int) -> QuerySet:
        return queryset.filter(Q(version_a__bot_id=value) | Q(version_b__bot_id=value))
