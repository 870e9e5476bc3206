"""Finding bots, versions and leagues on a server by what a user types, and waiting on the server.

A bot or a league is named by its id or its name (case-insensitive, as the server keeps names
unique); a version by ``NAME`` (its newest ready version), ``NAME@N`` (version number N) or a
bare number (a bot version id). Built-in bots are bots too: ``random``, ``greedy``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .client import EXIT_REFUSED, ApiClient
from .errors import CliError

EXIT_TIMEOUT = 5


def find_bot(client: ApiClient, name_or_id: str) -> dict[str, Any]:
    key = name_or_id.strip()
    if key.isdigit():
        return client.get(f"bots/{int(key)}/")
    for bot in client.pages("bots/", name=key):
        if bot["name"].lower() == key.lower():
            return bot
    raise CliError(
        f"no bot named {key!r} on {client.server} (create it: `python -m arena create {key}`)",
        EXIT_REFUSED,
    )


def find_league(client: ApiClient, name_or_id: str) -> dict[str, Any]:
    """A league by its id or its name (case-insensitive; the server keeps names unique)."""
    key = name_or_id.strip()
    if key.isdigit():
        return client.get(f"leagues/{int(key)}/")
    for league in client.pages("leagues/", name=key):
        if league["name"].lower() == key.lower():
            return league
    raise CliError(
        f"no league named {key!r} on {client.server} (list them: `python -m arena leagues`)",
        EXIT_REFUSED,
    )


def find_version(client: ApiClient, ref: str) -> dict[str, Any]:
    """The version ``ref`` names (see the module docstring)."""
    ref = ref.strip()
    if ref.isdigit():
        return client.get(f"bot-versions/{int(ref)}/")
    name, at, number = ref.rpartition("@") if "@" in ref else (ref, "", "")
    bot = find_bot(client, name)
    versions = bot.get("versions") or []
    if at:
        if not number.isdigit():
            raise CliError(f"a version is NAME@NUMBER, not {ref!r}")
        for version in versions:
            if version["number"] == int(number):
                return version
        raise CliError(f"bot {bot['name']!r} has no version {number}", EXIT_REFUSED)
    ready = [v for v in versions if v["status"] == "ready"]
    if not ready:
        raise CliError(f"bot {bot['name']!r} has no ready version", EXIT_REFUSED)
    return max(ready, key=lambda v: v["number"])


def wait_for(
    fetch: Callable[[], dict[str, Any]],
    done: Callable[[dict[str, Any]], bool],
    *,
    timeout: float,
    what: str,
    sleep: Callable[[float], None] = time.sleep,
) -> dict[str, Any]:
    """Poll ``fetch`` until ``done``: every second at first, then more gently (up to 5 s)."""
    deadline = time.monotonic() + timeout
    delay = 1.0
    while True:
        current = fetch()
        if done(current):
            return current
        if time.monotonic() + delay > deadline:
            raise CliError(f"{what} is still not done after {timeout:.0f} s", EXIT_TIMEOUT)
        sleep(delay)
        delay = min(5.0, delay * 1.3)
