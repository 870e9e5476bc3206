"""Password-guessing brakes that an attacker cannot turn against the people they attack.

Failed logins are counted in three ways over a window (LOGIN_THROTTLE_WINDOW_SECONDS, from
the first failure of each count):

* per client address, whatever the accounts (LOGIN_FAILURES_PER_ADDRESS): one address that
  guesses at many accounts is refused, for every account;
* per account *and* address (LOGIN_FAILURES_PER_ACCOUNT): one address that guesses at one
  account is refused for that account. Nobody else is: the owner, at their own address, still
  logs in. (Counting per account alone, as this module once did, let anyone lock any account:
  ten wrong passwords and the owner was refused too.)
* per account, from every address together (LOGIN_FAILURES_PER_ACCOUNT_TOTAL, much higher): an
  account guessed at from many addresses (a botnet) is *under attack*. That never refuses the
  account outright; it slows the guessing: each address that has never logged in to the
  account gets LOGIN_FAILURES_UNDER_ATTACK tries (one by default) instead of
  LOGIN_FAILURES_PER_ACCOUNT, while the addresses the account logged in from before
  (LOGIN_KNOWN_ADDRESS_DAYS) keep theirs. The owner's first try from anywhere is always heard,
  so the right password always gets in; the attacker's next guess costs a new address.

While a count is over its limit, logins it covers answer 429 with Retry-After, the right
password included, until its window ends. The address is the client's as the trusted proxy
reports it (tournament/client_address.py), so behind nginx each client has its own counts.

Counts live in the cache (CACHE_URL shares them between web processes). Failures are recorded
from Django's `user_login_failed` signal, so every form of login counts (the API token
endpoint, the login page, the admin's); `LoginThrottleMiddleware` refuses the login requests.
docs/deployment.md ("Logins behind the proxy") gives the reasoning.
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import cache

_PREFIX = "login-throttle"


def _account(username: str | None) -> str | None:
    """A cache-safe name for an account (any string an attacker typed is hashed)."""
    name = (username or "").strip().lower()
    return hashlib.sha256(name.encode()).hexdigest()[:32] if name else None


def _keys(*parts: str) -> tuple[str, str]:
    base = ":".join((_PREFIX, *parts))
    return f"{base}:count", f"{base}:since"


def _counts(account: str | None, address: str | None) -> list[tuple[str, str]]:
    """The (count key, since key) of every count a failure of this login adds to."""
    out = []
    if address:
        out.append(_keys("address", address))
    if account:
        out.append(_keys("account-total", account))
        if address:
            out.append(_keys("account", account, address))
    return out


def _known_key(account: str, address: str) -> str:
    return f"{_PREFIX}:known:{account}:{address}"


def login_failure_record(*, username: str | None, address: str | None) -> None:
    """Count one failed login against the address, the account at that address, and the
    account from everywhere (each window starts at its first failure)."""
    window = settings.LOGIN_THROTTLE_WINDOW_SECONDS
    for count_key, since_key in _counts(_account(username), address):
        if cache.add(since_key, time.time(), window):
            cache.set(count_key, 0, window)
        try:
            cache.incr(count_key)
        except ValueError:  # expired between the two calls: start again
            cache.set(count_key, 1, window)


def login_success_record(*, username: str | None, address: str | None) -> None:
    """Remember that the account logged in from this address: under attack, it keeps its
    full allowance there."""
    account = _account(username)
    if account and address:
        cache.set(_known_key(account, address), 1, settings.LOGIN_KNOWN_ADDRESS_DAYS * 86400)


def login_under_attack(*, username: str | None) -> bool:
    """Whether the account's failures from every address together are over their ceiling."""
    account = _account(username)
    if account is None:
        return False
    count_key, _ = _keys("account-total", account)
    return (cache.get(count_key) or 0) >= settings.LOGIN_FAILURES_PER_ACCOUNT_TOTAL


def _wait(count_key: str, since_key: str, limit: int) -> float:
    if (cache.get(count_key) or 0) < limit:
        return 0.0
    since = cache.get(since_key) or time.time()
    return max(since + settings.LOGIN_THROTTLE_WINDOW_SECONDS - time.time(), 1.0)


def login_retry_after(*, username: str | None, address: str | None) -> int | None:
    """Seconds until this login (account, from this address) may be tried, or None when it
    may be now."""
    account = _account(username)
    wait = 0.0
    if address:
        wait = _wait(*_keys("address", address), settings.LOGIN_FAILURES_PER_ADDRESS)
        if account:
            limit = settings.LOGIN_FAILURES_PER_ACCOUNT
            if login_under_attack(username=username) and not cache.get(
                _known_key(account, address)
            ):
                limit = min(limit, settings.LOGIN_FAILURES_UNDER_ATTACK)
            wait = max(wait, _wait(*_keys("account", account, address), limit))
    return int(wait + 0.999) if wait else None
