"""The site on the embedded default, as `scripts/demo.sh` serves it: a real `runserver` whose
background worker validates uploads and plays matches off the request path. In Chromium, an
author's new version shows "pending" and turns "ready" on the same page without a reload, and a
challenge match page follows the match live and shows its result when it ends."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scripts.embedded_ladder import EmbeddedArena

from .browser import ARGS, DESKTOP, REPO, Audit

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "pw-12345!x"


def test_validation_and_challenge_follow_the_background_worker(
    tmp_path: Path, free_port: int, chromium_executable: str, axe: Path
) -> None:
    from playwright.sync_api import sync_playwright

    audit = Audit(axe)
    with EmbeddedArena(tmp_path / "data", free_port) as arena, sync_playwright() as playwright:
        base = arena.base_url
        browser = playwright.chromium.launch(executable_path=chromium_executable, args=ARGS)
        try:
            context = browser.new_context(viewport=DESKTOP)
            audit.guard(context)
            page = context.new_page()
            audit.watch(page)
            page.goto(f"{base}/accounts/signup/")
            page.fill("#id_username", "carol")
            page.fill("#id_email", "carol@example.com")
            page.fill("#id_password1", PASSWORD)
            page.fill("#id_password2", PASSWORD)
            page.click("main form button[type=submit]")
            page.wait_for_url(f"{base}/dashboard/")
            page.goto(f"{base}/bots/new/")
            page.fill("#id_name", "tabby")
            page.click("main form button[type=submit]")
            page.wait_for_url(re.compile(r".*/bots/\d+/$"))
            page.set_input_files("#id_file", str(REPO / "examples" / "bots" / "random_bot.py"))
            page.click("form[data-upload] button[type=submit]")
            page.wait_for_url(re.compile(r".*/versions/\d+/$"))
            first = page.get_attribute("#version-status", "data-status")
            page.evaluate("window.sameDocument = true")
            page.wait_for_selector("#version-status[data-status=ready]", timeout=240_000)
            if first == "pending":  # the usual case: the worker had not finished yet
                assert page.evaluate("window.sameDocument === true")  # updated in place
            audit.check(page, "embedded-version-ready")

            page.goto(f"{base}/challenge/")
            page.select_option("#id_mode", "duel")
            page.select_option("#id_seat_0", label="tabby v1")
            page.select_option("#id_seat_1", label="greedy v1")
            page.click("main form button[type=submit]")
            page.wait_for_url(re.compile(r".*/matches/\d+/$"))
            status = page.locator("[data-match-status]").inner_text()
            assert status in ("waiting for a worker", "running", "finished")  # never "queued"
            if status != "finished":
                audit.check(page, "embedded-match-waiting")
            # The viewer follows the match live; when it ends, the seats panel gets its scores
            # and ranks in place, and the replay is there to play.
            page.wait_for_selector("#match-info td.rank", state="attached", timeout=240_000)
            assert page.locator("[data-match-status]").inner_text() == "finished"
            page.wait_for_function("() => Number(document.querySelector('#seek').max) > 0")
        finally:
            browser.close()
    assert audit.blocked == [] and audit.errors == []
    assert audit.violations == {}, audit.violations
