"""The site's 405 page. Django answers a page asked with the wrong method (GET on a form's
target, such as /leagues/1/invite/) with an empty 405; a person who lands there gets the
site's styled page instead, saying which methods the address takes and where to go. API paths
keep their JSON error body (tournament/api/exceptions.py)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.api.exceptions import API_PREFIX


def _parent(path: str) -> str:
    """The page one level up: /leagues/1/invite/ -> /leagues/1/."""
    parent = path.rstrip("/").rsplit("/", 1)[0]
    return f"{parent}/" if parent else "/"


class NotAllowedPageMiddleware:
    """Replaces an empty 405 outside /api/ with 405.html, keeping its Allow header, unless the
    client asked for JSON only (the replay endpoints' scripts). Last in MIDDLEWARE, so the page
    has the user and messages like any other."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        accept = request.headers.get("Accept", "")
        if (
            response.status_code != 405
            or request.path.startswith(API_PREFIX)
            or ("application/json" in accept and "text/html" not in accept)  # a script
            or response.streaming
            or response.content
        ):
            return response
        allowed = [m.strip() for m in response.get("Allow", "").split(",") if m.strip()]
        page = render(
            request,
            "405.html",
            {
                "method": request.method,
                "allowed": allowed,
                "form_only": allowed and set(allowed) <= {"POST", "OPTIONS"},
                "request_path": request.path,
                "parent": _parent(request.path),
            },
            status=405,
        )
        if "Allow" in response:
            page["Allow"] = response["Allow"]
        return page
