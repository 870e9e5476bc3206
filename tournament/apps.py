"""App config for the tournament app: bots, leagues, matches and ratings."""

from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Tournament"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in, user_login_failed
        from django.db.backends.signals import connection_created

        from .login_throttle import on_logged_in, on_login_failed
        from .page_cache import watch_connection

        user_login_failed.connect(on_login_failed, dispatch_uid="tournament-login-throttle")
        user_logged_in.connect(on_logged_in, dispatch_uid="tournament-login-known-address")
        # every committed write to what the pages show drops the cached pages
        connection_created.connect(watch_connection, dispatch_uid="tournament-page-cache")
