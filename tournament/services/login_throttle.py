"""Password-guessing brakes: failed logins are counted per account and per client address, and
while either count is over its limit every login of that account or from that address answers
429 with Retry-After, the right password included, until the window ends.

Counts live in the cache (CACHE_URL shares them between web processes). Failures are recorded
from Django's `user_login_failed` signal, so every form of login counts (the API token
endpoint, the login page, the admin's); `LoginThrottleMiddleware` refuses the login requests.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

_PREFIX = "login-throttle"


@dataclass(frozen=True)
class _Limit:
    kind: str
    limit: int


def _limits() -> tuple[_Limit, _Limit]:
    return (
        _Limit("account", settings.LOGIN_FAILURES_PER_ACCOUNT),
        _Limit("address", settings.LOGIN_FAILURES_PER_ADDRESS),
    )


def _keys(kind: str, ident: str) -> tuple[str, str]:
    base = f"{_PREFIX}:{kind}:{ident}"
    return f"{base}:count", f"{base}:since"


def _idents(username: str | None, address: str | None) -> list[tuple[_Limit, str]]:
    account, by_address = _limits()
    out = []
    if username:
        out.append((account, username.strip().lower()))
    if address:
        out.append((by_address, address))
    return out


def login_failure_record(*, username: str | None, address: str | None) -> None:
    """Count one failed login against the account and the address (a window starts at the
    first failure and lasts LOGIN_THROTTLE_WINDOW_SECONDS)."""
    window = settings.LOGIN_THROTTLE_WINDOW_SECONDS
    for limit, ident in _idents(username, address):
        count_key, since_key = _keys(limit.kind, ident)
        if cache.add(since_key, time.time(), window):
            cache.set(count_key, 0, window)
        try:
            cache.incr(count_key)
        except ValueError:  # expired between the two calls: start again
            cache.set(count_key, 1, window)


def login_retry_after(*, username: str | None, address: str | None) -> int | None:
    """Seconds until this account and address may try again, or None when they may now."""
    window = settings.LOGIN_THROTTLE_WINDOW_SECONDS
    wait = 0.0
    for limit, ident in _idents(username, address):
        count_key, since_key = _keys(limit.kind, ident)
        if (cache.get(count_key) or 0) >= limit.limit:
            since = cache.get(since_key) or time.time()
            wait = max(wait, since + window - time.time(), 1.0)
    return int(wait + 0.999) if wait else None
