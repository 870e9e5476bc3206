"""Roles: every registered user is an author; organisers are members of the "organisers" group
(created by migration 0002), which holds the `organise_leagues` permission."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType

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
