"""The demo data set: built-in bots, two uploaded starter bots, a demo organiser, a staff
account for /admin/, one short round-robin league per available mode and one always-open
ladder per mode. Used by `manage.py demo` (scripts/demo.sh), which serves the site while the
embedded worker validates the bots and plays the leagues.

The demo's own leagues hold the quick bots only (random, greedy and the two starters: a few
seconds a match), so their summary is there within minutes on two slots; the search bot, which
takes tens of seconds a match, plays in the open ladders, opened once the leagues are over.

Running the demo again keeps the leagues of the first run (same ids, matches and replays), so
links printed earlier stay valid."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model

from ..models import Bot, BotVersion, League, Match
from .accounts import organiser_grant
from .analysis import match_analysis_request
from .bots import bot_create, bot_version_upload, builtin_bots_register
from .leagues import league_create, league_entry_add, league_open, league_start

ORGANISER = "demo-organiser"
AUTHOR = "demo-author"
DEMO_PASSWORD = "isle-arena-demo"  # the organiser's and the author's: they hold no staff rights
STAFF = "demo-admin"  # /admin/: its password is generated when it is made, and printed once
STARTER_BOTS = {  # bot name -> bundle under examples/bots/
    "starter-random": "random_bot.py",
    "starter-heuristic": "heuristic_bot.py",
}


@dataclass(frozen=True)
class DemoLeagueSpec:
    mode: str
    seats: int
    entrants: tuple[str, ...]
    options: dict[str, Any]
    seeds: int = 1


# The demo's leagues: the quick bots only, fastest first (`--entrants N` keeps the first N).
SEARCH = "search-0.05s"
QUICK = ("random", "greedy", "starter-heuristic", "starter-random")
DEMO_LEAGUES = (
    DemoLeagueSpec("standard", 4, QUICK, {}),
    DemoLeagueSpec("duel", 2, QUICK, {}),
    DemoLeagueSpec("family", 4, QUICK, {}),
    # One solo game each would leave every rating equal; three seeds spread them.
    DemoLeagueSpec("solo", 1, QUICK, {"difficulty": "easy"}, 3),
)


# The always-open ladders: one per mode, the house bots entered, open to every author's entry
# (tournament/ladder_rest.py lets each rest once its order is known). A 4-seat table needs four
# entrants, so the uploaded heuristic starter sits beside the three built-ins there.
HOUSE_BOTS = ("random", "greedy", SEARCH)
LADDER_SEATS = {"standard": 4, "duel": 2, "family": 4, "solo": 1}
LADDER_OPTIONS = {"solo": {"difficulty": "easy"}}


def demo_league_name(mode: str) -> str:
    return f"Demo {mode}"


def demo_ladder_name(mode: str) -> str:
    return f"Open {mode} ladder"


def demo_ladder_entrants(mode: str) -> tuple[str, ...]:
    return HOUSE_BOTS + (("starter-heuristic",) if LADDER_SEATS[mode] == 4 else ())


def _user(username: str, organiser: bool) -> Any:
    user, created = get_user_model().objects.get_or_create(
        username=username, defaults={"email": f"{username}@example.com"}
    )
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save(update_fields=["password"])
    if organiser:
        organiser_grant(user=user)
    return user


def _starter_version(author: Any, name: str, filename: str) -> BotVersion:
    """The uploaded starter bot, uploaded again only when its file changed."""
    path = Path(settings.BASE_DIR) / "examples" / "bots" / filename
    data = path.read_bytes()
    bot = Bot.objects.filter(name=name).first() or bot_create(
        owner=author, name=name, description=f"examples/bots/{filename}, uploaded by the demo"
    )
    sha256 = hashlib.sha256(data).hexdigest()
    version = bot.versions.filter(sha256=sha256).order_by("-number").first()
    if version is None:
        version = bot_version_upload(bot=bot, user=author, filename=filename, data=data)
    version.refresh_from_db()
    return version


def demo_bots() -> dict[str, BotVersion]:
    """Register the built-in bots and upload the starter bots (their validation is queued)."""
    versions: dict[str, BotVersion] = dict(builtin_bots_register())
    author = _user(AUTHOR, organiser=False)
    for name, filename in STARTER_BOTS.items():
        versions[name] = _starter_version(author, name, filename)
    return versions


def demo_bots_validated(versions: dict[str, BotVersion]) -> bool:
    """True once no demo bot version waits for its validation match (refreshes them)."""
    for version in versions.values():
        version.refresh_from_db()
    return all(v.status != BotVersion.Status.PENDING for v in versions.values())


def demo_staff() -> tuple[str, str | None]:
    """The demo's staff account for /admin/: (username, its new password) when it is made now,
    (username, None) when an earlier run made it (its password was printed then; `manage.py
    changepassword demo-admin` sets another). A generated password, never a fixed one: a demo
    left running on a reachable port must not hand out its admin site."""
    user, created = get_user_model().objects.get_or_create(
        username=STAFF, defaults={"email": f"{STAFF}@example.com", "is_staff": True,
                                  "is_superuser": True},
    )  # fmt: skip
    if not created:
        return STAFF, None
    password = secrets.token_urlsafe(12)
    user.set_password(password)
    user.save(update_fields=["password"])
    return STAFF, password


def demo_leagues(
    *, modes: list[str], versions: dict[str, BotVersion], entrants: int | None = None
) -> list[League]:
    """The demo league of each given mode, started, with the first ``entrants`` of its bots
    (all by default) that are ready. A league from an earlier run is kept as it is, with its
    id, matches and replays, so the links printed before keep working."""
    organiser = _user(ORGANISER, organiser=True)
    leagues = []
    for spec in DEMO_LEAGUES:
        if spec.mode not in modes:
            continue
        name = demo_league_name(spec.mode)
        league = League.objects.filter(name=name).first() or league_create(
            organiser=organiser, name=name, mode=spec.mode, seats=spec.seats,
            format=League.Format.ROUND_ROBIN, options=spec.options, seeds=spec.seeds,
            decision_time_limit=1.0, time_bank=10.0,
        )  # fmt: skip
        if league.status == League.Status.DRAFT:
            entered = set(league.entries.values_list("bot_version__bot__name", flat=True))
            # a table must be filled: never fewer entrants than seats
            for bot_name in spec.entrants[: max(entrants or len(spec.entrants), spec.seats)]:
                version = versions[bot_name]
                if version.status == BotVersion.Status.READY and bot_name not in entered:
                    league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
            league_start(league=league, user=organiser)
        league.refresh_from_db()
        leagues.append(league)
    return leagues


def demo_ladders(*, modes: list[str], versions: dict[str, BotVersion]) -> list[League]:
    """The open ladder of each given mode, with the house bots entered, running. It is opened
    without scheduling: the ladder beat (LADDER_SCHEDULE_SECONDS) or the first author's entry
    schedules its matches, so the demo's round-robin leagues are not slowed down. A ladder of an
    earlier run is kept as it is (its entrants, ratings and matches); a house bot missing from
    it (not ready then) is entered now."""
    organiser = _user(ORGANISER, organiser=True)
    ladders = []
    for mode in modes:
        if mode not in LADDER_SEATS:
            continue
        name = demo_ladder_name(mode)
        league = League.objects.filter(name=name).first() or league_create(
            organiser=organiser, name=name, mode=mode, seats=LADDER_SEATS[mode],
            format=League.Format.LADDER, options=LADDER_OPTIONS.get(mode), seeds=1,
            decision_time_limit=1.0, time_bank=10.0, ladder_order=League.LadderOrder.CONSERVATIVE,
        )  # fmt: skip
        entered = set(league.entries.values_list("bot_version__bot__name", flat=True))
        for bot_name in demo_ladder_entrants(mode):
            version = versions.get(bot_name)
            if version and version.status == BotVersion.Status.READY and bot_name not in entered:
                league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
        if league.status == League.Status.DRAFT:
            league_open(league=league, user=organiser)
        league.refresh_from_db()
        ladders.append(league)
    return ladders


def demo_leagues_done(leagues: list[League]) -> bool:
    """True once every demo league has played all its matches (refreshes them)."""
    for league in leagues:
        league.refresh_from_db()
    return all(league.status == League.Status.CLOSED for league in leagues)


ENDED = (Match.Status.FINISHED, Match.Status.FAILED, Match.Status.CANCELLED)


def demo_progress(leagues: list[League]) -> tuple[int, int]:
    """(matches ended, matches) over the demo leagues, for the command's progress lines."""
    matches = Match.objects.filter(league__in=leagues)
    return matches.filter(status__in=ENDED).count(), matches.count()


# The demo ends with one analysed match (tournament/services/analysis.py): half the usual
# playouts per point keep it short; the match page shows its chances chart.
DEMO_ANALYSIS_PLAYOUTS = 200
ANALYSIS_MODES = ("standard", "duel", "family", "solo")  # the first one played is analysed


def demo_analysis(leagues: list[League]) -> Any:
    """Request the analysis of one finished match of the demo (a 4-player standard one when
    it was played): the same match, and the same analysis, on every run."""
    by_mode = {league.mode: league for league in leagues}
    for mode in ANALYSIS_MODES:
        league = by_mode.get(mode)
        if league is None:
            continue
        match = (league.matches.filter(status=Match.Status.FINISHED).exclude(replay_name="")
                 .order_by("pk").first())  # fmt: skip
        if match is not None:
            analysis, _created = match_analysis_request(
                match=match, user=None, playouts=DEMO_ANALYSIS_PLAYOUTS)
            return analysis
    return None


def demo_analysis_done(analysis: Any) -> bool:
    analysis.refresh_from_db()
    return analysis.status in ("done", "failed")
