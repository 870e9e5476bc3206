"""A new author's first hour in Debian's Chromium: sign up, open "Write a bot"
from the home page, download the Python starter kit, upload that zip as it came, enter the
demo's open Duel ladder from its page, and see the bot's first rated match there and on the
match's page.

The ladder is the demo's own (`services.demo.demo_ladders`: the house bots random and greedy
entered, running, not yet scheduled). The live server runs tasks eagerly, so the validation
match plays inside the upload request (in the sandbox) and the entry schedules the ladder at
once: the newcomer's games are played inside the entry request, and the ladder rests once
every pair has met LADDER_REST_PAIR_GAMES (1 here) times. Each page is checked by axe-core,
at phone width, and screenshotted (tests/website/browser.py)."""

from __future__ import annotations

import io
import re
import zipfile

import pytest

from tests.accounts import PASSWORD

from .browser import Audit, audited_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.django_db(transaction=True)
def test_sign_up_download_a_kit_upload_it_enter_the_open_ladder(
    live_server, chromium_executable, axe, settings, tmp_path
) -> None:

    from tournament.models import BotVersion, Match, RatingChange
    from tournament.services.bots import builtin_bots_register
    from tournament.services.demo import demo_ladders

    settings.DATA_DIR = tmp_path / "data"  # the kits' kept zips
    settings.LADDER_REST_PAIR_GAMES = 1
    # The ORM is touched before Playwright starts its event loop in this thread.
    house = dict(builtin_bots_register())
    (ladder,) = demo_ladders(modes=["duel"], versions={n: house[n] for n in ("random", "greedy")})
    base = live_server.url
    audit = Audit(axe)

    with audited_page(chromium_executable, audit, accept_downloads=True) as page:
        # --- sign up ----------------------------------------------------------------------
        page.goto(f"{base}/accounts/signup/")
        page.fill("#id_username", "newcomer")
        page.fill("#id_email", "newcomer@example.com")
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{base}/dashboard/")

        # --- the home page leads to "Write a bot"; download the Python kit -----------------
        page.goto(f"{base}/")
        page.locator("main").get_by_role("link", name="Write a bot").click()
        page.wait_for_url(f"{base}/write-a-bot/")
        assert page.locator("nav.main a[aria-current=page]").inner_text() == "Write a bot"
        assert page.get_by_role("link", name=ladder.name).count() == 1
        audit.check(page, "write-a-bot")
        with page.expect_download() as download_info:
            page.click("a[data-kit=python]")
        download = download_info.value
        assert download.suggested_filename == "isle-arena-python-starter.zip"
        kit = tmp_path / download.suggested_filename
        download.save_as(kit)
        names = zipfile.ZipFile(io.BytesIO(kit.read_bytes())).namelist()
        assert "bot.json" in names and "random_bot.py" in names

        # --- create a bot and upload the zip as it came ------------------------------------
        page.goto(f"{base}/bots/new/")
        page.fill("#id_name", "kitten")
        page.click("main form button[type=submit]")
        page.wait_for_url(re.compile(r".*/bots/\d+/$"))
        page.set_input_files("#id_file", str(kit))
        page.click("form[data-upload] button[type=submit]")
        page.wait_for_url(re.compile(r".*/versions/\d+/$"), timeout=120_000)
        page.wait_for_selector("#version-status[data-status=ready]", timeout=120_000)

        # --- enter the open ladder from its page -------------------------------------------
        page.goto(f"{base}/write-a-bot/")
        page.get_by_role("link", name=ladder.name).click()
        page.wait_for_url(f"{base}/leagues/{ladder.pk}/")
        assert "Enter one of your bots" in page.content()
        page.select_option("#enter-bot", label="kitten (latest v1, ready)")
        page.click("form[action$='/entries/'] button[type=submit]")
        page.wait_for_selector("text=entered in Open duel ladder", timeout=300_000)

        # --- its first rated match: on the ladder, and on the match's page -----------------
        row = page.locator("table.ladder tbody tr", has_text="kitten")
        assert row.count() == 1
        games = int(row.locator("td.num").nth(2).inner_text())
        assert games >= 1
        assert "at rest" in page.locator("#rest-state").inner_text()
        audit.check(page, "open-ladder-entered")
        page.locator("table.matches tbody tr", has_text="kitten").locator(
            "a[href^='/matches/']"
        ).first.click()
        page.wait_for_url(re.compile(r".*/matches/\d+/$"))
        title = page.locator("#match-title").inner_text()
        assert "unrated" not in title
        audit.check(page, "open-ladder-first-match")

    version = BotVersion.objects.get(bot__name="kitten")
    assert version.status == BotVersion.Status.READY
    rated = Match.objects.filter(league=ladder, status=Match.Status.FINISHED,
                                 seats__bot_version=version)  # fmt: skip
    assert rated.exists()
    assert RatingChange.objects.filter(league=ladder, bot_version=version).count() == rated.count()
    assert audit.violations == {}, audit.violations
    assert audit.blocked == [], "requests to other hosts"
    assert audit.errors == [], "script errors"
