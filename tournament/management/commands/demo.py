"""`manage.py demo`: register the built-in and starter bots, play a short round-robin league of
every available mode and print the ladders with links to the leagues and replays; then open
one ladder per mode with the house bots entered, which plays on beside the site (the embedded
worker's beat) until it rests, and takes every author's entry.

In the embedded default (no broker) the command runs and supervises the embedded workers
(workers/queueing/embedded.py) while it waits for the bots' validation and the leagues' matches;
with a
broker, the deployment's workers play them.
Re-running keeps the leagues of the first run, so links printed before keep working.
`--port` (or PORT) is the port the printed links point at (scripts/demo.sh serves on it).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandError

import engine
from tournament import selectors
from tournament.models import Match
from tournament.services.demo import (
    DEMO_PASSWORD,
    ORGANISER,
    demo_analysis,
    demo_analysis_done,
    demo_bots,
    demo_bots_validated,
    demo_ladders,
    demo_leagues,
    demo_leagues_done,
)
from workers.queueing.embedded import EmbeddedWorker, embedded_worker_wanted

DEFAULT_PORT = 8000
POLL_SECONDS = 0.5


def _port(value: str) -> int:
    port = int(value)
    if not 0 < port < 65536:
        raise ValueError(value)
    return port


class Command(BaseCommand):
    help = "Create demo bots and leagues, play them and print the ladders."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--mode", action="append", help="only these modes (repeatable)")
        parser.add_argument(
            "--port", type=_port, default=None,
            help=f"port of the printed links (default: PORT, else {DEFAULT_PORT})",
        )  # fmt: skip
        parser.add_argument(
            "--timeout", type=float, default=900.0,
            help="seconds to wait for the matches before printing what is done",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        port = options["port"]
        if port is None:
            try:
                port = _port(os.environ.get("PORT") or str(DEFAULT_PORT))
            except ValueError:
                raise CommandError(f"PORT={os.environ['PORT']!r} is not a port number") from None
        self.base_url = f"http://127.0.0.1:{port}"
        modes = options["mode"] or engine.available_modes()
        started = time.monotonic()
        deadline = started + options["timeout"]
        worker = EmbeddedWorker() if embedded_worker_wanted() else contextlib.nullcontext()
        with worker:
            versions = demo_bots()
            self._wait(lambda: demo_bots_validated(versions), deadline, "the bots' validation")
            leagues = demo_leagues(modes=modes, versions=versions)
            self._wait(lambda: demo_leagues_done(leagues), deadline, "the leagues' matches")
            analysis = demo_analysis(leagues)
            if analysis is not None:
                self._wait(lambda: demo_analysis_done(analysis), deadline, "the analysis")
            ladders = demo_ladders(modes=modes, versions=versions)
        for league in leagues:
            self._print_league(league)
        if analysis is not None:
            self._print_analysis(analysis)
        self.stdout.write("\nOpen ladders (running; enter from the league page or with"
                          " `arena enter LADDER BOT`):")
        for ladder in ladders:
            names = ladder.entries.values_list("bot_version__bot__name", flat=True)
            link = f"{self.base_url}/leagues/{ladder.pk}/"
            self.stdout.write(f"  {ladder.name}: {link}  ({', '.join(sorted(names))})")
        self.stdout.write(
            f"\ndemo: {len(leagues)} leagues in {time.monotonic() - started:.1f}s; "
            f"organiser login {ORGANISER} / {DEMO_PASSWORD} at {self.base_url}/accounts/login/"
        )
        self.stdout.write(
            f"demo: the site is {self.base_url}/ (sign up at {self.base_url}/accounts/signup/ "
            f"to upload a bot; API docs at {self.base_url}/api/docs/)"
        )

    def _wait(self, done: Callable[[], bool], deadline: float, what: str) -> None:
        while not done():
            if time.monotonic() > deadline:
                self.stderr.write(f"demo: gave up waiting for {what}; the rest plays on later")
                return
            time.sleep(POLL_SECONDS)

    def _print_analysis(self, analysis: Any) -> None:
        url = f"{self.base_url}/matches/{analysis.match_id}/#chances"
        if analysis.status != "done":
            self.stdout.write(f"\nanalysis of match {analysis.match_id}: {analysis.status} "
                              f"{analysis.error[:200]}")
            return
        points = analysis.result["points"]
        self.stdout.write(
            f"\nanalysis: {url} (who was winning at {len(points) - 2} day ends, "
            f"{analysis.playouts} playouts each, {analysis.seconds:.1f}s)"
        )

    def _print_league(self, league: Any) -> None:
        matches = league.matches.all()
        finished = matches.filter(status=Match.Status.FINISHED)
        self.stdout.write(
            f"\n{league.name}  (mode {league.mode}, {league.seats} seat(s), "
            f"{finished.count()}/{matches.count()} matches finished, status {league.status})"
        )
        self.stdout.write(f"  league: {self.base_url}/leagues/{league.pk}/")
        solo = league.mode == "solo"
        header = (
            f"  {'#':>2} {'bot':<20} {'ver':>3} {'elo':>7} {'games':>5} {'W-D-L':>8} {'mean':>7}"
        )
        self.stdout.write(header + (f" {'margin':>7}" if solo else ""))
        for row in selectors.league_ladder(league=league):
            mean = row.mean_score or 0.0
            line = (
                f"  {row.rank:>2} {row.bot_version.bot.name:<20} {row.bot_version.number:>3} "
                f"{row.rating:>7.1f} {row.games:>5} "
                f"{f'{row.wins}-{row.draws}-{row.losses}':>8} {mean:>7.1f}"
            )
            if solo:
                line += f" {row.mean_margin or 0.0:>7.1f}"
            self.stdout.write(line)
        replay = finished.exclude(replay_name="").order_by("pk").first()
        if replay is not None:
            self.stdout.write(f"  replay: {self.base_url}/matches/{replay.pk}/")
        failed = matches.filter(status=Match.Status.FAILED).first()
        if failed is not None:
            self.stdout.write(f"  a match failed: {failed.error[:200]}")
