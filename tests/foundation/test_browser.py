"""Playwright drives Debian's Chromium against a live server: the setup browser tests rely on.

Other browser tests (the replay viewer) follow this pattern. Playwright's sync API runs an event
loop in the test thread, so touch the ORM before starting it, or not at all, in such tests.
"""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.django_db(transaction=True)
def test_admin_login_page_renders_in_chromium(live_server, chromium_executable: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_executable, args=["--no-sandbox"]
        )
        try:
            page = browser.new_page()
            response = page.goto(f"{live_server.url}/admin/login/")
            assert response is not None and response.status == 200
            assert page.locator("input[name=username]").count() == 1
            assert "Log in" in page.title()
        finally:
            browser.close()
