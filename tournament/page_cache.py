"""Whole-response caching of the public read pages (match lists, ladders, league and bot
pages) for visitors who send no credentials.

Every cached body is keyed by the request's path and query string and by a *generation*
number kept in the cache. Any write to tournament data bumps the generation once its
transaction commits (model signals, plus the queryset updates that send none), so a cached
page never outlives the data it shows by more than the commit of a change; the cache entries
also expire after PAGE_CACHE_SECONDS (0 turns the cache off) as a bound for writes made
outside Django (for example SQL by hand). Requests with a session cookie or an
Authorization header are never cached: what they see depends on who they are.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.http import HttpRequest, HttpResponse

GENERATION_KEY = "page-cache:generation"
log = logging.getLogger(__name__)


def generation() -> int:
    value = cache.get(GENERATION_KEY)
    if value is None:
        cache.add(GENERATION_KEY, 1, timeout=None)
        value = cache.get(GENERATION_KEY) or 1
    return int(value)


def _bump() -> None:
    try:
        try:
            cache.incr(GENERATION_KEY)
        except ValueError:  # not there yet (or evicted): any new number is a new generation
            cache.set(GENERATION_KEY, generation() + 1, timeout=None)
    except Exception:  # the write has committed: a cache outage must not turn it into an error
        log.warning("page cache: could not bump the generation", exc_info=True)


def bump_generation() -> None:
    """Invalidate every cached page, once the current transaction (if any) commits. Nothing
    to do when the cache is off (every process of a deployment shares the setting)."""
    if _seconds() > 0:
        transaction.on_commit(_bump)


def _seconds() -> int:
    return int(getattr(settings, "PAGE_CACHE_SECONDS", 0) or 0)


def _anonymous(request: HttpRequest) -> bool:
    return (
        "HTTP_AUTHORIZATION" not in request.META
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
    )


def cached_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Serve anonymous GETs of `view` from the cache (see the module docstring)."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        seconds = _seconds()
        if seconds <= 0 or request.method != "GET" or not _anonymous(request):
            return view(request, *args, **kwargs)
        digest = hashlib.sha256(request.get_full_path().encode()).hexdigest()
        try:
            key = f"page-cache:{generation()}:{digest}"
            hit = cache.get(key)
        except Exception:  # no cache: the page is still served, fresh
            log.warning("page cache: unavailable", exc_info=True)
            return view(request, *args, **kwargs)
        if hit is not None:
            status, content_type, body = hit
            response = HttpResponse(body, status=status, content_type=content_type)
            response["X-Page-Cache"] = "hit"
            return response
        response = view(request, *args, **kwargs)
        if hasattr(response, "render") and not getattr(response, "is_rendered", True):
            response.render()
        cacheable = (
            response.status_code == 200
            and not response.streaming
            and not response.cookies
            and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
            and not request.META.get("CSRF_COOKIE_USED")
        )
        if cacheable:
            try:
                cache.set(key, (200, response["Content-Type"], response.content), seconds)
            except Exception:
                log.warning("page cache: could not store %s", request.path, exc_info=True)
        return response

    return wrapper


def _on_write(sender: Any, **kwargs: Any) -> None:
    bump_generation()


def connect_signals() -> None:
    """Bump the generation on every save and delete of a tournament model."""
    from django.apps import apps

    for model in apps.get_app_config("tournament").get_models():
        post_save.connect(_on_write, sender=model, dispatch_uid=f"page-cache-save-{model.__name__}")
        post_delete.connect(
            _on_write, sender=model, dispatch_uid=f"page-cache-delete-{model.__name__}"
        )
