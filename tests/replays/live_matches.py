"""Set-up shared by the live-view tests: a match of the built-in greedy bot, and settings that
send live logs to files under a test's folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def greedy_match(mode: str, seats: int, status: str = "running", seed: int = 11) -> Any:
    """A challenge match of ``seats`` greedy seats, in ``status``."""
    from django.contrib.auth import get_user_model

    from tournament.models import Bot, BotVersion, Match, MatchSeat

    owner = get_user_model().objects.create_user("live-owner")
    version = BotVersion.objects.create(
        bot=Bot.objects.create(name="greedy", owner=owner, is_system=True), number=1,
        builtin="greedy", status=BotVersion.Status.READY)
    match = Match.objects.create(kind=Match.Kind.CHALLENGE, mode=mode, seed=seed, status=status)
    for s in range(seats):
        MatchSeat.objects.create(match=match, seat=s, bot_version=version)
    return match


def file_live_logs(settings: Any, folder: Path) -> Path:
    """Live logs in files under ``folder`` (no Redis): a file the web and a worker share."""
    settings.DATA_DIR = folder
    settings.CELERY_BROKER_URL = "memory://"
    settings.CACHE_URL = ""
    settings.LIVE_REDIS_URL = ""
    return folder / "live"
