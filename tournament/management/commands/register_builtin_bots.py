"""`manage.py register_builtin_bots`: make sure the engine's built-in bots exist as Bot rows."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournament.services.bots import builtin_bots_register


class Command(BaseCommand):
    help = "Register the built-in bots (random, greedy) as system-owned bots (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        for name, version in builtin_bots_register().items():
            self.stdout.write(f"{name}: bot {version.bot_id}, version {version.pk}")
