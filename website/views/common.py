"""Small helpers every view module shares: pagination and the page size."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page, Paginator
from django.http import Http404, HttpRequest

PER_PAGE = 25


def paginate(
    request: HttpRequest, items: Any, per_page: int | None = None, param: str = "page"
) -> Page:
    """One page of a list; ?page= out of range gives the last page, not an error."""
    return Paginator(items, per_page or PER_PAGE).get_page(request.GET.get(param))


def int_param(request: HttpRequest, name: str) -> int | None:
    """An optional integer query parameter; a malformed one is a 404 (a bad link)."""
    value = request.GET.get(name, "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise Http404(f"{name} must be a number.") from None


def found(obj: Any, what: str, key: Any) -> Any:
    if obj is None:
        raise Http404(f"No {what} {key}.")
    return obj
