"""A new author's first bot, from sign-up to Bronze, in Debian's Chromium and never outside it:
the author signs up, opens the workshop, starts a bot from the Python starter, plays a test
game of the draft (a Duel against Wood's boss, `random`) and watches it in the viewer to its
last step, goes back to the workshop, replaces the code in the editor with a stronger bot
(tests/website/bots/endgame_bot.py: greedy, with a search of fixed rounds on the Duel's last
day), plays it against Bronze's boss (`greedy`), submits the draft and, reloading the bot's
page, sees that the version passed validation and was promoted past Wood and then Bronze.
Nothing is downloaded, and no request leaves 127.0.0.1.

The live server plays each match inside the request that queues it (eager tasks): a Play
answers with the finished game, and the submit with the version validated and its promotion
runs played, one seed at a time (PAIRED_WINDOW_SEEDS=1). For the runs to end inside the test,
the boss leagues are read from tests/website/data/boss_leagues_journey.json
(BOSS_LEAGUES_DATA): Wood and Bronze with their bosses, the SPRT's bounds widened from the
site's (0, +200) and (0, +100) Elo at α = β = 0.05 to (-100, +300) at 0.2, so that two deals
won decide a gate, and no gate above Bronze (the search bosses spend up to a second a
decision). A bot that is no stronger than greedy is seldom promoted past Bronze even so (its
LLR drifts to H0), but these bounds
test the path, not the bot: tests/tournament/test_boss_leagues.py and bench/bosses.py hold
the rule to the site's own bounds. The sequences are reset, so the runs are comparisons 1 and
2, their deals the same on every run, and the bot plays fixed rounds (no clock): the climb is
the same every time.

On each page: axe-core finds no serious or critical violation, and at 390 px no element is
wider than the viewport (`Audit.check`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.accounts import PASSWORD

from .browser import Audit, audited_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HERE = Path(__file__).resolve().parent
STRONGER = (HERE / "bots" / "endgame_bot.py").read_text()
LEAGUES = HERE / "data" / "boss_leagues_journey.json"


def _editor_text(page: Any) -> str:
    """The whole text in the editor (its DOM holds only the lines in view)."""
    return page.evaluate(
        "() => ArenaEditor.EditorView.findFromDOM(document.querySelector('.cm-editor'))"
        ".state.doc.toString()"
    )


def _play(page: Any, base: str, opponent: str) -> None:
    """Play a Duel of the draft against ``opponent`` and land on its match page."""
    page.select_option("#id_opponent", opponent)
    page.select_option("#id_game", "duel")
    page.click("[data-workshop-play]")
    page.wait_for_url(re.compile(rf"{re.escape(base)}/matches/\d+/$"), timeout=60_000)


def _watch_to_the_end(page: Any) -> None:
    """The viewer draws the game, plays on, and reaches its last step with the result."""
    page.wait_for_function("() => Number(document.querySelector('#seek').max) > 0",
                           timeout=30_000)  # fmt: skip
    page.select_option("#speed", "8")
    page.click("#btn-play")
    page.wait_for_function("() => Number(document.querySelector('#seek').value) > 0",
                           timeout=30_000)  # fmt: skip
    page.click("#btn-end")
    page.wait_for_function("""() => {
        const seek = document.querySelector('#seek');
        return Number(seek.value) === Number(seek.max);
    }""")


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_a_new_author_climbs_from_the_workshop_to_bronze(
    live_server, chromium_executable, axe, settings
) -> None:
    from tournament.services.bots import builtin_bots_register

    settings.BOSS_LEAGUES = True
    settings.BOSS_LEAGUES_DATA = str(LEAGUES)
    settings.PAIRED_WINDOW_SEEDS = 1  # eager: each seed is decided before the next is played
    builtin_bots_register()  # the ORM before Playwright's loop starts in this thread
    base = live_server.url
    audit = Audit(axe)
    with audited_page(chromium_executable, audit) as page:
        page.goto(f"{base}/accounts/signup/")
        audit.check(page, "journey-signup")
        page.fill("#id_username", "wren")
        page.fill("#id_email", "wren@example.com")
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{base}/dashboard/")
        audit.check(page, "journey-dashboard")

        page.get_by_role("link", name="Workshop", exact=True).click()
        page.wait_for_url(f"{base}/workshop/")
        audit.check(page, "journey-workshop")
        page.fill("#id_name", "wrenbot")
        page.check("input[name=kit][value=python]")
        page.click("text=Start the bot")
        page.wait_for_url(re.compile(r".*/workshop/\d+/$"))
        editor = page.url
        page.wait_for_selector(".cm-editor .cm-content .cm-line")
        assert "random legal action" in _editor_text(page)
        assert page.locator("#id_opponent option:checked").inner_text() == "random (Wood's boss)"
        audit.check(page, "journey-editor")

        # the starter, as it is, against Wood's boss: watched to its end
        _play(page, base, "random")
        assert "Test game (private, unrated)" in page.locator("#match-title").inner_text()
        assert "wrenbot (draft)" in page.locator("#test-game").inner_text()
        _watch_to_the_end(page)
        assert page.locator("[data-test-fault='0']").inner_text() == "Fault: none"
        audit.check(page, "journey-test-game")

        # back in the workshop: the stronger bot replaces the starter in the editor
        page.click("text=Back to the workshop")
        page.wait_for_url(editor)
        page.wait_for_selector(".cm-editor .cm-content .cm-line")
        page.click(".cm-content")
        page.keyboard.press("Control+A")
        page.keyboard.insert_text(STRONGER)
        assert _editor_text(page) == STRONGER
        _play(page, base, "greedy")  # the text is saved as the draft first
        assert "greedy v1" in page.locator("#test-game").inner_text()
        _watch_to_the_end(page)
        assert page.locator("[data-test-fault='0']").inner_text() == "Fault: none"
        audit.check(page, "journey-test-game-again")

        page.click("text=Back to the workshop")
        page.wait_for_url(editor)
        page.wait_for_selector(".cm-editor .cm-content .cm-line")
        assert _editor_text(page) == STRONGER
        page.click("text=Submit this draft", no_wait_after=True)  # the climb plays in it
        page.wait_for_url(re.compile(r".*/versions/\d+/$"), timeout=120_000)
        page.wait_for_selector("#version-status[data-status=ready]", timeout=60_000)
        assert "wrenbot v1" in page.locator("h1").inner_text()
        audit.check(page, "journey-version")

        # the bot's page, reloaded until both promotions show
        page.get_by_role("link", name="wrenbot v1").click()
        page.wait_for_url(re.compile(r".*/bots/\d+/$"))
        boss = page.locator("section[aria-labelledby=boss-title]")
        for _ in range(60):
            if boss.locator(".badge.league.bronze").count():
                break
            page.wait_for_timeout(1000)
            page.reload()
        versions = page.locator("section[aria-labelledby=versions-title] tbody tr")
        assert versions.count() == 1  # v1 alone: the drafts played were no versions of it
        assert versions.first.locator(".badge").inner_text() == "ready"
        text = boss.inner_text()
        assert "Bronze" in text and "Wood run: promoted" in text and "Bronze run: promoted" in text
        audit.check(page, "journey-bot")

    assert audit.violations == {}, audit.violations
    assert audit.blocked == [] and audit.errors == [], (audit.blocked, audit.errors)
