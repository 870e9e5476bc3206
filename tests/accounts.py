"""Fixtures shared by the tests of the site and the API (tests/tournament, tests/website,
tests/arena): users in each role, all with one known password, and a test's file storages under
its tmp_path. Registered for the whole suite by ``pytest_plugins`` in tests/conftest.py."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tournament.services.accounts import organiser_grant

PASSWORD = "pw-12345!x"  # every make_user user's


def use_tmp_storages(settings: Any, tmp_path: Path) -> None:
    """The ``replays`` and ``bots`` storages in folders under ``tmp_path``, and a cheap password
    hasher: tests create many users, and the production hasher costs about a second each."""
    settings.STORAGES = {
        **settings.STORAGES,
        "replays": {"BACKEND": "django.core.files.storage.FileSystemStorage",
                    "OPTIONS": {"location": str(tmp_path / "replays")}},
        "bots": {"BACKEND": "django.core.files.storage.FileSystemStorage",
                 "OPTIONS": {"location": str(tmp_path / "bots")}},
    }  # fmt: skip
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    """make_user(username, organiser=False, **extra) -> a user with PASSWORD (``extra``: more
    fields, e.g. is_staff=True)."""
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
def other_author(make_user: Callable[..., Any]) -> Any:
    return make_user("bob")


@pytest.fixture
def organiser(make_user: Callable[..., Any]) -> Any:
    return make_user("olga", organiser=True)
