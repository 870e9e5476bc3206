"""Driving a running stack over its HTTP API, as authors and organisers do: a tiny JSON client,
accounts, uploads that wait for validation, and a league run from creation to its end. Shared
by the integration tests of one stack (test_tournament_stack.py) and of many hosts
(test_multihost.py)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterable
from typing import Any

# The re-queue stacks' short heartbeat, staleness and reaper period (the product's defaults are
# timed by bench/requeue.py): eight missed beats, so a live worker on a busy machine is never
# taken for dead.
HEARTBEAT_SECONDS = 0.5
STALE_SECONDS = 4.0
REAPER_SECONDS = 1.0


def short_reaper_env(stack_env: dict[str, str], data_dir: Any, **extra: str) -> dict[str, str]:
    """A stack's environment with its own data folder and the short heartbeat, staleness and
    reaper period above; ``extra``: more settings (e.g. REAPER_QUEUED_AGE_SECONDS)."""
    return {
        **stack_env,
        "DATA_DIR": str(data_dir),
        "DEBUG": "1",
        "MATCH_HEARTBEAT_SECONDS": str(HEARTBEAT_SECONDS),
        "MATCH_HEARTBEAT_STALE_SECONDS": str(STALE_SECONDS),
        "REAPER_SECONDS": str(REAPER_SECONDS),
        **extra,
    }

class Api:
    """A tiny JSON client for the stack's web server (urllib only)."""

    def __init__(self, base_url: str, token: str | None = None) -> None:
        self.base_url, self.token = base_url, token

    def call(self, method: str, path: str, data: Any = None, files: dict | None = None) -> Any:
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        body = None
        if files:
            boundary = uuid.uuid4().hex
            parts = []
            for field, (name, content) in files.items():
                parts.append(
                    f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; '
                    f'filename="{name}"\r\nContent-Type: application/octet-stream\r\n\r\n'.encode()
                    + content
                    + b"\r\n"
                )
            body = b"".join(parts) + f"--{boundary}--\r\n".encode()
            headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
        elif data is not None:
            body = json.dumps(data).encode()
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(
            self.base_url + path, data=body, headers=headers, method=method
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                raw = response.read()
                kind = response.headers.get("Content-Type", "")
                return json.loads(raw) if "json" in kind else raw
        except urllib.error.HTTPError as exc:
            raise AssertionError(f"{method} {path}: {exc.code} {exc.read()[:500]!r}") from None


def wait_for(predicate: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.25)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def login(api: Api, username: str) -> Api:
    """A new account, signed up over the API; its client with a token."""
    password = "kitten-boat-" + username
    api.call(
        "POST",
        "/api/v1/accounts/",
        {"username": username, "password": password, "email": f"{username}@example.com"},
    )
    token = api.call("POST", "/api/v1/auth/token/", {"username": username, "password": password})
    return Api(api.base_url, token["token"])


def login_organiser(api: Api, username: str) -> Api:
    """A new account given the organiser role (in the test database, as an admin would)."""
    from django.contrib.auth import get_user_model

    from tournament.services.accounts import organiser_grant

    organiser = login(api, username)
    organiser_grant(user=get_user_model().objects.get(username=username))
    return organiser


def upload_ready(author: Api, name: str, filename: str, content: bytes) -> dict[str, Any]:
    """A new bot with one uploaded version, once a worker has validated it (ready)."""
    bot = author.call("POST", "/api/v1/bots/", {"name": name})
    version = author.call(
        "POST", f"/api/v1/bots/{bot['id']}/versions/", files={"file": (filename, content)}
    )
    done = wait_for(
        lambda: (v := author.call("GET", f"/api/v1/bot-versions/{version['id']}/"))["status"]
        != "pending" and v,
        120, f"validation of {name}",
    )  # fmt: skip
    assert done["status"] == "ready", done
    return done


def builtin_versions(api: Api) -> dict[str, int]:
    """name -> version id of the built-in bots, as the API lists the system's bots."""
    return {
        b["name"]: b["versions"][0]["id"]
        for b in api.call("GET", "/api/v1/bots/?is_system=true")["results"]
    }


def league_started(
    organiser: Api,
    author: Api,
    league: dict[str, Any],
    uploaded: Iterable[dict[str, Any]],
    builtin: Iterable[int],
) -> dict[str, Any]:
    """Create the league described by ``league``, enter the author's uploaded versions and the
    built-in versions ``builtin`` (by the organiser) and start it. Returns the league as
    created."""
    made = organiser.call("POST", "/api/v1/leagues/", league)
    for version in uploaded:
        author.call("POST", f"/api/v1/leagues/{made['id']}/entries/",
                    {"bot_version": version["id"]})  # fmt: skip
    for version_id in builtin:
        organiser.call("POST", f"/api/v1/leagues/{made['id']}/entries/",
                       {"bot_version": version_id})  # fmt: skip
    organiser.call("POST", f"/api/v1/leagues/{made['id']}/start/")
    return made


def league_closed(api: Api, league_id: int, timeout: float) -> None:
    """Wait until the league has played all its matches (closed)."""
    wait_for(
        lambda: api.call("GET", f"/api/v1/leagues/{league_id}/")["status"] == "closed",
        timeout, "the league to finish",
    )  # fmt: skip


def league_played(
    organiser: Api,
    author: Api,
    league: dict[str, Any],
    uploaded: Iterable[dict[str, Any]],
    builtin: Iterable[int],
    timeout: float,
) -> dict[str, Any]:
    """`league_started`, then wait until it is closed. Returns the league as created."""
    made = league_started(organiser, author, league, uploaded, builtin)
    league_closed(Api(organiser.base_url), made["id"], timeout)
    return made
