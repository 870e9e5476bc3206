"""App config for the tournament app: bots, leagues, matches and ratings."""

from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core import checks
from django.db.backends.signals import connection_created

from .client_address import wide_trusted_networks


def trusted_proxies_check(**_: Any) -> list[checks.CheckMessage]:
    """A warning for each TRUSTED_PROXIES network wider than a proxy's own: any client inside
    it could send a fresh X-Forwarded-For with each request and be counted as a new client by
    the login and sign-up throttles (docs/deployment.md, "Client addresses")."""
    return [
        checks.Warning(
            f"TRUSTED_PROXIES trusts {net} ({net.num_addresses} addresses): any host in it can "
            "forge its client address and escape the login and sign-up throttles.",
            hint="Name the proxies' own addresses (compose: the proxy's fixed address).",
            id="tournament.W001",
        )
        for net in wide_trusted_networks(settings.TRUSTED_PROXY_NETWORKS)
    ]


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
        checks.register(trusted_proxies_check, checks.Tags.security)
        user_login_failed.connect(on_login_failed, dispatch_uid="tournament-login-throttle")
        user_logged_in.connect(on_logged_in, dispatch_uid="tournament-login-known-address")
        # every committed write to what the pages show drops the cached pages
        connection_created.connect(watch_connection, dispatch_uid="tournament-page-cache")
