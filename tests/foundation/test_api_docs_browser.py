"""`/api/docs/` renders with no internet: Swagger UI comes from this server
(drf-spectacular-sidecar). Chromium may reach only the live server; every other request is
aborted and recorded, and the page must still list the API's operations."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.django_db(transaction=True)
def test_api_docs_render_offline(live_server, chromium_executable: str) -> None:
    from playwright.sync_api import sync_playwright

    own_host = urlsplit(live_server.url).hostname
    blocked: list[str] = []

    def only_this_server(route) -> None:  # noqa: ANN001 - Playwright's Route
        host = urlsplit(route.request.url).hostname
        if host == own_host:
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_executable, args=["--no-sandbox"]
        )
        try:
            page = browser.new_page()
            page.route("**/*", only_this_server)
            response = page.goto(f"{live_server.url}/api/docs/")
            assert response is not None and response.status == 200
            operations = page.locator(".opblock")
            operations.first.wait_for(state="visible", timeout=30_000)
            assert operations.count() > 10
            assert page.locator(".opblock-summary-path", has_text="/api/v1/leagues/").count() > 0
        finally:
            browser.close()
    assert blocked == [], f"/api/docs/ asked other hosts: {blocked}"
