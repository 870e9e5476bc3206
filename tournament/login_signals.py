"""Wiring of the login brakes (tournament/services/login_throttle.py) into Django: signal
receivers that count failed logins and remember where an account logged in, and a middleware
that refuses logins while over a limit. The address is the client's as the trusted proxy
reports it (tournament/client_address.py)."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from .api.exceptions import API_PREFIX, error_body
from .client_address import client_address
from .services.login_throttle import login_admit, login_failure_record, login_success_record

MESSAGE = "Too many failed logins from this address or for this account; try again in {s} s."


def on_login_failed(
    sender: Any, credentials: dict[str, Any], request: Any = None, **_: Any
) -> None:
    """`user_login_failed` receiver: every failed authenticate() counts, whatever the form."""
    request = getattr(request, "_request", request)  # a DRF Request wraps Django's
    login_failure_record(username=credentials.get("username"), address=client_address(request))


def on_logged_in(sender: Any, request: Any = None, user: Any = None, **_: Any) -> None:
    """`user_logged_in` receiver: the account's known addresses keep their allowance when it is
    under attack."""
    request = getattr(request, "_request", request)
    if user is not None:
        login_success_record(username=user.get_username(), address=client_address(request))


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
    """Answers 429 with Retry-After to a login POST (LOGIN_THROTTLE_PATHS) while the address,
    or the account at this address, is over its limit of failed logins, or while an account
    under attack makes an address new to it wait its turn: JSON error body under /api/, a
    short page elsewhere. Runs before the view, so not even the right password gets
    through."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.path in settings.LOGIN_THROTTLE_PATHS:
            wait = login_admit(username=_username(request), address=client_address(request))
            if wait is not None:
                return self._refuse(request, wait)
        return self.get_response(request)

    @staticmethod
    def _refuse(request: HttpRequest, wait: int) -> HttpResponse:
        message = MESSAGE.format(s=wait)
        if request.path.startswith(API_PREFIX):
            response: HttpResponse = JsonResponse(error_body("throttled", message), status=429)
        else:
            response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(wait)
        return response
