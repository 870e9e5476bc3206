"""`manage.py demo`: register the built-in and starter bots, serve the site at once, and play a
short round-robin league of every available mode beside it; print the leagues' links as soon as
they exist, a line of progress at least every PROGRESS_SECONDS, and the ladders with links to
the leagues and replays when their matches end; then open one ladder per mode with the house
bots entered, which plays on beside the site (the embedded worker's beat) until it rests, and
takes every author's entry. It serves until Ctrl-C.

In the embedded default (no broker) the command runs and supervises the embedded workers
(workers/queueing/embedded.py), which play while it serves; with a broker, the deployment's
workers play. `--no-serve` waits for the matches, prints the summary and exits.
Re-running keeps the leagues of the first run, so links printed before keep working.
`--port` (or PORT) is the port it serves on and the printed links point at.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.core.servers.basehttp import (
    ThreadedWSGIServer,
    WSGIRequestHandler,
    get_internal_wsgi_application,
)

import engine
from tournament import selectors
from tournament.models import BotVersion, Match
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
    demo_progress,
    demo_staff,
)
from workers.queueing.embedded import EmbeddedWorker, embedded_worker_wanted

DEFAULT_PORT = 8000
POLL_SECONDS = 0.5
PROGRESS_SECONDS = 3.0  # a line at least this often while it waits (the promise: every 5 s)


def _port(value: str) -> int:
    port = int(value)
    if not 0 < port < 65536:
        raise ValueError(value)
    return port


class _Server:
    """The site served from a thread of this process (Django's development WSGI server, the
    one runserver uses, with WhiteNoise's static files), so the demo serves while it waits."""

    def __init__(self, port: int) -> None:
        try:
            self.httpd = ThreadedWSGIServer(("127.0.0.1", port), WSGIRequestHandler)
        except OSError as exc:
            raise CommandError(
                f"cannot serve on 127.0.0.1:{port} ({exc.strerror}); pass --port N"
            ) from None
        self.httpd.set_app(get_internal_wsgi_application())
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="demo-server",
                                       daemon=True)  # fmt: skip

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class Command(BaseCommand):
    help = "Create demo bots and leagues, serve the site while they play, print the ladders."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--mode", action="append", help="only these modes (repeatable)")
        parser.add_argument(
            "--port", type=_port, default=None,
            help=f"port to serve on and of the printed links (default: PORT, else "
                 f"{DEFAULT_PORT})",
        )  # fmt: skip
        parser.add_argument(
            "--timeout", type=float, default=900.0,
            help="seconds to wait for the matches before printing what is done",
        )  # fmt: skip
        parser.add_argument(
            "--entrants", type=int, default=None,
            help="only the first N bots of each league (fewer matches; default: all)",
        )  # fmt: skip
        parser.add_argument(
            "--no-serve", dest="serve", action="store_false",
            help="do not serve: wait for the matches, print the summary and exit",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        port = options["port"]
        if port is None:
            try:
                port = _port(os.environ.get("PORT") or str(DEFAULT_PORT))
            except ValueError:
                raise CommandError(f"PORT={os.environ['PORT']!r} is not a port number") from None
        if options["entrants"] is not None and options["entrants"] < 1:
            raise CommandError("--entrants must be 1 or more")
        self.base_url = f"http://127.0.0.1:{port}"
        self.started = time.monotonic()
        self.last_line = self.started
        server = _Server(port) if options["serve"] else None
        worker = EmbeddedWorker() if embedded_worker_wanted() else contextlib.nullcontext()
        with worker:
            self._say("demo: registering the bots and uploading the starter bots")
            versions = demo_bots()
            self._staff()
            if server is not None:
                server.start()
                self._say(f"demo: serving {self.base_url}/ (the matches play beside it)")
            try:
                self._play(options, versions, deadline=self.started + options["timeout"])
                if server is not None:
                    self._say(f"demo: serving {self.base_url}/ until Ctrl-C; the ladders play "
                              "on beside it")  # fmt: skip
                    while True:
                        time.sleep(3600)
            except KeyboardInterrupt:
                self._say("demo: stopping")
            finally:
                if server is not None:
                    server.stop()

    def _play(self, options: dict[str, Any], versions: dict[str, Any], deadline: float) -> None:
        modes = options["mode"] or engine.available_modes()

        def validated() -> str:
            ready = sum(v.status != BotVersion.Status.PENDING for v in versions.values())
            return f"validating the bots: {ready}/{len(versions)} checked"

        self._wait(lambda: demo_bots_validated(versions), deadline, "the bots' validation",
                   validated)  # fmt: skip
        leagues = demo_leagues(modes=modes, versions=versions, entrants=options["entrants"])
        for league in leagues:
            self._say(f"demo: {league.name}: {self.base_url}/leagues/{league.pk}/ "
                      f"({league.matches.count()} matches)")  # fmt: skip

        def played() -> str:
            ended, total = demo_progress(leagues)
            return f"playing the leagues: {ended}/{total} matches played"

        self._wait(lambda: demo_leagues_done(leagues), deadline, "the leagues' matches", played)
        analysis = demo_analysis(leagues)
        if analysis is not None:
            self._wait(lambda: demo_analysis_done(analysis), deadline, "the analysis",
                       lambda: f"analysing match {analysis.match_id}")  # fmt: skip
        ladders = demo_ladders(modes=modes, versions=versions)
        self._summary(leagues, analysis, ladders)

    def _summary(self, leagues: list[Any], analysis: Any, ladders: list[Any]) -> None:
        for league in leagues:
            self._print_league(league)
        if analysis is not None:
            self._print_analysis(analysis)
        self._say("\nOpen ladders (running; enter from the league page or with"
                  " `arena enter LADDER BOT`):")  # fmt: skip
        for ladder in ladders:
            names = ladder.entries.values_list("bot_version__bot__name", flat=True)
            link = f"{self.base_url}/leagues/{ladder.pk}/"
            self._say(f"  {ladder.name}: {link}  ({', '.join(sorted(names))})")
        self._say(
            f"\ndemo: {len(leagues)} leagues in {time.monotonic() - self.started:.1f}s; "
            f"organiser login {ORGANISER} / {DEMO_PASSWORD} at {self.base_url}/accounts/login/"
        )
        self._say(
            f"demo: the site is {self.base_url}/ (sign up at {self.base_url}/accounts/signup/ "
            f"to upload a bot; API docs at {self.base_url}/api/docs/)"
        )

    def _staff(self) -> None:
        username, password = demo_staff()
        if password is not None:
            self._say(f"demo: staff account for {self.base_url}/admin/: {username} / {password} "
                      "(generated now and printed only this once)")  # fmt: skip
        else:
            self._say(f"demo: staff account for {self.base_url}/admin/: {username} (its password "
                      f"was printed by the first run; `manage.py changepassword {username}` "
                      "sets a new one)")  # fmt: skip

    def _say(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()
        self.last_line = time.monotonic()

    def _wait(self, done: Callable[[], bool], deadline: float, what: str,
              progress: Callable[[], str]) -> None:  # fmt: skip
        while not done():
            now = time.monotonic()
            if now > deadline:
                self.stderr.write(f"demo: gave up waiting for {what}; the rest plays on later")
                return
            if now - self.last_line >= PROGRESS_SECONDS:
                self._say(f"demo: {progress()} ({now - self.started:.0f}s)")
            time.sleep(POLL_SECONDS)

    def _print_analysis(self, analysis: Any) -> None:
        url = f"{self.base_url}/matches/{analysis.match_id}/#chances"
        if analysis.status != "done":
            self._say(f"\nanalysis of match {analysis.match_id}: {analysis.status}, at {url} "
                      f"{analysis.error[:200]}")  # fmt: skip
            return
        points = analysis.result["points"]
        self._say(
            f"\nanalysis: {url} (who was winning at {len(points) - 2} day ends, "
            f"{analysis.playouts} playouts each, {analysis.seconds:.1f}s)"
        )

    def _print_league(self, league: Any) -> None:
        matches = league.matches.all()
        finished = matches.filter(status=Match.Status.FINISHED)
        self._say(
            f"\n{league.name}  (mode {league.mode}, {league.seats} seat(s), "
            f"{finished.count()}/{matches.count()} matches finished, status {league.status})"
        )
        self._say(f"  league: {self.base_url}/leagues/{league.pk}/")
        solo = league.mode == "solo"
        header = (
            f"  {'#':>2} {'bot':<20} {'ver':>3} {'elo':>7} {'games':>5} {'W-D-L':>8} {'mean':>7}"
        )
        self._say(header + (f" {'margin':>7}" if solo else ""))
        for row in selectors.league_ladder(league=league):
            mean = row.mean_score or 0.0
            line = (
                f"  {row.rank:>2} {row.bot_version.bot.name:<20} {row.bot_version.number:>3} "
                f"{row.rating:>7.1f} {row.games:>5} "
                f"{f'{row.wins}-{row.draws}-{row.losses}':>8} {mean:>7.1f}"
            )
            if solo:
                line += f" {row.mean_margin or 0.0:>7.1f}"
            self._say(line)
        replay = finished.exclude(replay_name="").order_by("pk").first()
        if replay is not None:
            self._say(f"  replay: {self.base_url}/matches/{replay.pk}/")
        failed = matches.filter(status=Match.Status.FAILED).first()
        if failed is not None:
            self._say(f"  a match failed: {failed.error[:200]}")
