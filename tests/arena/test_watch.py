"""``play --watch``: the replay viewer for a local game, served on 127.0.0.1 by the standard
library: the page, the viewer's own static files, the frames (as the server's frames endpoint
builds them) and the file; the command opens it in a browser and serves until Ctrl-C."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from arena import watch as watch_module
from arena.cli import main
from arena.watch import LocalReplay, WatchServer
from tests.screenshots import shoot

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _get(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.headers["Content-Type"], response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers["Content-Type"], exc.read()


@pytest.fixture(scope="module")
def duel_replay(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("watch") / "duel.replay"
    assert main(["play", "--mode", "duel", "--seed", "4", "--bots", "greedy,random",
                 "--replay", str(path)]) == 0  # fmt: skip
    return path.read_bytes()


@pytest.fixture
def server(duel_replay: bytes):  # noqa: ANN201
    running = WatchServer(LocalReplay(duel_replay, "duel, seed 4: greedy vs random")).start()
    yield running
    running.stop()


def test_serves_the_viewer_its_files_and_the_frames(server: WatchServer) -> None:
    assert server.url.startswith("http://127.0.0.1:")
    status, kind, page = _get(server.url)
    assert status == 200 and kind.startswith("text/html")
    assert b'data-frames-url="/frames"' in page and b"/static/replays/viewer/main.js" in page
    assert b"greedy vs random" in page and b"://" not in page  # nothing from another host
    for name in ("replays/viewer/main.js", "replays/viewer/patch.js", "replays/viewer.css"):
        status, kind, body = _get(server.url + f"static/{name}")
        assert status == 200 and body == watch_module.static_file(name).read_bytes()
        assert kind.startswith("text/javascript" if name.endswith(".js") else "text/css")
    status, kind, body = _get(server.url + "frames?seat=spectator")
    assert status == 200 and kind == "application/json"
    frames = json.loads(body)
    assert frames["seats"] == 2 and frames["header"]["mode"] == "duel"
    assert len(frames["views"]["patches"]) > 10
    seat = json.loads(_get(server.url + "frames?seat=1")[2])
    assert seat["seat"] == 1 and seat != frames
    status, _, body = _get(server.url + "frames?seat=7")
    assert status == 400 and json.loads(body)["error"]["code"] == "invalid"
    assert _get(server.url + "replay")[2] == server.replay.data
    for path in ("static/replays/../../tournament/settings.py", "static/replays/.hidden",
                 "static/tournament/settings.py", "static/replays/viewer/", "nope"):  # fmt: skip
        assert _get(server.url + path)[0] == 404


def test_play_watch_opens_the_browser_and_serves_until_stopped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    opened: list[str] = []
    fetched: dict[str, int] = {}

    def fake_browser(url: str) -> bool:
        opened.append(url)
        return True

    def user_looks_then_stops() -> None:
        url = opened[0]
        fetched["page"] = _get(url)[0]
        fetched["frames"] = _get(url + "frames?seat=0")[0]

    monkeypatch.setattr(watch_module.webbrowser, "open", fake_browser)
    monkeypatch.setattr(watch_module, "wait_for_interrupt", user_looks_then_stops)
    assert main(["play", "--mode", "duel", "--bots", "greedy,random", "--watch"]) == 0
    out = capsys.readouterr().out
    assert "winner(s)" in out and f"watch the game at {opened[0]}" in out
    assert fetched == {"page": 200, "frames": 200}
    with pytest.raises(urllib.error.URLError):  # stopped with the command
        urllib.request.urlopen(opened[0], timeout=5)


@pytest.mark.browser
@pytest.mark.slow
def test_the_viewer_draws_the_local_game(server: WatchServer, chromium_executable: str) -> None:
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    outside: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_executable, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 1000})
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("request", lambda r: None if r.url.startswith(server.url) or
                    r.url.startswith("data:") else outside.append(r.url))  # fmt: skip
            page.goto(server.url)
            page.wait_for_function("window.viewer && window.viewer.views.length > 0")
            n = page.evaluate("window.viewer.views.length") - 1
            page.click("#btn-end")
            page.wait_for_function(f"window.viewer.step === {n}")
            assert page.locator("#final").is_visible()
            assert "greedy" in page.locator("#final").inner_text()
            shots = Path(__file__).resolve().parents[2] / "var" / "screenshots"
            shots.mkdir(parents=True, exist_ok=True)
            shoot(page, shots / "arena-watch.png", full_page=True)
        finally:
            browser.close()
    assert errors == [] and outside == []
