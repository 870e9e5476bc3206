"""A bot's place in the boss leagues of one mode (competition/boss_leagues.py holds the gates
and the rule; tournament/services/boss_leagues.py climbs them)."""

from __future__ import annotations

from django.db import models


class BossLeagueStanding(models.Model):
    """Where a bot stands in one mode's boss leagues: the last gate it passed (``tier``, ""
    while it has passed none), the version that passed it, the promotion run in progress (a
    paired comparison of a version against the next gate's boss, or none) and every run's
    outcome (``history``). One row per bot and mode: the league is the bot's best proven
    level, kept when it uploads a new version, which goes on climbing from there."""

    bot = models.ForeignKey(
        "tournament.Bot", on_delete=models.CASCADE, related_name="boss_standings"
    )
    mode = models.CharField(max_length=16)
    tier = models.CharField(max_length=16, blank=True, default="", db_index=True)
    version = models.ForeignKey(
        "tournament.BotVersion",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="the version that passed the last gate",
    )
    run = models.ForeignKey(
        "tournament.PairedComparison",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="the promotion run in progress",
    )
    run_tier = models.CharField(
        max_length=16, blank=True, default="", help_text="the gate the run in progress is for"
    )
    history = models.JSONField(
        default=list, blank=True, help_text="each run: tier, version, comparison, outcome, at"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["bot_id", "mode"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "mode"], name="bossleaguestanding_bot_mode")
        ]

    def __str__(self) -> str:
        return f"{self.bot} in {self.mode}: {self.tier or 'unranked'}"
