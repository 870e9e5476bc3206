"""App config for the tournament app: bots, leagues, matches and ratings."""

from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Tournament"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_login_failed

        from .login_throttle import on_login_failed

        user_login_failed.connect(on_login_failed, dispatch_uid="tournament-login-throttle")
