"""The site asks for a challenge match through the same service as the API
(tournament/services/challenges.py: unrated, limited per user)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from tournament.services import challenges


def request_challenge(request: HttpRequest, kwargs: dict[str, Any]) -> Any:
    return challenges.challenge_create(user=request.user, **kwargs)
