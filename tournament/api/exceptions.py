"""The one exception handler of the API: every error body is
``{"error": {"code": "...", "message": "...", "fields": {...}}}``. Django's 404 and 500 handlers
give the same body for paths under /api/ that no view answers (or that crash)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from django.views.csrf import csrf_failure as django_csrf_failure
from rest_framework import exceptions as drf
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from ..errors import ArenaError, RateLimited
from ..field_labels import LABELS


def error_body(code: str, message: str, fields: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "fields": fields or {}}}


def _messages(detail: Any) -> list[str]:
    """One field's errors as a list of strings, as the schema says. A list field's per-item
    errors ({"0": [...]}) and a nested object's per-key errors become "item 0: ..." and
    "key: ..." strings."""
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            label = f"item {key}" if str(key).isdigit() else str(key)
            out.extend(f"{label}: {message}" for message in _messages(value))
        return out
    if isinstance(detail, (list, tuple)):
        return [message for value in detail for message in _messages(value)]
    return [str(detail)]


def _flatten(detail: Any) -> dict[str, list[str]]:
    """Field name -> list of messages, for any DRF ValidationError detail."""
    if isinstance(detail, dict):
        return {str(name): _messages(value) for name, value in detail.items()}
    return {"non_field_errors": _messages(detail)}


def _summary(fields: dict[str, list[str]]) -> str:
    """Every field's errors in one line, so a client sees all of them in the message too."""
    parts = []
    for name, messages in fields.items():
        text = "; ".join(messages)
        label = LABELS.get(name, name)  # a league's fields as the site's form names them
        parts.append(text if name == "non_field_errors" else f"{label}: {text}")
    return " | ".join(parts) or "Invalid input."


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Map domain errors and DRF/Django errors to one body shape; let the rest be 500s."""
    if isinstance(exc, ArenaError):
        response = Response(error_body(exc.code, exc.message, exc.fields), status=exc.status)
        if isinstance(exc, RateLimited):
            response["Retry-After"] = str(exc.retry_after)
        return response
    if isinstance(exc, Http404):
        exc = drf.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, drf.ValidationError):
        fields = _flatten(exc.detail)
        response.data = error_body("invalid", _summary(fields), fields)
        return response
    detail = exc.detail if isinstance(exc, drf.APIException) else str(exc)
    code = exc.get_codes() if isinstance(exc, drf.APIException) else "error"
    if not isinstance(code, str):
        code = "error"
    response.data = error_body(code, str(detail))
    return response


API_PREFIX = "/api/"


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404: an unknown API path gets the error body, a page gets Django's page."""
    if request.path.startswith(API_PREFIX):
        message = f"No API endpoint at {request.path}."
        return JsonResponse(error_body("not_found", message), status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: an API client gets the error body rather than an HTML page."""
    if request.path.startswith(API_PREFIX):
        body = error_body("server_error", "Internal server error; it has been logged.")
        return JsonResponse(body, status=500)
    return defaults.server_error(request)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: an API path gets the error body, a page gets Django's page."""
    if request.path.startswith(API_PREFIX):
        message = f"CSRF verification failed: {reason}" if reason else "CSRF verification failed."
        return JsonResponse(error_body("csrf_failed", message), status=403)
    return django_csrf_failure(request, reason=reason)


# What a plain (non-JSON) error answer under /api/ becomes: code and message by status.
_PLAIN_ERRORS = {
    400: ("invalid", "Bad request."),
    401: ("not_authenticated", "Authentication credentials were not provided."),
    403: ("permission_denied", "You do not have permission to perform this action."),
    404: ("not_found", "No API endpoint at {path}."),
    405: ("method_not_allowed", "Method {method} is not allowed here."),
    413: ("too_large", "The request body is too large."),
    429: ("throttled", "Too many requests; try again later."),
    500: ("server_error", "Internal server error; it has been logged."),
}


class ApiErrorBodyMiddleware:
    """Every error answered under /api/ is the one JSON error body, whatever produced it.

    DRF views already answer it; this catches the rest: DEBUG's technical 404 and 500 pages,
    Django's bare 405 and 400 answers, and anything else that is not JSON. Headers such as
    Allow and Retry-After are kept.
    """

    KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate", "Vary")

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code < 400
            or not request.path.startswith(API_PREFIX)
            or response.get("Content-Type", "").startswith("application/json")
        ):
            return response
        default = (
            ("server_error", _PLAIN_ERRORS[500][1])
            if response.status_code >= 500
            else ("error", "The request failed.")
        )
        code, message = _PLAIN_ERRORS.get(response.status_code, default)
        body = error_body(code, message.format(path=request.path, method=request.method))
        replacement = JsonResponse(body, status=response.status_code)
        for header in self.KEPT_HEADERS:
            if header in response:
                replacement[header] = response[header]
        return replacement
