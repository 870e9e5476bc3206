"""Fixtures of the website tests: storages under tmp_path, and leagues of built-in bots played
for real by the engine (eager Celery, in-process built-in bots). Users in each role come from
tests/accounts.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.accounts import use_tmp_storages
from tournament.models import Bot, BotVersion, League
from tournament.services import bots as bot_services
from tournament.services import leagues as league_services


@pytest.fixture(autouse=True)
def _site_settings(settings: Any, tmp_path: Any) -> None:
    use_tmp_storages(settings, tmp_path)
    from django.core.cache import cache

    cache.clear()


def builtin_copy(owner: Any, name: str, builtin: str = "random") -> BotVersion:
    """A user's bot whose ready v1 is a built-in bot (plays in-process, no sandbox)."""
    bot = Bot.objects.create(name=name, owner=owner)
    return BotVersion.objects.create(bot=bot, number=1, builtin=builtin,
                                     status=BotVersion.Status.READY)  # fmt: skip


@pytest.fixture
def played_league(
    organiser: Any, author: Any, django_capture_on_commit_callbacks: Any
) -> Callable[..., League]:
    """played_league(seats, entrants) -> a round-robin league, started and played: standard for
    3-4 seats, the Duel for 2, solo for 1."""

    def _make(seats: int = 3, entrants: int = 3, name: str = "Spring cup") -> League:
        bot_services.builtin_bots_register()
        mode = "standard" if seats > 2 else "duel" if seats == 2 else "solo"
        options = {"difficulty": "medium"} if mode == "solo" else None
        league = league_services.league_create(
            organiser=organiser, name=name, mode=mode, seats=seats,
            format=League.Format.ROUND_ROBIN, options=options,
        )  # fmt: skip
        for i in range(entrants):
            version = builtin_copy(author, f"{name}-bot{i}", "greedy" if i == 0 else "random")
            league_services.league_entry_add(league=league, user=author, bot_id=version.bot_id)
        with django_capture_on_commit_callbacks(execute=True):
            league_services.league_start(league=league, user=organiser)
        league.refresh_from_db()
        return league

    return _make
