"""``python manage.py make_replays_public``: strip the stderr and evidence of faults from the
replays stored before replays were stripped when recorded (tournament/services/replay_privacy.py).
Run it once after upgrading; running it again changes nothing."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournament.services.replay_privacy import replays_make_public


class Command(BaseCommand):
    help = "Rewrite stored replays whose faults still carry a bot's stderr or timeout evidence."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_ids", nargs="*", type=int, help="only these matches")

    def handle(self, *args: Any, **options: Any) -> None:
        changed = replays_make_public(match_ids=options["match_ids"] or None)
        for pk in changed:
            self.stdout.write(f"match {pk}: replay rewritten without private fields")
        self.stdout.write(f"{len(changed)} replay(s) rewritten")
