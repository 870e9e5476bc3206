"""Challenge matches: a user picks ready bot versions of any (non-retired) bot, the seats and
the mode, and gets an unrated match played by the normal workers.

Challenges cost worker time that leagues need, so each user may request at most
`CHALLENGES_PER_HOUR` in any rolling hour and have at most `CHALLENGES_ACTIVE_MAX` queued or
running at once. The limit is counted from the matches themselves, so it holds across web
processes and for every front end (API and site) alike. A challenge never has a league, and
`match_record_result` rates league matches only: no rating ever moves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from ..errors import Conflict, NotFound, RateLimited, ValidationFailed
from ..models import BotVersion, Match
from .game_config import game_config_check
from .matches import match_create_internal

WINDOW = timedelta(hours=1)
ACTIVE = (Match.Status.QUEUED, Match.Status.RUNNING)


def challenge_create(
    *,
    user: Any,
    mode: str,
    bot_version_ids: Sequence[int],
    options: dict[str, Any] | None = None,
    seats: int | None = None,
) -> Match:
    """Queue an unrated match between the chosen ready versions, in seat order.

    `seats`, when given, must equal the number of versions (a form that asks for the seats
    first gets a clear error instead of a silently shorter game). The same version may take
    several seats. Raises RateLimited (HTTP 429, with `retry_after`) over the user's limits.
    """
    if not isinstance(bot_version_ids, (list, tuple)) or not bot_version_ids:
        raise ValidationFailed(
            "bot_versions must be a non-empty list of bot version ids.",
            fields={"bot_versions": ["a non-empty list"]},
        )
    if seats is not None and seats != len(bot_version_ids):
        raise ValidationFailed(
            f"{seats} seats need {seats} bot versions, not {len(bot_version_ids)}.",
            fields={"bot_versions": [f"one per seat ({seats})"]},
        )
    cleaned = game_config_check(mode=mode, seats=len(bot_version_ids), options=options)
    versions = _ready_versions(bot_version_ids)
    with transaction.atomic():
        # One user's requests queue up on their own row, so two at once cannot both pass.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        _check_limits(user)
        return match_create_internal(
            kind=Match.Kind.CHALLENGE, mode=mode, options=cleaned, bot_versions=versions,
            league=None, requested_by=user,
        )  # fmt: skip


def _ready_versions(ids: Sequence[int]) -> list[BotVersion]:
    found = BotVersion.objects.select_related("bot").in_bulk(list(ids))
    versions = []
    for vid in ids:
        version = found.get(vid)
        if version is None:
            raise NotFound(
                f"Bot version {vid} does not exist.", fields={"bot_versions": [str(vid)]}
            )
        if version.status != BotVersion.Status.READY:
            raise Conflict(Conflict.VERSION_NOT_READY, fields={"bot_versions": [str(vid)]})
        if version.bot.retired:
            raise Conflict(Conflict.BOT_RETIRED, fields={"bot_versions": [str(vid)]})
        if version.suspended_at is not None:
            raise Conflict(Conflict.VERSION_SUSPENDED, fields={"bot_versions": [str(vid)]})
        versions.append(version)
    return versions


def _check_limits(user: Any) -> None:
    now = timezone.now()
    mine = Match.objects.filter(kind=Match.Kind.CHALLENGE, requested_by=user)
    active_max = settings.CHALLENGES_ACTIVE_MAX
    if mine.filter(status__in=ACTIVE).count() >= active_max:
        raise RateLimited(
            RateLimited.CHALLENGES_ACTIVE.format(limit=active_max),
            retry_after=settings.CHALLENGE_RETRY_SECONDS,
        )
    per_hour = settings.CHALLENGES_PER_HOUR
    recent = list(
        mine.filter(created_at__gt=now - WINDOW)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:per_hour]
    )
    if len(recent) >= per_hour:
        # The oldest of the last `per_hour` leaves the window first.
        wait = (recent[-1] + WINDOW - now).total_seconds()
        raise RateLimited(
            RateLimited.CHALLENGES_PER_HOUR.format(limit=per_hour),
            retry_after=max(1, math.ceil(wait)),
        )
