"""Sign-ups per client address: SIGNUPS_PER_ADDRESS accounts per SIGNUP_THROTTLE_WINDOW_SECONDS
(from the first of them), then 429 until the window ends.

The per-user limits (uploads, challenges, paired comparisons) are only limits if a user cannot
make more users at will. The address is the client's as the trusted proxy reports it
(tournament/client_address.py), an IPv6 client counted by its /64. A sign-up is counted when
it is about to make the account (after the form or serializer accepted it), by one atomic
increment, so two requests at once cannot both take the last place.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache

from ..client_address import throttle_key
from ..errors import RateLimited

_PREFIX = "signup-throttle"


def signup_admit(*, address: str | None) -> None:
    """Count one sign-up from this address, or raise RateLimited (429, with retry_after) when
    the address has made its SIGNUPS_PER_ADDRESS accounts in the window."""
    key = throttle_key(address)
    limit = settings.SIGNUPS_PER_ADDRESS
    if key is None or limit <= 0:
        return
    window = settings.SIGNUP_THROTTLE_WINDOW_SECONDS
    count_key, since_key = f"{_PREFIX}:{key}:count", f"{_PREFIX}:{key}:since"
    if cache.add(since_key, time.time(), window):
        cache.set(count_key, 0, window)
    try:
        count = cache.incr(count_key)
    except ValueError:  # expired between the two calls: a new window
        cache.set(count_key, 1, window)
        count = 1
    if count > limit:
        since = cache.get(since_key) or time.time()
        wait = max(int(since + window - time.time() + 0.999), 1)
        raise RateLimited(
            RateLimited.SIGNUPS_PER_ADDRESS.format(limit=limit, window=window // 60, s=wait),
            retry_after=wait,
        )
