"""The replay viewer in real headless Chromium: load a 4-player replay, step, seek, switch
seats, and check what the page shows against the recorded result, and save a screenshot.
How long drawing one step takes is measured by bench/viewer.py: a test asserts behaviour, and a
render budget would fail on a loaded machine."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.screenshots import shoot

from .conftest import real_modes

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOT = Path(__file__).resolve().parents[2] / "var" / "screenshots" / "viewer.png"


@pytest.mark.django_db(transaction=True)
def test_viewer_plays_seeks_and_switches_seats(
    live_server, chromium_executable, stored_match
):
    from playwright.sync_api import sync_playwright

    mode = "standard"
    match = stored_match(mode, seed=21, seats=4)  # the ORM is touched before Playwright starts
    result = match.result
    tiles = [len(b["tiles"]) for b in result["boats"]]
    errors: list[str] = []

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_executable, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1500, "height": 1100})
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(f"{live_server.url}/replays/{match.pk}/?step=3")
            page.wait_for_function("window.viewer && window.viewer.views.length > 0")
            n = page.evaluate("window.viewer.views.length") - 1
            assert n > 20
            assert page.locator("#step-label").inner_text() == f"Step 3 / {n}"  # deep link

            page.keyboard.press("ArrowRight")
            assert page.evaluate("window.viewer.step") == 4
            page.click("#btn-back")
            page.click("#btn-back")
            assert page.evaluate("window.viewer.step") == 2
            assert "step=2" in page.url

            # Seek to every step through the slider's code path: each one renders its step.
            # (How long a render takes is a figure of bench/viewer.py, not a test.)
            shown_steps = page.evaluate("""() => {
                const v = window.viewer, out = [];
                for (let i = 0; i < v.views.length; i += 1) {
                    v.show(i);
                    out.push(Number(v.step));
                }
                return out;
            }""")
            assert shown_steps == list(range(n + 1))
            page.keyboard.press("End")
            assert page.locator("#step-label").inner_text() == f"Step {n} / {n}"
            shown = [int(page.locator(f'.boat[data-seat="{s}"]').get_attribute("data-tiles"))
                     for s in range(4)]
            assert shown == tiles
            assert page.locator('.boat[data-seat="0"] g.tile').count() == tiles[0]
            finals = [int(float(page.locator(f'.final-score[data-seat="{s}"]').inner_text()))
                      for s in range(4)]
            assert finals == [int(x) for x in result["scores"]]

            SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
            shoot(page, SCREENSHOT, full_page=True)

            # As seat 2 saw it: the page reloads that seat's frames and keeps the step.
            page.select_option("#seat-select", "2")
            page.wait_for_function("window.viewer.seat === '2'")
            assert "seat=2" in page.url
            assert page.evaluate("window.viewer.step") == n
            assert page.locator(".boat.me").get_attribute("data-seat") == "2"
            page.keyboard.press("Home")
            assert page.evaluate("window.viewer.step") == 0

            # On a phone a long name ends in an ellipsis inside its own box (the header never
            # clips it mid-word), and the whole name stays in the header's title.
            page.set_viewport_size({"width": 360, "height": 800})
            heads = page.eval_on_selector_all(".boat .who", """els => els.map(e => ({
                title: e.title, name: e.querySelector('.name').textContent,
                clipped: e.scrollWidth > e.clientWidth + 1,
                ellipsis: getComputedStyle(e.querySelector('.name')).textOverflow}))""")
            assert len(heads) == 4
            for head in heads:
                assert head["title"] == head["name"] and head["name"], head
                assert not head["clipped"] and head["ellipsis"] == "ellipsis", head
            page.set_viewport_size({"width": 1500, "height": 1100})

            page.click("#btn-play")
            page.select_option("#speed", "8")
            page.wait_for_function("window.viewer.step >= 3", timeout=5000)
            page.keyboard.press(" ")
            assert page.evaluate("window.viewer.playing") is False
        finally:
            browser.close()

    assert not errors, errors


@pytest.mark.django_db(transaction=True)
def test_every_mode_renders_in_chromium(
    live_server, chromium_executable, stored_match, toy_mode
):
    from playwright.sync_api import sync_playwright

    matches = [stored_match(mode, seed=5) for mode in [*real_modes(), toy_mode]]
    expected = {m.pk: [len(b["tiles"]) for b in m.result["boats"]] for m in matches}
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_executable, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            for match in matches:
                page.goto(f"{live_server.url}/replays/{match.pk}/?step=100000")
                page.wait_for_function("window.viewer && window.viewer.renders > 0")
                n = page.evaluate("window.viewer.views.length") - 1
                assert page.evaluate("window.viewer.step") == n, match.mode
                shown = [int(x) for x in page.eval_on_selector_all(
                    ".boat", "els => els.map(e => e.dataset.tiles)")]
                assert shown == expected[match.pk], match.mode
                island = page.locator("#island")
                if match.mode == "duel":
                    assert island.is_visible()
                    assert page.locator("#island .oshax-marker").count() == 1
                    # after the first boat is chosen, the other seat's says it has none yet
                    page.evaluate("window.viewer.show(1)")
                    assert page.locator(".boat .no-boat").count() == 1
                    assert page.locator(".boat svg g.layout").count() == 1
                else:
                    assert not island.is_visible()
                if match.mode in ("duel", "solo"):
                    page.evaluate("window.viewer.show(Math.floor(window.viewer.views.length / 2))")
                    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
                    shoot(page, SCREENSHOT.with_name(f"viewer-{match.mode}.png"),
                                    full_page=True)
        finally:
            browser.close()
    assert not errors, errors


@pytest.mark.django_db(transaction=True)
def test_open_a_replay_file(live_server, chromium_executable, record):
    """The file viewer: a replay that is in no database, posted with the page's CSRF token."""
    from playwright.sync_api import sync_playwright

    mode = "standard"
    game, _, data = record(mode, seed=8, seats=4)
    tiles = [len(b["tiles"]) for b in game.result()["boats"]]
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_executable, args=ARGS)
        try:
            page = browser.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{live_server.url}/replays/file/")
            page.set_input_files("#replay-file", files=[
                {"name": "game.replay", "mimeType": "application/zstd", "buffer": data}])
            page.wait_for_function("window.viewer.views.length > 0")
            page.keyboard.press("End")
            shown = [int(x) for x in page.eval_on_selector_all(
                ".boat", "els => els.map(e => e.dataset.tiles)")]
            assert shown == tiles
            assert page.locator("#file-name").inner_text() == "game.replay"
            page.select_option("#seat-select", "1")
            page.wait_for_function("window.viewer.seat === '1'")
            assert page.locator(".boat.me").get_attribute("data-seat") == "1"
        finally:
            browser.close()
    assert not errors, errors
