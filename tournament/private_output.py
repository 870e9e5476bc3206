"""Who sees a bot's private output: its stderr, its build log, a timeout's evidence and the
detail of why a version failed are for the bot's owner and staff only (docs/api.md, "Who
sees what"). The API's serializers and the site's views both ask here."""

from __future__ import annotations

from typing import Any


def may_see_private(user: Any, owner_id: int | None) -> bool:
    """True for the bot's owner and for staff; `user` may be anonymous or None."""
    return bool(
        user is not None and user.is_authenticated and (user.is_staff or user.pk == owner_id)
    )


def failure_kind(reason: str) -> str:
    """What others read of a failure reason: its kind ("crash", "build failed") without the
    detail after it ("crash: exited with status 1"), which can quote the sources or the bot's
    output."""
    return (reason or "").split(": ", 1)[0]
