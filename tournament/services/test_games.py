"""Test games: an author plays one of their own versions now, against built-in bots or their
own other versions, privately and unrated, ahead of the leagues' backlog.

A test game is a match of kind ``test``: played by the normal match task, with the runner and
the limits of a league match (BOT_DECISION_TIME_LIMIT / BOT_TIME_BANK, a league's defaults),
through the workshop gate (services/workshop_gate.py: held until fewer than WORKSHOP_SLOTS
workshop games are in flight, test games before boss-league games) into the ``workshop`` lane
(workers/queueing/queues.py), which workers serve right after validations and challenges and
before every league match. Its end only opens the gate for the next one (tournament/wiring.py):
no rating moves, no fault counts toward a suspension and no league hears of it. Only the
author who asked (the owner of the tested version) and staff can see it
(`selectors.visible_matches`); it never appears in a public list.

Being ahead of the leagues, test games are capped per author, counted from the matches
themselves so the cap holds across web processes: at most TEST_GAMES_RUNNING_PER_AUTHOR
queued or running at once, and TEST_GAMES_PER_DAY in any 24 hours.

The tested version may be ready, or still pending validation once its bundle can run (no
build, or its build done): an author may watch a new upload play while it is validated. A
failed version is refused (it did not run). A version suspended from leagues for its faults
may still be tested: a test game is how its author sees why it faulted.

The workshop's draft is tested as it is, unsubmitted (`test_game_of_draft`): it plays as its
draft snapshot, a version that only its author's test games ever seat (models.BotVersion).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from engine.bots.names import builtin_names, is_builtin_bot

from ..errors import Conflict, NotFound, PermissionDenied, RateLimited, ValidationFailed
from ..models import Bot, BotVersion, Match
from .bots import bot_draft_snapshot, builtin_version
from .drafts import NO_DRAFT, draft_for
from .game_config import game_config_check
from .matches import match_create_internal

DAY = timedelta(hours=24)
ACTIVE = (Match.Status.QUEUED, Match.Status.RUNNING)
RUNNING_RETRY_SECONDS = 10  # Retry-After while one is running: a short game ends soon


def test_game_create(
    *,
    user: Any,
    bot_version_id: int,
    opponents: Sequence[str | int],
    mode: str,
    seats: int | None = None,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
) -> Match:
    """Queue a test game of the user's version in seat 0 against ``opponents`` (built-in bot
    names or ids of the user's own versions), in the workshop lane.

    ``seats``, when given, is the game's number of seats: with one opponent, that opponent
    takes every other seat; with several, there must be one per other seat. Raises
    RateLimited (HTTP 429, with ``retry_after``) over the author's caps."""
    tested = _own_runnable(user, bot_version_id, field="bot_version")
    game = _game(user, opponents, mode, seats, seed, options)
    with _author_lock(user):
        return _queue(user, tested, game)


def test_game_of_draft(
    *,
    user: Any,
    bot: Bot,
    opponents: Sequence[str | int],
    mode: str,
    seats: int | None = None,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
) -> Match:
    """Queue a test game of the bot's workshop draft as it is now, as `test_game_create` does
    for a version: the draft is played as its draft snapshot (`bot_draft_snapshot`), a version
    stored like an upload of its one file and run by the same runner, sandbox and limits as
    a league match. The caps are the same (the snapshot is made only within them). NotFound
    when the bot is not the user's or has no draft."""
    draft = draft_for(bot=bot, user=user)
    if draft is None:
        raise NotFound(NO_DRAFT, fields={"draft": [str(bot.pk)]})
    game = _game(user, opponents, mode, seats, seed, options)
    with _author_lock(user):
        tested = bot_draft_snapshot(bot=bot, user=user, filename=draft.filename,
                                    data=draft.source.encode("utf-8"))  # fmt: skip
        return _queue(user, tested, game)


@dataclass(frozen=True)
class _Game:
    """A test game's checked request: its opponents, mode, cleaned options and seed."""

    opponents: list[BotVersion]
    mode: str
    options: dict[str, Any]
    seed: int | None


def _game(user: Any, opponents: Sequence[str | int], mode: str, seats: int | None,
          seed: int | None, options: dict[str, Any] | None) -> _Game:  # fmt: skip
    others = _opponents(user, opponents, seats)
    cleaned = game_config_check(mode=mode, seats=1 + len(others), options=options)
    if seed is not None and (isinstance(seed, bool) or not 0 <= seed < 2**63):
        raise ValidationFailed("seed must be an integer from 0 to 2^63-1.",
                               fields={"seed": ["0 to 2^63-1"]})  # fmt: skip
    return _Game(others, mode, cleaned, seed)


@contextmanager
def _author_lock(user: Any) -> Iterator[None]:
    """A transaction holding the author's row and within the caps: one author's requests
    queue up on their own row, so two at once cannot both pass."""
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        test_games_check_caps(user=user)
        yield


def _queue(user: Any, tested: BotVersion, game: _Game) -> Match:
    return match_create_internal(
        kind=Match.Kind.TEST, mode=game.mode, options=game.options,
        bot_versions=[tested, *game.opponents], league=None, requested_by=user, seed=game.seed,
        decision_time_limit=settings.BOT_DECISION_TIME_LIMIT, time_bank=settings.BOT_TIME_BANK,
    )  # fmt: skip


def _opponents(user: Any, opponents: Sequence[str | int], seats: int | None) -> list[BotVersion]:
    if not isinstance(opponents, (list, tuple)):
        raise ValidationFailed("opponents must be a list of built-in bot names or version ids.",
                               fields={"opponents": ["a list"]})  # fmt: skip
    versions = [_opponent(user, name) for name in opponents]
    if seats is None:
        return versions
    if len(versions) == 1 and seats >= 2:
        return versions * (seats - 1)
    if len(versions) != seats - 1:
        raise ValidationFailed(
            f"{seats} seats need {seats - 1} opponents (or one, for every other seat),"
            f" not {len(versions)}.",
            fields={"opponents": [f"one per other seat ({seats - 1})"]},
        )
    return versions


def _opponent(user: Any, name: str | int) -> BotVersion:
    """A built-in bot by name, or one of the user's own runnable versions by id."""
    if isinstance(name, str) and is_builtin_bot(name):
        try:
            return builtin_version(name)
        except KeyError:  # search-<seconds>s other than the registered ones
            raise ValidationFailed(
                f"{name!r} is not one of the site's built-in bots: {builtin_names()}.",
                fields={"opponents": [name]},
            ) from None
    if isinstance(name, int) and not isinstance(name, bool):
        return _own_runnable(user, name, field="opponents")
    if isinstance(name, str) and name.isdigit():
        return _own_runnable(user, int(name), field="opponents")
    raise ValidationFailed(
        f"Opponent {name!r} is neither a built-in bot ({builtin_names()}) nor a version id.",
        fields={"opponents": [str(name)]},
    )


def _own_runnable(user: Any, version_id: int, *, field: str) -> BotVersion:
    version = BotVersion.objects.select_related("bot").filter(pk=version_id).first()
    if version is None:
        raise NotFound(f"Bot version {version_id} does not exist.",
                       fields={field: [str(version_id)]})  # fmt: skip
    if version.bot.is_system or version.bot.owner_id != user.pk:
        raise PermissionDenied(
            f"Bot version {version_id} is not yours: a test game plays your own versions"
            " (and the built-in bots).",
            fields={field: [str(version_id)]},
        )
    if not runnable(version):
        raise Conflict(
            f"Bot version {version_id} cannot play: "
            + ("it failed validation." if version.status == BotVersion.Status.FAILED
               else "its build has not finished yet."),
            fields={field: [str(version_id)]},
        )  # fmt: skip
    return version


def runnable(version: BotVersion) -> bool:
    """Whether the sandbox can run ``version`` now: ready, or pending with nothing to build
    or its build done (its validation is then queued or running)."""
    if version.status == BotVersion.Status.READY:
        return True
    if version.status != BotVersion.Status.PENDING:
        return False
    return version.build_queued_at is None or bool(version.built_sha256)


def test_games_check_caps(*, user: Any, now: datetime | None = None) -> None:
    """RateLimited, in words, when the author is at either cap."""
    now = now or timezone.now()
    mine = Match.objects.filter(kind=Match.Kind.TEST, requested_by=user)
    running_max = settings.TEST_GAMES_RUNNING_PER_AUTHOR
    running = mine.filter(status__in=ACTIVE).count()
    if running >= running_max:
        raise RateLimited(
            RateLimited.TEST_GAMES_RUNNING.format(games=_games(running), limit=running_max),
            retry_after=RUNNING_RETRY_SECONDS,
        )
    per_day = settings.TEST_GAMES_PER_DAY
    recent = list(
        mine.filter(created_at__gt=now - DAY)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:per_day]
    )
    if len(recent) >= per_day:
        # The oldest of the last `per_day` leaves the window first.
        free_at = recent[-1] + DAY
        wait = max(1, math.ceil((free_at - now).total_seconds()))
        raise RateLimited(
            RateLimited.TEST_GAMES_PER_DAY.format(
                games=_games(len(recent)), limit=per_day,
                when=free_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M"),
                wait=_duration(wait),
            ),
            retry_after=wait,
        )  # fmt: skip


def _games(count: int) -> str:
    return f"{count} test game" if count == 1 else f"{count} test games"


def _duration(seconds: int) -> str:
    """A wait as people say it: 3 h 20 min, 12 min, 40 s."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    if minutes:
        return f"{minutes} min"
    return f"{secs} s"
