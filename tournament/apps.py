"""App config for the tournament app: bots, leagues, matches and ratings."""

from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.db.backends.signals import connection_created


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Tournament"

    def ready(self) -> None:
        # Signal receivers, tasks and the wiring import models and services, which may only load
        # once the app registry is ready: Django's own rule for ready(), hence imports here.
        from .login_signals import on_logged_in, on_login_failed  # noqa: PLC0415 - app ready
        from .page_cache import watch_connection  # noqa: PLC0415 - app registry ready
        from .tasks import match_play_task  # noqa: F401, PLC0415 - registers the tasks
        from .wiring import connect_services  # noqa: PLC0415 - services import models

        connect_services()  # the formats, and what a match's end sets off
        user_login_failed.connect(on_login_failed, dispatch_uid="tournament-login-throttle")
        user_logged_in.connect(on_logged_in, dispatch_uid="tournament-login-known-address")
        # every committed write to what the pages show drops the cached pages
        connection_created.connect(watch_connection, dispatch_uid="tournament-page-cache")
