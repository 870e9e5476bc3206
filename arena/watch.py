"""``play --watch``: the project's replay viewer for one local replay, served on 127.0.0.1.

No Django and nothing from another host: a small standard-library HTTP server answers

* ``/`` — the viewer page (``arena/data/watch.html``: the viewer's markup, which mirrors
  ``replays/templates/replays/viewer.html``, with the frames URL pointing here);
* ``/static/replays/<file>`` — the viewer's own script and stylesheets from ``replays/static``;
* ``/frames?seat=spectator|N`` — the frames ``replays.frames`` builds from the replay (what
  the server's frames endpoint answers), as JSON, errors in the API's one error body;
* ``/replay`` — the replay file itself.

It binds 127.0.0.1 on a free port, so only this computer can see it, and serves until Ctrl-C.
"""

from __future__ import annotations

import json
import string
import threading
import time
import webbrowser
from functools import cached_property
from html import escape
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

STATIC = Path(__file__).resolve().parents[1] / "replays" / "static" / "replays"
STYLESHEETS = ("site.css", "viewer.css")  # those that exist are linked, in this order
SCRIPTS = ("viewer.js",)
TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".svg": "image/svg+xml", ".png": "image/png", ".json": "application/json"}  # fmt: skip


class LocalReplay:
    """One replay file and the frames of each view, built once on first request."""

    def __init__(self, data: bytes, title: str, filename: str = "game.replay") -> None:
        from replays.format import decode

        self.data = data
        self.doc = decode(data)  # a ReplayError here, before any server starts
        self.title = title
        self.filename = filename
        self._frames: dict[str, bytes] = {}
        self._lock = threading.Lock()

    @cached_property
    def page(self) -> bytes:
        template = string.Template(
            resources.files("arena").joinpath("data/watch.html").read_text(encoding="utf-8")
        )
        links = [f'  <link rel="stylesheet" href="/static/replays/{n}">'
                 for n in STYLESHEETS if (STATIC / n).is_file()]  # fmt: skip
        scripts = [f'<script src="/static/replays/{n}" defer></script>' for n in SCRIPTS]
        return template.substitute(
            title=escape(self.title), mode=escape(str(self.doc["header"].get("mode", ""))),
            filename=escape(self.filename), stylesheets="\n".join(links),
            scripts="\n".join(scripts),
        ).encode()  # fmt: skip

    def frames(self, seat_param: str | None) -> bytes:
        """The frames payload; raises FramesError (InvalidSeat for a bad seat)."""
        from replays.frames import build_frames, parse_seat

        seat = parse_seat(seat_param, int(self.doc["header"]["seats"]))
        key = "spectator" if seat is None else str(seat)
        with self._lock:
            if key not in self._frames:
                payload = build_frames(self.doc, seat)
                self._frames[key] = json.dumps(payload, separators=(",", ":")).encode()
            return self._frames[key]


class _Handler(BaseHTTPRequestHandler):
    server: WatchServer

    def do_GET(self) -> None:  # noqa: N802 - the http.server name
        parts = urlsplit(self.path)
        replay = self.server.replay
        if parts.path in ("/", "/index.html"):
            self._send(HTTPStatus.OK, "text/html; charset=utf-8", replay.page)
        elif parts.path == "/frames":
            self._frames(parse_qs(parts.query).get("seat", [None])[0])
        elif parts.path == "/replay":
            self._send(HTTPStatus.OK, "application/zstd", replay.data)
        elif parts.path.startswith("/static/replays/"):
            self._static(parts.path.removeprefix("/static/replays/"))
        else:
            self._error(HTTPStatus.NOT_FOUND, "not_found", f"Nothing at {parts.path}.")

    def _frames(self, seat: str | None) -> None:
        from replays.frames import FramesError, InvalidSeat

        try:
            body = self.server.replay.frames(seat)
        except InvalidSeat as exc:
            self._error(HTTPStatus.BAD_REQUEST, "invalid", str(exc))
        except FramesError as exc:
            self._error(HTTPStatus.UNPROCESSABLE_ENTITY, "replay_invalid", str(exc))
        else:
            self._send(HTTPStatus.OK, "application/json", body)

    def _static(self, name: str) -> None:
        path = STATIC / name
        if "/" in name or name.startswith(".") or not path.is_file():
            self._error(HTTPStatus.NOT_FOUND, "not_found", f"No static file {name!r}.")
            return
        kind = TYPES.get(path.suffix, "application/octet-stream")
        self._send(HTTPStatus.OK, kind, path.read_bytes())

    def _error(self, status: HTTPStatus, code: str, message: str) -> None:
        body = json.dumps({"error": {"code": code, "message": message, "fields": {}}}).encode()
        self._send(status, "application/json", body)

    def _send(self, status: HTTPStatus, content_type: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        """Quiet: the terminal shows the game, not a request log."""


class WatchServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, replay: LocalReplay, host: str = "127.0.0.1", port: int = 0) -> None:
        super().__init__((host, port), _Handler)
        self.replay = replay
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"

    def start(self) -> WatchServer:
        self._thread = threading.Thread(target=self.serve_forever, name="watch", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


def wait_for_interrupt() -> None:
    """Serve until Ctrl-C (the server runs in its own thread)."""
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass


def watch(replay: LocalReplay, *, open_browser: bool = True, out: Any = None) -> str:
    """Serve the replay, open it in the browser, and return when the user stops it."""
    import sys

    out = out or sys.stdout
    server = WatchServer(replay).start()
    try:
        print(f"watch the game at {server.url} (Ctrl-C to stop)", file=out, flush=True)
        if open_browser and not webbrowser.open(server.url):
            print("could not open a browser: open the address above", file=out, flush=True)
        wait_for_interrupt()
    finally:
        server.stop()
    return server.url
