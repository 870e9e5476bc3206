"""Whole-response caching of the public read pages (match lists, ladders, league and bot
pages, replay files) for visitors who send no credentials.

**Reads.** `PageCacheMiddleware` runs before the session, CSRF, authentication and messages
middleware. For a GET without credentials of a view marked with `cached_page`, it reads the
current *generation* number and the stored response in one cache round trip; a response
stored under the current generation is answered at once, with its headers, and nothing else
runs: no session, no user, no database. Otherwise the request goes on, and a 200 that sets no
cookie and used no CSRF token is stored, headers included, under the generation read before
the view ran. An entry is rebuilt after PAGE_CACHE_SECONDS (0 turns the cache off), which
bounds how long a write made outside Django (SQL by hand) can go unseen: the first request
past that time rebuilds it while the others are still served the entry (it shows every
write Django committed), so that a page's expiry never makes all its readers wait; the
entry stays in the cache KEEP_FACTOR times that long, so this holds for pages read seldom.

**Writes.** Every statement that writes a table a page shows (the tournament app's tables and
the user table) bumps the generation once its transaction commits: an execute wrapper on
every database connection sees it, so queryset updates, bulk inserts and raw SQL through
Django count as much as `save()`. A page stored before the bump no longer matches the
generation and is never served again. Writes no page shows (a running match's heartbeat) are
made inside `unseen_writes()`.

Requests with a session cookie, a messages cookie or an Authorization header are never served
from the cache nor stored: what they see may depend on who they are.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.exceptions import DisallowedHost
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve

GENERATION_KEY = "page-cache:generation"
# An entry past PAGE_CACHE_SECONDS is rebuilt by one request while the others are still
# served it, for at most this long (the rebuilding request may have died).
REFRESH_SECONDS = 10
# An entry is kept in the cache this many times PAGE_CACHE_SECONDS past its time: a page read
# less often than every PAGE_CACHE_SECONDS still finds its entry, so one reader rebuilds it
# while the others are served the entry. Dropped at its time, the entry would make every
# reader of a burst build the page at once (on two cores, eight readers of a page that
# takes 40 ms to build wait 160 ms). Keys are per page, so this keeps no more entries alive
# than the pages read within that time; entries of an old generation are never served.
KEEP_FACTOR = 10
MESSAGES_COOKIE = "messages"  # django.contrib.messages' cookie storage
SPOILERS_COOKIE = "spoilers"  # website/spoilers.py: "shown" shows results in lists
log = logging.getLogger(__name__)


def _seconds() -> int:
    return int(getattr(settings, "PAGE_CACHE_SECONDS", 0) or 0)


# --- marking views ----------------------------------------------------------------------------


def cached_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Let PageCacheMiddleware serve anonymous GETs of `view` from the cache. An API view
    (Django REST framework) answers JSON or its browsable HTML by the Accept header, so its
    entries are kept apart by that header too."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return view(request, *args, **kwargs)

    wrapper.page_cache_vary = ("HTTP_ACCEPT",) if hasattr(view, "cls") else ()  # type: ignore[attr-defined]
    return wrapper


def _vary(request: HttpRequest) -> tuple[str, ...] | None:
    """The request headers the view's page varies on, or None when the view is not cached."""
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    return getattr(match.func, "page_cache_vary", None)


def _anonymous(request: HttpRequest) -> bool:
    cookies = request.COOKIES
    return (
        "HTTP_AUTHORIZATION" not in request.META
        and settings.SESSION_COOKIE_NAME not in cookies
        and MESSAGES_COOKIE not in cookies
    )


def _key(request: HttpRequest, vary: tuple[str, ...]) -> str:
    """The entry of this page: scheme, host and full path (the API's links are absolute), and
    the headers it varies on. Raises DisallowedHost for a host Django would refuse."""
    parts = [request.scheme or "", request.get_host(), request.get_full_path()]
    parts += [request.META.get(name, "") for name in vary]
    # the visitor's spoiler setting changes what a list shows (website/spoilers.py)
    parts.append(request.COOKIES.get(SPOILERS_COOKIE, ""))
    return "page-cache:" + hashlib.sha256("\n".join(parts).encode()).hexdigest()


# --- the generation -------------------------------------------------------------------------


def _fresh() -> int:
    """A generation number no live entry can carry: the clock in microseconds. Used when the
    number is missing (a new or emptied cache), so it never restarts at a value it had."""
    return time.time_ns() // 1000


def _lookup(key: str) -> tuple[int, Any]:
    """The current generation and the stored entry of `key`, in one round trip."""
    found = cache.get_many([GENERATION_KEY, key])
    generation = found.get(GENERATION_KEY)
    if generation is None:
        cache.add(GENERATION_KEY, _fresh(), timeout=None)
        generation = cache.get(GENERATION_KEY)
    return int(generation), found.get(key)


def _bump() -> None:
    try:
        try:
            cache.incr(GENERATION_KEY)
        except ValueError:  # missing: any number never used before is a new generation
            cache.set(GENERATION_KEY, _fresh(), timeout=None)
    except Exception:  # the write has committed: a cache outage must not turn it into an error
        log.warning("page cache: could not bump the generation", exc_info=True)


def bump_generation() -> None:
    """Invalidate every cached page once the current transaction (if any) commits; at once
    outside a transaction. Nothing to do when the cache is off (every process of a deployment
    shares the setting)."""
    if _seconds() > 0:
        _schedule_bump(transaction.get_connection())


def _schedule_bump(connection: Any) -> None:
    """One bump per writing statement, when it commits (at once in autocommit: it has). A
    transaction writes a handful of statements; one callback each keeps every commit that
    Django runs (or a test captures) a commit that bumps."""
    if connection.in_atomic_block:
        transaction.on_commit(_bump, using=connection.alias)
    else:
        _bump()


# --- watching writes --------------------------------------------------------------------------

_WRITE = re.compile(r'\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)', re.IGNORECASE)


@functools.cache
def _watched_tables() -> frozenset[str]:
    """The tables whose rows the cached pages show: the tournament app's and the users'."""
    models = apps.get_app_config("tournament").get_models(include_auto_created=True)
    return frozenset([m._meta.db_table for m in models] + [get_user_model()._meta.db_table])


def _watch_writes(execute: Callable, sql: Any, params: Any, many: bool, context: dict) -> Any:
    """Execute wrapper: after a statement that wrote a watched table, bump on commit."""
    result = execute(sql, params, many, context)
    if isinstance(sql, str) and sql.lstrip()[:1] in ("I", "U", "D", "i", "u", "d"):
        written = _WRITE.match(sql)
        connection = context["connection"]
        if (
            written
            and written.group(1) in _watched_tables()
            and not getattr(connection, "page_cache_unseen", False)
            and _seconds() > 0
        ):
            _schedule_bump(connection)
    return result


def watch_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
    """`connection_created` receiver: put the write watch on each new database connection.
    First in the list, so that an `execute_wrapper()` block that is open meanwhile still
    removes its own wrapper (it pops the last one)."""
    if _watch_writes not in connection.execute_wrappers:
        connection.execute_wrappers.insert(0, _watch_writes)


@contextmanager
def unseen_writes() -> Iterator[None]:
    """Writes in this block bump nothing: for columns no page shows (a heartbeat), which
    would otherwise empty the cache every few seconds while matches run."""
    connection = transaction.get_connection()
    before = getattr(connection, "page_cache_unseen", False)
    connection.page_cache_unseen = True
    try:
        yield
    finally:
        connection.page_cache_unseen = before


# --- the middleware ---------------------------------------------------------------------------


def _cacheable(request: HttpRequest, response: HttpResponse) -> bool:
    control = response.get("Cache-Control", "")
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
        and not request.META.get("CSRF_COOKIE_USED")  # the body holds a CSRF token
        and "private" not in control
        and "no-store" not in control
    )


def _refreshes(key: str, entry: tuple) -> bool:
    """Whether this request builds the page again: its entry is past its time, and no other
    request is building it already. Until the new entry is stored, the others are still
    served the old one: it shows every write Django committed (its generation is the
    current one), so only writes made outside Django can wait up to REFRESH_SECONDS more."""
    if time.time() < entry[1]:
        return False
    try:
        return bool(cache.add(f"{key}:refresh", 1, timeout=REFRESH_SECONDS))
    except Exception:
        return True


def _replay(entry: tuple) -> HttpResponse:
    _, _, status, headers, body = entry
    response = HttpResponse(body, status=status)
    for name, value in headers:
        response[name] = value
    response["X-Page-Cache"] = "hit"
    return response


class PageCacheMiddleware:
    """Answers anonymous GETs of `cached_page` views from the cache (see the module
    docstring); place it before the session middleware, so that a hit costs no more than
    a health check."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        seconds = _seconds()
        if seconds <= 0 or request.method != "GET" or not _anonymous(request):
            return self.get_response(request)
        vary = _vary(request)
        if vary is None:
            return self.get_response(request)
        try:
            key = _key(request, vary)
        except DisallowedHost:  # Django answers it (400) further in
            return self.get_response(request)
        try:
            generation, entry = _lookup(key)
        except Exception:  # no cache: the page is still served, fresh
            log.warning("page cache: unavailable", exc_info=True)
            return self.get_response(request)
        if entry is not None and entry[0] == generation and not _refreshes(key, entry):
            return _replay(entry)
        response = self.get_response(request)
        if _cacheable(request, response):
            headers = [(k, v) for k, v in response.items() if k != "X-Page-Cache"]
            entry = (generation, time.time() + seconds, 200, headers, response.content)
            try:
                cache.set(key, entry, seconds * KEEP_FACTOR + REFRESH_SECONDS)
                cache.delete(f"{key}:refresh")
            except Exception:
                log.warning("page cache: could not store %s", request.path, exc_info=True)
        return response
