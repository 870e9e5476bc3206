"""App config for the tournament app: bots, leagues, matches and ratings."""

from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Tournament"
