"""The one place the site asks for a challenge match, so the service it calls can change in
one line (helper `cli` is building tournament/services/challenges.py with the per-user limit)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from tournament.services import matches as match_services


def request_challenge(request: HttpRequest, kwargs: dict[str, Any]) -> Any:
    return match_services.match_create(user=request.user, **kwargs)
