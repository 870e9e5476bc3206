"""Models of brackets and podiums (imported at the end of tournament/models.py).

A `Bracket` holds the settings of an elimination or knockout league and, for a season's
playoff, the league whose final standings fill it. Its `BracketSeries` rows are the series of
an elimination bracket (two slots) or the tables of a knockout (3-4 slots); `BracketGame` ties
each league match to its series. `LeaguePlace` is a closed league's final order (any format):
the podium of the league page and the API, and the titles of a bot page.
"""

from __future__ import annotations

from django.db import models


class Bracket(models.Model):
    class Seeding(models.TextChoices):
        STANDINGS = "standings"  # the final standings of the league it follows (a season)
        RATINGS = "ratings"  # each entrant's best rating in its other leagues
        RANDOM = "random"

    league = models.OneToOneField("tournament.League", on_delete=models.CASCADE,
                                  related_name="bracket")  # fmt: skip
    best_of = models.PositiveSmallIntegerField(
        default=3, help_text="elimination: games of a series; knockout: games of a table"
    )
    seeding = models.CharField(max_length=16, choices=Seeding.choices, default=Seeding.RATINGS)
    advance = models.PositiveSmallIntegerField(default=2, help_text="knockout: top k per table")
    playoff_of = models.ForeignKey(
        "tournament.League", null=True, blank=True, on_delete=models.SET_NULL,
        related_name="playoffs", help_text="the league whose top entrants enter at its close",
    )  # fmt: skip
    playoff_top = models.PositiveSmallIntegerField(default=0, help_text="how many enter")
    seeds = models.JSONField(default=list, blank=True, help_text="entry ids, seed 1 first")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"bracket of {self.league}"


class BracketSeries(models.Model):
    """A series of an elimination bracket or a table of a knockout round."""

    class Status(models.TextChoices):
        WAITING = "waiting"  # its slots are not all known yet
        PLAYING = "playing"
        DONE = "done"  # decided by games, or a walkover (a bye in one slot)
        VOID = "void"  # not needed: a grand-final reset the winners' finalist made moot

    bracket = models.ForeignKey(Bracket, on_delete=models.CASCADE, related_name="series")
    key = models.CharField(max_length=16)
    stage = models.CharField(max_length=16)
    round = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()
    sources = models.JSONField(default=list, blank=True, help_text="[kind, ref] per slot")
    slots = models.JSONField(default=list, blank=True, help_text="entry ids; null: a bye")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    # the decided order: entry ids best first (elimination: winner, loser)
    order = models.JSONField(default=list, blank=True)
    points = models.JSONField(default=dict, blank=True, help_text="entry id -> series points")
    advance = models.PositiveSmallIntegerField(default=1, help_text="how many of it go on")

    class Meta:
        ordering = ["bracket_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["bracket", "key"], name="bracketseries_unique_key"),
        ]

    def __str__(self) -> str:
        return f"{self.key} of {self.bracket}"


class BracketGame(models.Model):
    series = models.ForeignKey(BracketSeries, on_delete=models.CASCADE, related_name="games")
    match = models.OneToOneField("tournament.Match", on_delete=models.CASCADE,
                                 related_name="bracket_game")  # fmt: skip
    number = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["series_id", "number"]


class LeaguePlace(models.Model):
    """One entrant's final place in a closed league (shared places for ties)."""

    league = models.ForeignKey("tournament.League", on_delete=models.CASCADE,
                               related_name="places")  # fmt: skip
    entry = models.OneToOneField("tournament.LeagueEntry", on_delete=models.CASCADE,
                                 related_name="place")  # fmt: skip
    place = models.PositiveSmallIntegerField()
    result = models.CharField(max_length=120, help_text="what earned it, in words")
    figures = models.JSONField(default=dict, blank=True, help_text="its points or results")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league_id", "place", "id"]
        indexes = [models.Index(fields=["league", "place"], name="leagueplace_league_place")]

    def __str__(self) -> str:
        return f"{self.place}. {self.entry}"
