"""Every role's whole journey through the site in Debian's Chromium, with matches really played
(eager tasks in the live server: a validation in the sandbox, league and challenge matches):

* an author signs up (keyboard only), creates a bot, drops a wrong file, uploads the random
  starter and sees it become ready;
* an organiser creates a league through the form and starts it once authors have entered;
* a spectator opens the home page, the ladder and a match, and watches the replay;
* the author requests a challenge match and watches it.

On every page: axe-core finds no serious or critical violation, the page fits a 390 px phone,
and a screenshot is saved at desktop and phone width (var/screenshots/site/). The browser may
reach 127.0.0.1 only: any other request is refused and fails the test (/api/docs/ included).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.accounts import PASSWORD
from tournament.bundle_formats import formats_sentence
from tournament.errors import BundleRejected

from .browser import ARGS, DESKTOP, REPO, Audit
from .conftest import builtin_copy

pytestmark = [pytest.mark.browser, pytest.mark.slow]

STARTER = REPO / "examples" / "bots" / "random_bot.py"



def _watch_replay(page: Any) -> None:
    """The viewer loads the frames, and playing moves it past the first step. Each seat of
    the match page's list has the colour of its board in the viewer."""
    page.wait_for_function("() => Number(document.querySelector('#seek').max) > 0",
                           timeout=30_000)  # fmt: skip
    colours = page.evaluate("""() => [...document.querySelectorAll('.seats .seat')].map((el, s) => [
        getComputedStyle(el).borderLeftColor,
        getComputedStyle(el.querySelector('.dot')).backgroundColor,
        getComputedStyle(document.querySelector(`.boat[data-seat="${s}"]`)).borderTopColor])""")
    assert len(colours) >= 2 and len({c[0] for c in colours}) == len(colours)
    assert all(seat == dot == boat for seat, dot, boat in colours), colours
    page.click("#btn-play")
    page.wait_for_function("() => Number(document.querySelector('#seek').value) > 0",
                           timeout=30_000)  # fmt: skip


def _login(page: Any, base: str, username: str, then: str) -> None:
    page.goto(f"{base}/accounts/login/?next={then}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{base}{then}")


@pytest.mark.django_db(transaction=True)
def test_every_role_in_the_browser(live_server, chromium_executable, axe, make_user) -> None:
    from playwright.sync_api import sync_playwright

    from tournament.services.bots import builtin_bots_register

    # The ORM is touched before Playwright starts its event loop in this thread.
    make_user("olga", organiser=True)
    builtin_copy(make_user("bob"), "bobcat", "greedy")
    builtin_bots_register()
    base = live_server.url
    audit = Audit(axe)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_executable, args=ARGS)
        contexts = []

        def new_page() -> Any:
            context = browser.new_context(viewport=DESKTOP)
            audit.guard(context)
            contexts.append(context)
            page = context.new_page()
            audit.watch(page)
            page.on("dialog", lambda d: d.accept())
            return page

        try:
            # --- author: sign up with the keyboard, create a bot, upload the starter ---------
            author = new_page()
            author.goto(f"{base}/")
            audit.check(author, "home-anonymous")
            author.keyboard.press("Tab")
            assert author.evaluate("document.activeElement.textContent") == "Skip to content"
            author.get_by_role("link", name="Sign up").first.click()
            author.wait_for_url(f"{base}/accounts/signup/")
            audit.check(author, "signup")
            author.focus("#id_username")
            author.keyboard.type("alice")
            author.keyboard.press("Tab")
            author.keyboard.type("alice@example.com")
            author.keyboard.press("Tab")
            author.keyboard.type(PASSWORD)
            author.keyboard.press("Tab")
            author.keyboard.type(PASSWORD)
            author.keyboard.press("Enter")
            author.wait_for_url(f"{base}/dashboard/")
            audit.check(author, "dashboard-empty")

            author.get_by_role("link", name="New bot").first.click()
            author.wait_for_url(f"{base}/bots/new/")
            audit.check(author, "bot-new")
            author.fill("#id_name", "whiskers")
            author.fill("#id_description", "the random starter, uploaded from the browser")
            author.click("main form button[type=submit]")
            author.wait_for_url(re.compile(r".*/bots/\d+/$"))
            bot_url = author.url
            audit.check(author, "bot-owner-empty")

            # A file dropped on the zone is sent at once; a wrong one gets a clear message.
            drop = author.evaluate_handle("""() => {
                const dt = new DataTransfer();
                dt.items.add(new File(["hello"], "notes.txt", {type: "text/plain"}));
                return dt;
            }""")
            author.dispatch_event("[data-dropzone]", "drop", {"dataTransfer": drop})
            author.wait_for_function(
                "m => document.querySelector('[data-upload-status]').textContent === m",
                arg=BundleRejected.BAD_EXTENSION.format(formats=formats_sentence()),
            )
            author.set_input_files("#id_file", str(STARTER))
            author.click("form[data-upload] button[type=submit]")
            author.wait_for_url(re.compile(r".*/versions/\d+/$"), timeout=120_000)
            author.wait_for_selector("#version-status[data-status=ready]", timeout=120_000)
            audit.check(author, "version-ready")

            # --- organiser: create a league through the form --------------------------------
            organiser = new_page()
            _login(organiser, base, "olga", "/leagues/new/")
            audit.check(organiser, "league-new")
            organiser.fill("#id_name", "Browser duel")
            organiser.select_option("#id_mode", "duel")  # its 2 seats are set by the page
            organiser.select_option("#id_format", "round_robin")
            organiser.click("main form button[type=submit]")
            organiser.wait_for_url(re.compile(r".*/leagues/\d+/$"))
            league_url = organiser.url
            audit.check(organiser, "league-draft-organiser")

            # --- authors enter their bots ---------------------------------------------------
            author.goto(league_url)
            author.select_option("#enter-bot", label="whiskers (latest v1, ready)")
            author.click("form[action$='/entries/'] button[type=submit]")
            author.wait_for_selector("text=entered in Browser duel")
            bob = new_page()
            _login(bob, base, "bob", "/dashboard/")
            bob.goto(league_url)
            bob.click("form[action$='/entries/'] button[type=submit]")
            bob.wait_for_selector("text=entered in Browser duel")

            # --- organiser starts it: the matches are played --------------------------------
            organiser.reload()
            organiser.click("text=Start the league")
            organiser.wait_for_selector("text=Browser duel is", timeout=120_000)
            assert organiser.locator("table.matches tbody tr").count() == 2  # played
            audit.check(organiser, "league-started-organiser")

            # --- spectator: home, ladder, a match and its replay ----------------------------
            spectator = new_page()
            spectator.goto(f"{base}/")
            spectator.click("text=Browser duel")
            spectator.wait_for_url(league_url)
            assert spectator.locator("table.ladder tbody tr").count() == 2
            assert "W" in spectator.locator("table.ladder thead").inner_text()
            audit.check(spectator, "league")
            spectator.locator("table.matches tbody a[href^='/matches/']").first.click()
            spectator.wait_for_url(re.compile(r".*/matches/\d+/$"))
            _watch_replay(spectator)
            audit.check(spectator, "match")
            for path, name in [("/leagues/", "leagues"), ("/matches/", "matches"),
                               ("/bots/", "bots"), (bot_url, "bot"),
                               ("/docs/protocol/", "protocol"), ("/no-such-page/", "404"),
                               ("/accounts/login/", "login"),
                               ("/accounts/password/reset/", "password-reset")]:  # fmt: skip
                spectator.goto(path if path.startswith("http") else f"{base}{path}")
                audit.check(spectator, name)
            docs = spectator.goto(f"{base}/api/docs/")
            assert docs is not None and docs.status == 200
            api_docs_drawn = spectator.locator(".swagger-ui .info").first

            # --- author: a challenge match, watched ------------------------------------------
            author.goto(f"{base}/challenge/")
            audit.check(author, "challenge")
            author.select_option("#id_mode", "duel")
            assert author.locator("#field-seat_2").is_hidden()  # the Duel seats two
            author.select_option("#id_seat_0", label="whiskers v1")
            author.select_option("#id_seat_1", label="greedy v1")
            author.click("main form button[type=submit]")
            author.wait_for_url(re.compile(r".*/matches/\d+/$"), timeout=120_000)
            assert "unrated" in author.locator("#match-title").inner_text()
            _watch_replay(author)
            audit.check(author, "challenge-match")

            # A solo challenge: the match page says who won, the bot or the sister, and by how
            # much (the result opens on a click, so that the replay does not spoil it).
            author.goto(f"{base}/challenge/")
            author.select_option("#id_mode", "solo")
            author.select_option("#id_difficulty", "easy")
            author.select_option("#id_seat_0", label="whiskers v1")
            author.click("main form button[type=submit]")
            author.wait_for_url(re.compile(r".*/matches/\d+/$"), timeout=120_000)
            author.click("#match-info details.result summary")
            outcome = author.locator("#match-info td.rank").inner_text()
            assert outcome in ("won", "sister won"), outcome
            assert "The sister (easy) scored" in author.locator(".sister-result").inner_text()
            audit.check(author, "challenge-solo-match")

            # --- the author's other pages -----------------------------------------------------
            for path, name in [("/dashboard/", "dashboard"), (bot_url, "bot-owner"),
                               ("/accounts/", "account"),
                               ("/accounts/password/change/", "password-change"),
                               ("/leagues/new/", "403")]:  # fmt: skip
                author.goto(path if path.startswith("http") else f"{base}{path}")
                audit.check(author, name)
            author.goto(f"{base}/accounts/")
            token = author.locator("#api-token").inner_text()
            author.click("text=Regenerate the token")
            author.wait_for_selector("text=A new API token was made")
            assert author.locator("#api-token").inner_text() != token
            # Swagger UI draws the API docs from files the project serves itself.
            spectator.goto(f"{base}/api/docs/")
            api_docs_drawn.wait_for(timeout=30_000)
        finally:
            print("violations:", audit.violations, "blocked:", audit.blocked)
            for context in contexts:
                context.close()
            browser.close()

    assert audit.violations == {}, audit.violations
    assert audit.blocked == [], "requests to other hosts"
    assert audit.errors == [], "script errors"
    assert len(audit.pages) >= 25
