"""A small client of the Isle Arena REST API (docs/api.md), on the standard library only.

Bot authors run it from anywhere with a plain Python: ``urllib`` for HTTP, a hand-made
multipart body for uploads. Every failure becomes one ``CliError`` line with an exit code:

* ``EXIT_REFUSED`` (3): the server answered with an error (its message is shown, and for
  a 429 how long to wait);
* ``EXIT_UNREACHABLE`` (4): no answer (address wrong, server down) or a server error (5xx).
"""

from __future__ import annotations

import argparse
import json
import mimetypes
import os
import secrets
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from . import config
from .errors import CliError

EXIT_REFUSED = 3
EXIT_UNREACHABLE = 4
API_PREFIX = "/api/v1/"
USER_AGENT = "isle-arena-cli/1"


def normalise_server(url: str) -> str:
    """``localhost:8000`` or ``https://arena.example.com/`` -> the base URL without a slash."""
    url = url.strip()
    if not url:
        raise CliError("no server: give --server URL (or log in with `python -m arena login`)")
    if "://" not in url:
        url = "http://" + url
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise CliError(f"not a server address: {url!r} (e.g. http://localhost:8000)")
    path = parts.path.rstrip("/")
    if path.endswith("/api/v1"):
        path = path[: -len("/api/v1")]
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, "", ""))


class ApiClient:
    def __init__(self, server: str, token: str = "", timeout: float = 60.0) -> None:
        self.server = normalise_server(server)
        self.token = token
        self.timeout = timeout

    def url(self, path: str, query: dict[str, Any] | None = None) -> str:
        if not path.startswith("/"):
            path = API_PREFIX + path
        url = self.server + path
        if query:
            url += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
        return url

    # --- requests -----------------------------------------------------------------------------
    def get(self, path: str, **query: Any) -> Any:
        return json.loads(self._send("GET", self.url(path, query)) or b"null")

    def post(self, path: str, data: dict[str, Any] | None = None) -> Any:
        body = json.dumps(data or {}).encode()
        answer = self._send("POST", self.url(path), body, "application/json")
        return json.loads(answer or b"null")

    def patch(self, path: str, data: dict[str, Any]) -> Any:
        body = json.dumps(data).encode()
        return json.loads(self._send("PATCH", self.url(path), body, "application/json") or b"null")

    def upload(self, path: str, field: str, filename: str, content: bytes) -> Any:
        boundary = "isle-arena-" + secrets.token_hex(12)
        kind = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        safe_name = os.path.basename(filename).replace('"', "_")
        body = b"".join([
            f"--{boundary}\r\n".encode(),
            f'Content-Disposition: form-data; name="{field}"; filename="{safe_name}"\r\n'.encode(),
            f"Content-Type: {kind}\r\n\r\n".encode(),
            content,
            f"\r\n--{boundary}--\r\n".encode(),
        ])  # fmt: skip
        content_type = f"multipart/form-data; boundary={boundary}"
        answer = self._send("POST", self.url(path), body, content_type)
        return json.loads(answer or b"null")

    def download(self, path: str) -> bytes:
        return self._send("GET", self.url(path))

    def pages(self, path: str, limit: int | None = None, **query: Any) -> list[dict[str, Any]]:
        """Every result of a paginated list (following `next`), at most `limit`."""
        out: list[dict[str, Any]] = []
        page = self.get(path, **query)
        while True:
            out += page.get("results", [])
            if page.get("next") is None or (limit is not None and len(out) >= limit):
                break
            page = json.loads(self._send("GET", page["next"]) or b"null")
        return out[:limit] if limit is not None else out

    def _send(
        self, method: str, url: str, body: bytes | None = None, content_type: str | None = None
    ) -> bytes:
        headers = {"Accept": "application/json", "User-Agent": USER_AGENT}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        if content_type:
            headers["Content-Type"] = content_type
        request = urllib.request.Request(url, data=body, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310
                return response.read()
        except urllib.error.HTTPError as exc:
            raise _refusal(exc) from None
        except urllib.error.URLError as exc:
            raise CliError(f"cannot reach {self.server}: {exc.reason}", EXIT_UNREACHABLE) from None
        except (TimeoutError, ConnectionError) as exc:
            raise CliError(f"cannot reach {self.server}: {exc}", EXIT_UNREACHABLE) from None


def _refusal(exc: urllib.error.HTTPError) -> CliError:
    """The server's one error body as one line (docs/api.md, Errors)."""
    try:
        error = json.loads(exc.read() or b"{}").get("error") or {}
    except (ValueError, AttributeError, OSError):
        error = {}
    message = error.get("message") or exc.reason or "error"
    fields = error.get("fields") or {}
    if fields and error.get("code") == "invalid":
        details = "; ".join(f"{k}: {', '.join(map(str, v)) if isinstance(v, list) else v}"
                            for k, v in fields.items())  # fmt: skip
        if details not in message:
            message = f"{message} ({details})"
    if exc.code == 401:
        message += " Log in with `python -m arena login`."
    if exc.code == 429 and exc.headers.get("Retry-After"):
        message += f" Try again in {exc.headers['Retry-After']} s."
    if exc.code >= 500:
        return CliError(f"the server failed (HTTP {exc.code}): {message}", EXIT_UNREACHABLE)
    return CliError(f"the server refused (HTTP {exc.code}): {message}", EXIT_REFUSED)


# --- the commands' shared options ---------------------------------------------------------------


def add_server_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--server", default=None, metavar="URL",
        help="the Isle Arena server (default: the one you logged in to)",
    )  # fmt: skip


def client_from_args(args: argparse.Namespace, *, login_required: bool = True) -> ApiClient:
    """A client for --server (else the stored server), with the token stored for that server.

    A token is only ever sent to the server it came from (or the one ISLE_ARENA_TOKEN is
    given with)."""
    creds = config.load()
    server = normalise_server(args.server or creds.server or "")
    token = creds.token
    if creds.server and server != normalise_server(creds.server):
        token = os.environ.get("ISLE_ARENA_TOKEN", "")
    if login_required and not token:
        raise CliError(f"not logged in to {server}: run `python -m arena login --server {server}`")
    return ApiClient(server, token)
