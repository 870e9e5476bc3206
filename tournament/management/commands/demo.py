"""`manage.py demo`: register the built-in and starter bots, play a short round-robin league of
every available mode (embedded eager Celery by default) and print the ladders and replay URLs.
Re-running replaces the demo leagues instead of adding more."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

import engine
from tournament import selectors
from tournament.models import Match
from tournament.services.demo import DEMO_PASSWORD, ORGANISER, demo_run

BASE_URL = "http://127.0.0.1:8000"


class Command(BaseCommand):
    help = "Create demo bots and leagues, play them and print the ladders."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--mode", action="append", help="only these modes (repeatable)")

    def handle(self, *args: Any, **options: Any) -> None:
        modes = options["mode"] or engine.available_modes()
        started = time.monotonic()
        leagues = demo_run(modes=modes)
        for league in leagues:
            self._print_league(league)
        self.stdout.write(
            f"\ndemo: {len(leagues)} leagues in {time.monotonic() - started:.1f}s; "
            f"organiser login {ORGANISER} / {DEMO_PASSWORD} at {BASE_URL}/accounts/login/"
        )

    def _print_league(self, league: Any) -> None:
        matches = league.matches.all()
        finished = matches.filter(status=Match.Status.FINISHED)
        self.stdout.write(
            f"\n{league.name}  (mode {league.mode}, {league.seats} seat(s), "
            f"{finished.count()}/{matches.count()} matches finished, status {league.status})"
        )
        solo = league.mode == "solo"
        header = (
            f"  {'#':>2} {'bot':<20} {'ver':>3} {'elo':>7} {'games':>5} {'W-D-L':>8} {'mean':>7}"
        )
        self.stdout.write(header + (f" {'margin':>7}" if solo else ""))
        for row in selectors.league_ladder(league=league):
            mean = row.score_sum / row.games if row.games else 0.0
            line = (
                f"  {row.rank:>2} {row.bot_version.bot.name:<20} {row.bot_version.number:>3} "
                f"{row.rating:>7.1f} {row.games:>5} "
                f"{f'{row.wins}-{row.draws}-{row.losses}':>8} {mean:>7.1f}"
            )
            if solo:
                line += f" {row.margin_sum / row.games if row.games else 0.0:>7.1f}"
            self.stdout.write(line)
        replay = finished.exclude(replay_name="").order_by("pk").first()
        if replay is not None:
            self.stdout.write(f"  replay: {BASE_URL}/replays/{replay.pk}/")
        failed = matches.filter(status=Match.Status.FAILED).first()
        if failed is not None:
            self.stdout.write(f"  a match failed: {failed.error[:200]}")
