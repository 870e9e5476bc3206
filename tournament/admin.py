"""Django admin for every tournament model (read-mostly: results come from services)."""

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet

from .models import (
    Bot,
    BotVersion,
    League,
    LeagueEntry,
    LeagueInvitation,
    Match,
    MatchSeat,
    PairedComparison,
    RatingChange,
    WorkerHeartbeat,
)


class BotVersionInline(admin.TabularInline):
    model = BotVersion
    extra = 0
    fields = ["number", "builtin", "status", "sha256", "size", "created_at"]
    readonly_fields = fields


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "is_system", "retired", "created_at"]
    list_filter = ["is_system", "retired"]
    search_fields = ["name", "owner__username"]
    inlines = [BotVersionInline]


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin):
    list_display = ["bot", "number", "builtin", "status", "size", "created_at"]
    list_filter = ["status"]
    search_fields = ["bot__name", "sha256"]
    readonly_fields = ["sha256", "size", "bundle_name", "manifest", "log"]

    def get_queryset(self, request: Any) -> QuerySet[BotVersion]:
        """Staff see the workshop's draft snapshots too (status draft)."""
        return BotVersion.with_drafts.all()


class LeagueEntryInline(admin.TabularInline):
    model = LeagueEntry
    extra = 0
    fields = ["bot_version", "rating", "openskill_mu", "openskill_sigma", "games", "wins",
              "draws", "losses"]  # fmt: skip
    readonly_fields = ["rating", "openskill_mu", "openskill_sigma", "games", "wins", "draws",
                       "losses"]  # fmt: skip


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "mode", "seats", "format", "status", "public", "organiser"]
    list_filter = ["mode", "format", "status", "public"]
    search_fields = ["name"]
    inlines = [LeagueEntryInline]


@admin.register(LeagueEntry)
class LeagueEntryAdmin(admin.ModelAdmin):
    list_display = ["league", "bot_version", "rating", "openskill_mu", "openskill_sigma", "games",
                    "wins", "draws", "losses"]  # fmt: skip
    list_filter = ["league"]


@admin.register(LeagueInvitation)
class LeagueInvitationAdmin(admin.ModelAdmin):
    list_display = ["league", "user", "invited_by", "created_at"]
    list_filter = ["league"]
    search_fields = ["user__username", "league__name"]


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    extra = 0
    readonly_fields = ["seat", "bot_version", "bot_sha256", "score", "rank", "fault", "time_used"]
    exclude = ["log", "fault_detail"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "league", "mode", "status", "attempts", "created_at"]
    list_filter = ["status", "kind", "mode"]
    search_fields = ["id", "league__name"]
    inlines = [MatchSeatInline]


@admin.register(MatchSeat)
class MatchSeatAdmin(admin.ModelAdmin):
    list_display = ["match", "seat", "bot_version", "score", "rank", "fault"]
    list_filter = ["fault"]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["league", "match", "bot_version", "before", "after", "created_at"]
    list_filter = ["league"]


@admin.register(PairedComparison)
class PairedComparisonAdmin(admin.ModelAdmin):
    list_display = ["id", "version_a", "version_b", "mode", "seats", "seeds", "status",
                    "created_at"]  # fmt: skip
    list_filter = ["status", "mode"]
    readonly_fields = ["result", "base_seed", "error", "finished_at"]


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin):
    """Written by the workers' heartbeats only (tournament/worker_heartbeat.py); /status reads
    them."""

    list_display = ["name", "role", "pid", "beat_at", "started_at"]
    readonly_fields = [
        "name", "role", "pid", "beat_at", "started_at", "queues", "refused_queues",
        "isolation_missing",
    ]  # fmt: skip
