"""The viewer as a spectator meets it, in real headless Chromium, for one replay of each mode:
no result before the last step (and the toggle that shows it), the table (fields or island),
the hands the view may see, a sentence for the step, the chart that seeks, a live match that
is followed without a reload and becomes the replay, axe-core, and screenshots (desktop and
390 px) under var/screenshots/viewer/."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import new_game
from engine.bots import make_bot
from tests.screenshots import shoot

from .live_matches import file_live_logs, greedy_match

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
REPO = Path(__file__).resolve().parents[2]
SHOTS = REPO / "var" / "screenshots" / "viewer"
SEATS = {"standard": 4, "family": 3, "solo": 1, "duel": 2}
RESULT_WORDS = ("Winner", "Result", "rank")


@contextlib.contextmanager
def _chromium(executable: str) -> Iterator[tuple[Callable[..., Any], list[str]]]:
    """A headless Chromium, closed at the end: ``new_page(**options)`` opens a page whose
    script errors go to the list given with it, which the test asserts empty once done."""
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=ARGS)

        def new_page(**options: Any) -> Any:
            page = browser.new_page(**options)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            return page

        try:
            yield new_page, errors
        finally:
            browser.close()


def _serious_violations(page, script: Path) -> list[str]:
    page.add_script_tag(path=str(script))
    found = page.evaluate("""async () => {
        const r = await axe.run(document.querySelector('main') || document,
                                {resultTypes: ['violations']});
        const where = (v) => v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ');
        return r.violations.filter(v => ['serious', 'critical'].includes(v.impact))
                 .map(v => v.id + ': ' + where(v));
    }""")
    return found


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_function(
        "window.viewer && window.viewer.views.length > 1 && window.viewer.renders > 0")


def _visible_text(page) -> str:
    return page.evaluate("document.querySelector('#viewer').innerText")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("mode", ["standard", "family", "solo", "duel"])
def test_a_replay_of_each_mode_as_a_spectator(live_server, chromium_executable, stored_match,
                                              axe, mode):
    match = stored_match(mode, seed=9, seats=SEATS[mode])
    result = match.result
    SHOTS.mkdir(parents=True, exist_ok=True)
    with _chromium(chromium_executable) as (new_page, errors):
        page = new_page(viewport={"width": 1400, "height": 1000})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        _open(page, f"{live_server.url}/replays/{match.pk}/")
        n = page.evaluate("window.viewer.views.length") - 1

        # No spoilers: no result anywhere before the last step.
        for step in (0, n // 2, n - 1):
            page.evaluate(f"window.viewer.show({step})")
            text = _visible_text(page)
            assert page.locator("#final").is_hidden(), step
            assert page.locator(".final-score").count() == 0, step
            assert not any(word in text for word in RESULT_WORDS), (step, text[:400])

        # The table: fields with drawn cats (or the Duel island), hands, the sentence.
        page.evaluate(f"window.viewer.show({n // 2})")
        if mode == "duel":
            assert page.locator("#island svg .space").count() == 15
            assert page.locator("#island .oshax-marker").count() == 1
        else:
            assert page.locator("#fields .field").count() == 2
            assert page.locator("#fields svg.piece.kind-cat").count() > 0
            assert page.locator("#dayline").inner_text().startswith("Day ")
        if mode == "solo":
            assert page.locator("#sister .sister .card").count() >= 3
        assert page.locator(".boat g.tile").count() > 0
        assert page.locator(".boat .hands .card[data-card]").count() > 0  # the spectator
        say = page.locator("#step-info .say").inner_text()
        step = page.evaluate("window.viewer.payload.steps[window.viewer.step - 1]")
        assert say == step["say"] and "=" not in say
        assert page.locator("#step-info .say").get_attribute("title") == step["text"]
        assert page.locator("#caption").inner_text() == say

        # The chart seeks: a click at three quarters of its width.
        chart = page.locator("#chart svg")
        box = chart.bounding_box()
        page.evaluate("window.viewer.show(0)")
        chart.click(position={"x": box["width"] * 0.75, "y": box["height"] / 2})
        at = page.evaluate("window.viewer.step")
        assert n * 0.6 < at < n * 0.9, (at, n)
        assert f"step={at}" in page.url

        # "Show result" reveals it early; the last step shows it anyway.
        page.check("#show-result")
        assert page.locator("#final").is_visible()
        page.uncheck("#show-result")
        assert page.locator("#final").is_hidden()
        shoot(page, SHOTS / f"{mode}-desktop.png", full_page=True)
        page.keyboard.press("End")
        assert page.locator("#final").is_visible()
        finals = [int(float(page.locator(f'.final-score[data-seat="{s}"]').inner_text()))
                  for s in range(SEATS[mode])]
        assert finals == [int(x) for x in result["scores"]]
        if SEATS[mode] > 1:
            assert "Winner" in _visible_text(page)

        page.evaluate(f"window.viewer.show({n // 2})")
        assert _serious_violations(page, axe) == []

        # A seat's view: its own hand, card backs for the others.
        if SEATS[mode] > 1 and mode != "duel":
            _open(page, f"{live_server.url}/replays/{match.pk}/?seat=1&step={n // 3}")
            assert page.locator('.boat[data-seat="1"] .hands .card[data-card]').count() > 0
            assert page.locator('.boat[data-seat="0"] .secret .card[data-card]').count() == 0

        phone = new_page(viewport={"width": 390, "height": 844}, has_touch=True)
        _open(phone, f"{live_server.url}/replays/{match.pk}/?step={n // 2}")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        phone.tap("#btn-forward")
        assert phone.evaluate("window.viewer.step") == n // 2 + 1
        shoot(phone, SHOTS / f"{mode}-phone.png")
        shoot(phone, SHOTS / f"{mode}-phone-full.png", full_page=True)
    assert not errors, errors


@pytest.mark.django_db(transaction=True)
def test_reduced_motion_turns_the_animations_off(live_server, chromium_executable, stored_match):
    from playwright.sync_api import sync_playwright

    match = stored_match("standard", seed=9, seats=2)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_executable, args=ARGS)
        try:
            counts = {}
            for motion in ("no-preference", "reduce"):
                page = browser.new_page(reduced_motion=motion)
                _open(page, f"{live_server.url}/replays/{match.pk}/")
                page.evaluate("""() => {
                    window.__animations = 0;
                    const original = Element.prototype.animate;
                    Element.prototype.animate = function (...a) {
                        window.__animations += 1; return original.apply(this, a); };
                }""")
                # Step through the first rescues and placements one by one: the forward
                # button clicked in the page, a frame apart (Playwright's own click waits for
                # the button to stand still, which is what the animations prevent).
                page.evaluate("""async () => {
                    const forward = document.querySelector('#btn-forward');
                    for (let i = 0; i < 80; i++) {
                        forward.click();
                        await new Promise((done) => requestAnimationFrame(done));
                    }
                }""")
                counts[motion] = page.evaluate("window.__animations")
                page.close()
        finally:
            browser.close()
    assert counts["no-preference"] > 0
    assert counts["reduce"] == 0


@pytest.mark.django_db(transaction=True)
def test_a_live_match_is_followed_without_a_reload_and_becomes_the_replay(
    live_server, chromium_executable, settings, tmp_path, replay_storage, monkeypatch
):
    """A match started during the test: the page shows it as "live", new steps arrive without
    a reload, no hidden card is ever drawn, and at its end the page is the ordinary replay."""

    from replays import live
    from tournament.models import Match
    from tournament.services import matches

    file_live_logs(settings, tmp_path)  # the live log: a file both processes could share
    match = greedy_match("standard", 3, status=Match.Status.QUEUED, seed=5)

    # Bots this fast finish in a second; a pause per step gives the page time to follow,
    # until the page has been seen following (``followed``): the rest is played at full speed.
    real = live.LivePublisher.__call__
    go, followed = threading.Event(), threading.Event()

    def paced(self, game, seat, action, seconds):
        real(self, game, seat, action, seconds)
        go.wait(30)
        followed.wait(0.02)

    monkeypatch.setattr(live.LivePublisher, "__call__", paced)
    worker = threading.Thread(target=matches.match_play, kwargs={"match_id": match.pk})
    with _chromium(chromium_executable) as (new_page, errors):
        try:
            page = new_page(viewport={"width": 1300, "height": 950})
            page.goto(f"{live_server.url}/replays/{match.pk}/")
            page.wait_for_function(
                "document.querySelector('#status').textContent.includes('in the queue')")
            # queued: no "live" badge and no empty table; the status says what it waits for
            assert page.locator("#live-badge").is_hidden()
            assert page.locator("#boats").is_hidden()
            assert "waiting for a worker" in page.locator("#status").inner_text()
            page.evaluate("window.__sameDocument = true")
            worker.start()
            page.wait_for_function("window.viewer.live && window.viewer.views.length > 1",
                                   timeout=30000)
            assert page.locator("#live-badge").is_visible()
            assert page.locator("#live-badge").inner_text().lower() == "● live"  # being played
            seen = page.evaluate("window.viewer.views.length")
            go.set()
            page.wait_for_function(f"window.viewer.views.length > {seen + 10}", timeout=30000)
            newest = page.evaluate("window.viewer.views.length") - 1
            assert page.evaluate("window.viewer.step") == newest  # following the newest step
            # The public view: nobody's hand is drawn, only backs; no result.
            for _ in range(5):
                assert page.locator(".hand-group.secret .card[data-card]").count() == 0
                assert page.locator("#final").is_hidden()
                page.wait_for_timeout(150)
            assert page.locator(".hand-group.secret .card.back").count() > 0
            shoot(page, SHOTS / "live-desktop.png")
            followed.set()
            page.wait_for_function("window.viewer.payload.live === false", timeout=120000)
            worker.join(60)
            assert page.evaluate("window.__sameDocument") is True  # no reload
            assert page.locator("#live-badge").is_hidden()
            n = page.evaluate("window.viewer.views.length") - 1
            assert page.evaluate("window.viewer.step") == n
            assert page.locator("#final").is_visible()
            assert page.locator(".final-score").count() == 3
            assert page.locator(".hand-group.secret .card[data-card]").count() > 0  # all open
            assert page.evaluate("window.viewer.payload.live") is False
        finally:
            go.set()
            followed.set()
            worker.join(60)
    assert not errors, errors
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


@pytest.mark.django_db(transaction=True)
def test_a_live_match_played_again_is_followed_from_its_new_start(
    live_server, chromium_executable, settings, tmp_path
):
    """The reaper re-queued a running match (its worker looked dead) and a second play began
    while the first still publishes: the page switches to the new play whole, without a
    reload, and the first play's later steps never reach it."""

    from replays.live import LivePublisher

    file_live_logs(settings, tmp_path)
    match = greedy_match("duel", 2, seed=5)
    spec = {"mode": "duel", "seed": 5, "seats": [{"seat": s, "name": "greedy"} for s in range(2)]}

    def publish(publisher: LivePublisher, game, steps: int) -> None:
        bots = [make_bot("greedy", "duel", s, 5) for s in range(2)]
        for _ in range(steps):
            seat = game.pending()[0]
            action = bots[seat].act(game, seat)
            game.apply_unchecked(seat, action)
            publisher(game, seat, action, 0.001)

    first, first_game = LivePublisher(match_id=match.pk, spec=spec), new_game("duel", 2, 5)
    publish(first, first_game, 12)
    with _chromium(chromium_executable) as (new_page, errors):
        page = new_page(viewport={"width": 1300, "height": 950})
        page.goto(f"{live_server.url}/replays/{match.pk}/")
        page.wait_for_function("window.viewer.live && window.viewer.views.length === 13")
        page.evaluate("window.__sameDocument = true")
        page.click("#btn-end")  # the newest step: the page follows from there
        page.wait_for_function("window.viewer.step === 12")
        second = LivePublisher(match_id=match.pk, spec=spec)
        publish(second, new_game("duel", 2, 5), 3)
        publish(first, first_game, 6)  # the first play, still running, is not shown
        page.wait_for_function(
            f"window.viewer.payload.play === '{second.play}'"
            " && window.viewer.views.length === 4", timeout=30000)
        page.wait_for_timeout(1500)  # two more polls: nothing of the first play comes
        assert page.evaluate("window.viewer.views.length") == 4
        assert page.evaluate("window.viewer.step") == 3  # following the newest step
        assert page.evaluate("window.__sameDocument") is True
    assert not errors, errors
