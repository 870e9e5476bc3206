"""Password-guessing brakes that an attacker cannot turn against the people they attack.

Failed logins are counted in three ways over a window (LOGIN_THROTTLE_WINDOW_SECONDS, from
the first failure of each count):

* per client address, whatever the accounts (LOGIN_FAILURES_PER_ADDRESS): one address that
  guesses at many accounts is refused, for every account;
* per account *and* address (LOGIN_FAILURES_PER_ACCOUNT): one address that guesses at one
  account is refused for that account. Nobody else is: the owner, at their own address, still
  logs in. (Counting per account alone let anyone lock any account: ten wrong passwords and
  the owner was refused too.)
* per account, from every address together (LOGIN_FAILURES_PER_ACCOUNT_TOTAL): an account
  guessed at from many addresses (a botnet, or forged addresses) is *under attack*. Its
  guesses are then slowed whatever address they come from: the addresses that never logged
  in to the account share one try per LOGIN_UNDER_ATTACK_SPACING_SECONDS between them, and
  each of them has at most LOGIN_FAILURES_UNDER_ATTACK tries in the window. The addresses the
  account logged in from before (LOGIN_KNOWN_ADDRESS_DAYS) keep their full allowance and
  wait for nothing, so the owner at home never notices; the owner somewhere new waits a few
  seconds, the attacker's guessing is held to one guess every few seconds, however many
  addresses it has.

An IPv6 client is counted by its /64 network, the block one subscriber gets: otherwise every
guess could come from a fresh address of the same line (tournament/client_address.py).

While a count is over its limit, logins it covers answer 429 with Retry-After, the right
password included, until its window ends. The address is the client's as the trusted proxy
reports it (tournament/client_address.py), so behind nginx each client has its own counts.

Counts live in the cache (CACHE_URL shares them between web processes). Failures are recorded
from Django's `user_login_failed` signal, so every form of login counts (the API token
endpoint, the login page, the admin's); `LoginThrottleMiddleware` admits or refuses the login
requests. docs/deployment.md ("Throttling that nobody can turn against an account's owner")
gives the reasoning.
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import cache

from ..client_address import throttle_key

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
    for count_key, since_key in _counts(_account(username), throttle_key(address)):
        if cache.add(since_key, time.time(), window):
            cache.set(count_key, 0, window)
        try:
            cache.incr(count_key)
        except ValueError:  # expired between the two calls: start again
            cache.set(count_key, 1, window)


def login_success_record(*, username: str | None, address: str | None) -> None:
    """Remember that the account logged in from this address: under attack, it keeps its
    full allowance there."""
    account, source = _account(username), throttle_key(address)
    if account and source:
        cache.set(_known_key(account, source), 1, settings.LOGIN_KNOWN_ADDRESS_DAYS * 86400)


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


def _take_stranger_turn(account: str) -> float:
    """Under attack, the addresses new to an account share one try per spacing: take it now
    (0.0), or the seconds until the next one. Taking it is one atomic `add`, so two
    web processes never hand out the same turn."""
    spacing = settings.LOGIN_UNDER_ATTACK_SPACING_SECONDS
    if spacing <= 0:
        return 0.0
    key = f"{_PREFIX}:stranger-turn:{account}"
    now = time.time()
    if cache.add(key, now, spacing):
        return 0.0
    taken = cache.get(key) or now
    return max(taken + spacing - now, 1.0)


def login_admit(*, username: str | None, address: str | None) -> int | None:
    """Whether this login (account, from this address) may be tried now: None when it may
    (under attack, an address new to the account then uses up the account's turn), else the
    seconds to wait."""
    account, source = _account(username), throttle_key(address)
    if not source:
        return None
    wait = _wait(*_keys("address", source), settings.LOGIN_FAILURES_PER_ADDRESS)
    if account:
        limit = settings.LOGIN_FAILURES_PER_ACCOUNT
        stranger = login_under_attack(username=username) and not cache.get(
            _known_key(account, source)
        )
        if stranger:
            limit = min(limit, settings.LOGIN_FAILURES_UNDER_ATTACK)
        wait = max(wait, _wait(*_keys("account", account, source), limit))
        if stranger and not wait:
            wait = _take_stranger_turn(account)
    return int(wait + 0.999) if wait else None
