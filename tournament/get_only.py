"""Pages that are only read. `get_only` marks a view that answers GET and HEAD alone, and
`website.error_pages.MethodGuardMiddleware` answers any other method on it, and any method a
class-based view (the API's) has no handler for, with a 405 before the CSRF check: a POST to
a page is the site's 405 page, never the page itself nor "the form expired", and the API's
405 is its JSON error body."""

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
    """The methods a view takes: a marked one's, or a class-based view's (the API's views:
    its handlers, so a method it lacks is a 405 before authentication and permissions could
    answer 401 or 403); None for a function view not marked, which says for itself."""
    marked = getattr(view, ALLOWED_ATTRIBUTE, None)
    if marked is not None:
        return marked
    cls = getattr(view, "view_class", None)
    if cls is None:
        return None
    names = [m for m in cls.http_method_names if hasattr(cls, m)]
    if "get" in names and "head" not in names:
        names.append("head")  # View.setup answers HEAD with the GET handler
    return tuple(m.upper() for m in names)
