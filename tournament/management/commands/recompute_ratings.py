"""`manage.py recompute_ratings [--league ID]`: recompute ladders from match history and check
that they agree with the stored ratings; exits 1 and lists every disagreement otherwise."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournament.models import League
from tournament.services.ratings import ratings_recompute


class Command(BaseCommand):
    help = "Recompute Elo ratings from stored matches and compare with the stored ladder."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--league", type=int, help="only this league id")

    def handle(self, *args: Any, **options: Any) -> None:
        leagues = League.objects.order_by("pk")
        if options["league"] is not None:
            leagues = leagues.filter(pk=options["league"])
            if not leagues.exists():
                raise CommandError(f"league {options['league']} does not exist")
        failures = 0
        for league in leagues:
            problems = ratings_recompute(league_id=league.pk)
            games = league.rating_changes.values("match").distinct().count()
            if problems:
                failures += 1
                self.stderr.write(f"league {league.pk} ({league.name}): {len(problems)} problems")
                for problem in problems:
                    self.stderr.write(f"  {problem}")
            else:
                self.stdout.write(f"league {league.pk} ({league.name}): ok, {games} matches")
        if failures:
            raise CommandError(f"{failures} league(s) disagree with their history")
