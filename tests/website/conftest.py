"""Fixtures of the website tests: users in each role, storages under tmp_path, and leagues of
built-in bots played for real by the engine (eager Celery, in-process built-in bots)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tournament.models import Bot, BotVersion, League
from tournament.services import bots as bot_services
from tournament.services import leagues as league_services
from tournament.services.accounts import organiser_grant

PASSWORD = "pw-12345!x"


@pytest.fixture(autouse=True)
def _site_settings(settings: Any, tmp_path: Any) -> None:
    settings.STORAGES = {
        **settings.STORAGES,
        "replays": {"BACKEND": "django.core.files.storage.FileSystemStorage",
                    "OPTIONS": {"location": str(tmp_path / "replays")}},
        "bots": {"BACKEND": "django.core.files.storage.FileSystemStorage",
                 "OPTIONS": {"location": str(tmp_path / "bots")}},
    }  # fmt: skip
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    from django.contrib.auth import get_user_model

    def _make(username: str, organiser: bool = False, **extra: Any) -> Any:
        user = get_user_model().objects.create_user(
            username, f"{username}@example.com", PASSWORD, **extra
        )
        if organiser:
            organiser_grant(user=user)
        return user

    return _make


@pytest.fixture
def author(make_user: Callable[..., Any]) -> Any:
    return make_user("alice")


@pytest.fixture
def organiser(make_user: Callable[..., Any]) -> Any:
    return make_user("olga", organiser=True)


def builtin_copy(owner: Any, name: str, builtin: str = "random") -> BotVersion:
    """A user's bot whose ready v1 is a built-in bot (plays in-process, no sandbox)."""
    bot = Bot.objects.create(name=name, owner=owner)
    return BotVersion.objects.create(bot=bot, number=1, builtin=builtin,
                                     status=BotVersion.Status.READY)  # fmt: skip


@pytest.fixture
def played_league(
    organiser: Any, author: Any, django_capture_on_commit_callbacks: Any
) -> Callable[..., League]:
    """played_league(seats, entrants) -> a round-robin standard league, started and played."""

    def _make(seats: int = 3, entrants: int = 3, name: str = "Spring cup") -> League:
        bot_services.builtin_bots_register()
        league = league_services.league_create(
            organiser=organiser, name=name, mode="standard" if seats > 2 else "duel",
            seats=seats, format=League.Format.ROUND_ROBIN,
        )  # fmt: skip
        for i in range(entrants):
            version = builtin_copy(author, f"{name}-bot{i}", "greedy" if i == 0 else "random")
            league_services.league_entry_add(league=league, user=author, bot_id=version.bot_id)
        with django_capture_on_commit_callbacks(execute=True):
            league_services.league_start(league=league, user=organiser)
        league.refresh_from_db()
        return league

    return _make
