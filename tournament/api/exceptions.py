"""The one exception handler of the API: every error body is
``{"error": {"code": "...", "message": "...", "fields": {...}}}``. Django's 404 and 500 handlers
give the same body for paths under /api/ that no view answers (or that crash)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions as drf
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from ..errors import ArenaError, RateLimited


def error_body(code: str, message: str, fields: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "fields": fields or {}}}


def _flatten(detail: Any) -> Any:
    if isinstance(detail, dict):
        return {k: _flatten(v) for k, v in detail.items()}
    if isinstance(detail, list):
        return [_flatten(v) for v in detail]
    return str(detail)


def _first_message(fields: dict[str, Any]) -> str:
    for name, value in fields.items():
        while isinstance(value, (list, dict)) and value:
            value = value[0] if isinstance(value, list) else next(iter(value.values()))
        if name == "non_field_errors":
            return str(value)
        return f"{name}: {value}"
    return "Invalid input."


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
        fields = (
            _flatten(exc.detail)
            if isinstance(exc.detail, dict)
            else {"non_field_errors": _flatten(exc.detail)}
        )
        response.data = error_body("invalid", _first_message(fields), fields)
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
