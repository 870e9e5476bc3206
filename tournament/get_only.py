"""Pages that are only read. `get_only` marks a view that answers GET and HEAD alone, and
`website.error_pages.MethodGuardMiddleware` answers any other method on it with the site's
405 page before the CSRF check: a POST to a page is "not like this", never the page itself
nor "the form expired"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed

SAFE_METHODS = ("GET", "HEAD")
ALLOWED_ATTRIBUTE = "allowed_methods"  # what the middleware reads on a view


def get_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The view, answering 405 (Allow: GET, HEAD) to any other method even without the
    middleware (a test's RequestFactory); the mark is kept by `functools.wraps` wrappers."""

    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method not in SAFE_METHODS:
            return HttpResponseNotAllowed(SAFE_METHODS)
        return view(request, *args, **kwargs)

    guarded.__dict__.update(view.__dict__)
    guarded.__name__ = getattr(view, "__name__", "view")
    guarded.__doc__ = view.__doc__
    guarded.__wrapped__ = view  # type: ignore[attr-defined]
    setattr(guarded, ALLOWED_ATTRIBUTE, SAFE_METHODS)
    return guarded


def allowed_methods(view: Any) -> tuple[str, ...] | None:
    """The methods a marked view takes (None: not marked, it says for itself)."""
    return getattr(view, ALLOWED_ATTRIBUTE, None)
