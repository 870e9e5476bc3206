"""The site's 405 page. Django answers a page asked with the wrong method (GET on a form's
target, such as /leagues/1/invite/) with an empty 405; a person who lands there gets the
site's styled page instead, saying which methods the address takes and where to go. API paths
keep their JSON error body (tournament/api/exceptions.py)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import render

from tournament.api.exceptions import API_PREFIX
from tournament.get_only import allowed_methods


def _parent(path: str) -> str:
    """The page one level up: /leagues/1/invite/ -> /leagues/1/."""
    parent = path.rstrip("/").rsplit("/", 1)[0]
    return f"{parent}/" if parent else "/"


class MethodGuardMiddleware:
    """A method a read-only page does not take (`tournament.get_only`) is answered 405 here,
    before the CSRF check would call a POST without a token "the form expired";
    `NotAllowedPageMiddleware` then draws the page."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        allowed = allowed_methods(view)
        if allowed is not None and request.method not in allowed:
            return HttpResponseNotAllowed(allowed)
        return None


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
