"""Roles: every registered user is an author; organisers are members of the "organisers" group
(created by migration 0002), which holds the `organise_leagues` permission."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from ..errors import Conflict
from .signup_throttle import signup_admit

ORGANISERS_GROUP = "organisers"


def organisers_group() -> Group:
    """The organisers group with its permission, recreated if a test flush removed it."""
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    content_type = ContentType.objects.get(app_label="tournament", model="league")
    permission, _ = Permission.objects.get_or_create(
        codename="organise_leagues", content_type=content_type,
        defaults={"name": "Can create and run leagues"},
    )  # fmt: skip
    group.permissions.add(permission)
    return group


def organiser_grant(*, user: Any) -> Any:
    """Make a user an organiser (what an admin does in the admin site by adding the group)."""
    user.groups.add(organisers_group())
    # Django caches permissions on the user object; drop them so has_perm sees the group.
    for cache in ("_perm_cache", "_group_perm_cache", "_user_perm_cache"):
        user.__dict__.pop(cache, None)
    return user


def account_create(
    *, username: str, email: str, password: str, address: str | None = None
) -> Any:
    """Register an author (what the sign-up page and POST /api/v1/accounts/ do).

    The caller has checked the fields (a form or a serializer); the database still refuses a
    duplicate username, which becomes a Conflict rather than a 500. ``address``, the client's
    (tournament/client_address.py), is counted against SIGNUPS_PER_ADDRESS: RateLimited when
    it made its share of accounts already.
    """
    signup_admit(address=address)
    try:
        with transaction.atomic():
            return get_user_model().objects.create_user(
                username=username, email=email, password=password
            )
    except IntegrityError:
        raise Conflict("This username is taken.", fields={"username": ["taken"]}) from None


def api_token_get(*, user: Any) -> str:
    """The user's API token, created on first use."""
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


def api_token_regenerate(*, user: Any) -> str:
    """Replace the user's API token: the old one stops working at once."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user).key
