"""Wiring of the login brakes (tournament/services/login_throttle.py) into Django: a signal
receiver that counts failed logins and a middleware that refuses logins while over a limit."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from .services.login_throttle import login_failure_record, login_retry_after

MESSAGE = "Too many failed logins for this account or from this address; try again in {s} s."


def client_address(request: HttpRequest | None) -> str | None:
    return request.META.get("REMOTE_ADDR") if request is not None else None


def on_login_failed(
    sender: Any, credentials: dict[str, Any], request: Any = None, **_: Any
) -> None:
    """`user_login_failed` receiver: every failed authenticate() counts, whatever the form."""
    request = getattr(request, "_request", request)  # a DRF Request wraps Django's
    login_failure_record(username=credentials.get("username"), address=client_address(request))


def _username(request: HttpRequest) -> str | None:
    if request.content_type == "application/json":
        try:
            body = json.loads(request.body or b"{}")
        except (ValueError, UnicodeDecodeError):
            return None
        value = body.get("username") if isinstance(body, dict) else None
        return value if isinstance(value, str) else None
    return request.POST.get("username")


class LoginThrottleMiddleware:
    """Answers 429 with Retry-After to a login POST (LOGIN_THROTTLE_PATHS) while the account
    or the address is over its limit of failed logins: JSON error body under /api/, a short
    page elsewhere. Runs before the view, so not even the right password gets through."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.path in settings.LOGIN_THROTTLE_PATHS:
            wait = login_retry_after(username=_username(request), address=client_address(request))
            if wait is not None:
                return self._refuse(request, wait)
        return self.get_response(request)

    @staticmethod
    def _refuse(request: HttpRequest, wait: int) -> HttpResponse:
        from .api.exceptions import API_PREFIX, error_body

        message = MESSAGE.format(s=wait)
        if request.path.startswith(API_PREFIX):
            response: HttpResponse = JsonResponse(error_body("throttled", message), status=429)
        else:
            response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(wait)
        return response
