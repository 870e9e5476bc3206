"""Query-string filters of the list endpoints (django-filter).

Every filter refuses a value it cannot read (a 400 that says why, as docs/api.md promises):
django-filter's own boolean filter reads `?retired=null` as "no filter" and its number filter
takes `?bot=0.5`, so both are replaced here by strict ones, for declared filters and for the
ones generated from model fields alike."""

from __future__ import annotations

import copy
from typing import Any

import django_filters
from django import forms
from django.db import models
from django.db.models import Q, QuerySet
from django_filters.filterset import FILTER_FOR_DBFIELD_DEFAULTS

from ..models import Bot, BotVersion, League, Match, PairedComparison, RatingChange
from ..selectors import seated


class _BooleanField(forms.Field):
    """true/false (or 1/0, any case); anything else is an error, not "no filter"."""

    widget = forms.TextInput

    def to_python(self, value: Any) -> bool | None:
        if value in (None, ""):
            return None
        text = str(value).strip().lower()
        if text in ("true", "1"):
            return True
        if text in ("false", "0"):
            return False
        raise forms.ValidationError(f"{value!r} is not true or false.", code="invalid")


class BooleanFilter(django_filters.BooleanFilter):
    field_class = _BooleanField


class IntegerFilter(django_filters.NumberFilter):
    """A whole number: `?bot=0.5` is an error, where a number filter would look it up."""

    field_class = forms.IntegerField


_INTEGER_FIELDS = (models.AutoField, models.BigAutoField, models.IntegerField,
                   models.SmallIntegerField, models.BigIntegerField,
                   models.PositiveIntegerField, models.PositiveSmallIntegerField)  # fmt: skip


class StrictFilterSet(django_filters.FilterSet):
    """A FilterSet whose generated filters of boolean and integer fields are the strict ones."""

    FILTER_DEFAULTS = {
        **copy.deepcopy(FILTER_FOR_DBFIELD_DEFAULTS),
        models.BooleanField: {"filter_class": BooleanFilter},
        **{field: {"filter_class": IntegerFilter} for field in _INTEGER_FIELDS},
    }


class BotFilter(StrictFilterSet):
    owner = django_filters.CharFilter(field_name="owner__username")
    name = django_filters.CharFilter(field_name="name", lookup_expr="icontains")

    class Meta:
        model = Bot
        fields = ["owner", "name", "retired", "is_system"]


class LeagueFilter(StrictFilterSet):
    name = django_filters.CharFilter(field_name="name", lookup_expr="icontains")

    class Meta:
        model = League
        fields = ["name", "mode", "format", "status", "seats"]


class MatchFilter(StrictFilterSet):
    bot = IntegerFilter(method="filter_bot", help_text="a bot with a seat")
    bot_version = IntegerFilter(
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


class BotVersionFilter(StrictFilterSet):
    class Meta:
        model = BotVersion
        fields = ["status"]


class RatingChangeFilter(StrictFilterSet):
    bot = IntegerFilter(field_name="bot_version__bot")

    class Meta:
        model = RatingChange
        fields = ["bot", "bot_version", "match"]


class PairedFilter(StrictFilterSet):
    bot = IntegerFilter(method="filter_bot", help_text="the bot is A or B")

    class Meta:
        model = PairedComparison
        fields = ["status", "mode", "bot"]

    def filter_bot(self, queryset: QuerySet, name: str, value: int) -> QuerySet:
        return queryset.filter(Q(version_a__bot_id=value) | Q(version_b__bot_id=value))
