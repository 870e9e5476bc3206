"""``play --watch``: the project's replay viewer for one local replay, served on 127.0.0.1.

No web stack and nothing from another host: a small standard-library HTTP server answers

* ``/`` — a page (``arena/data/watch.html``) around the viewer's own embeddable partial,
  ``replays/templates/replays/_viewer.html``, rendered by Django's standalone template engine
  (no settings, no database) with its frames URL pointing here, so it is the site's viewer;
* ``/static/<app>/...`` — the viewer's scripts and stylesheets (``replays/static``) and the
  site's stylesheet (``website/static``), from the checkout;
* ``/frames?seat=spectator|N`` — the frames ``replayfile.frames`` builds from the replay (what
  the server's frames endpoint answers), as JSON, errors in the API's one error body;
* ``/replay`` — the replay file itself.

It binds 127.0.0.1 on a free port, so only this computer can see it, and serves until Ctrl-C.
"""

from __future__ import annotations

import json
import string
import sys
import threading
import time
import types
import webbrowser
from functools import cached_property
from html import escape
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs, urlsplit

from replayfile.format import decode
from replayfile.frames import FramesError, InvalidSeat, build_frames, parse_seat

REPO = Path(__file__).resolve().parents[1]
STATIC_APPS = {"replays": REPO / "replays" / "static", "website": REPO / "website" / "static"}
VIEWER = REPO / "replays" / "templates"
# Linked when they exist, in this order: the site's look, then the viewer's.
STYLESHEETS = ("website/site.css", "replays/viewer.css")
TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".svg": "image/svg+xml", ".png": "image/png", ".json": "application/json"}  # fmt: skip


def static_file(path: str) -> Path | None:
    """``replays/viewer/main.js`` -> the file in the checkout, or None (never outside)."""
    app = path.split("/", 1)[0]
    root = STATIC_APPS.get(app)
    if root is None or any(part.startswith(".") for part in path.split("/")):
        return None
    file = (root / path).resolve()
    if not file.is_relative_to(root.resolve()) or not file.is_file():
        return None
    return file


def render_viewer(frames_url: str) -> str:
    """The viewer's embeddable partial, as the site renders it for a finished match."""
    # Django's standalone template engine (no settings, no apps) draws the site's own partial,
    # loaded only when a page is served: the command line imports without the web stack.
    from django.template import Context, Engine, Library  # noqa: PLC0415
    library = Library()
    library.simple_tag(lambda path: f"/static/{path}", name="static")
    module = types.ModuleType("arena._watch_static")
    module.register = library  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    engine = Engine(dirs=[str(VIEWER)], libraries={"static": module.__name__})
    context = {"match": SimpleNamespace(pk="local"), "frames_url": frames_url, "live": False,
               "embedded": False}  # fmt: skip
    template = engine.get_template("replays/_viewer.html")
    return template.render(Context(context, use_l10n=False, use_tz=False))


class LocalReplay:
    """One replay file and the frames of each view, built once on first request."""

    def __init__(self, data: bytes, title: str, filename: str = "game.replay") -> None:
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
        links = [f'  <link rel="stylesheet" href="/static/{n}">'
                 for n in STYLESHEETS if static_file(n) is not None]  # fmt: skip
        players = self.doc["header"].get("players") or []
        seats = " ".join(
            f'<span class="seatname seat-{p.get("seat")}">{p.get("seat")}: '
            f'{escape(str(p.get("bot") or "?"))}</span>' for p in players
        )  # fmt: skip
        return template.substitute(
            title=escape(self.title), mode=escape(str(self.doc["header"].get("mode", ""))),
            filename=escape(self.filename), stylesheets="\n".join(links), seats=seats,
            viewer=render_viewer("/frames"),
        ).encode()  # fmt: skip

    def frames(self, seat_param: str | None) -> bytes:
        """The frames payload; raises FramesError (InvalidSeat for a bad seat)."""
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
        elif parts.path.startswith("/static/"):
            self._static(parts.path.removeprefix("/static/"))
        else:
            self._error(HTTPStatus.NOT_FOUND, "not_found", f"Nothing at {parts.path}.")

    def _frames(self, seat: str | None) -> None:
        try:
            body = self.server.replay.frames(seat)
        except InvalidSeat as exc:
            self._error(HTTPStatus.BAD_REQUEST, "invalid", str(exc))
        except FramesError as exc:
            self._error(HTTPStatus.UNPROCESSABLE_ENTITY, "replay_invalid", str(exc))
        else:
            self._send(HTTPStatus.OK, "application/json", body)

    def _static(self, name: str) -> None:
        path = static_file(name)
        if path is None:
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
