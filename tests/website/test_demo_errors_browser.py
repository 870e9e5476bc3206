"""The demo's rough edges in Debian's Chromium, on a server started the way scripts/demo.sh
starts it (migrate, then `manage.py runserver` with the environment a fresh clone has: no
DEBUG, no DATABASE_URL, no broker):

* an unknown address gets the site's styled 404 page and a form's target opened as a page the
  styled 405 page, never Django's debug pages; both have the site's stylesheet (served by
  WhiteNoise with DEBUG off), pass axe-core with no serious or critical violation and fit a
  390 px phone;
* the upload box says "The file is empty." and "the limit is 32 MiB" without sending the file;
* closing a league for good asks first, on a page of its own.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser import ARGS, DESKTOP, REPO, Audit

pytestmark = [pytest.mark.browser, pytest.mark.slow]

START_DEADLINE = 120.0


def demo_env(tmp_path: Path) -> dict[str, str]:
    """A fresh clone's environment: nothing the settings read, but a DATA_DIR of its own."""
    dropped = {"DEBUG", "DATABASE_URL", "CELERY_BROKER_URL", "ALLOWED_HOSTS", "CACHE_URL"}
    env = {
        key: value for key, value in os.environ.items()
        if key not in dropped and not key.startswith(("DJANGO_", "CELERY_", "SECURE_"))
    }  # fmt: skip
    env.update(DATA_DIR=str(tmp_path / "data"), PYTHONUNBUFFERED="1")
    return env


# An author with a bot, and an organiser with a draft league (league 1), made in the demo's
# database before it serves.
AUTHOR_SETUP = """
from django.contrib.auth import get_user_model
from tournament.models import Bot
from tournament.services.accounts import organiser_grant
from tournament.services.leagues import league_create
user = get_user_model().objects.create_user("ada", password="demo-pass-1234")
Bot.objects.create(name="adabot", owner=user)
olga = get_user_model().objects.create_user("olga", password="demo-pass-1234")
organiser_grant(user=olga)
league_create(organiser=olga, name="Winter duel", mode="duel", seats=2, format="round_robin")
"""


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from tests.ports import free_port

    tmp_path = tmp_path_factory.mktemp("demo")
    env = demo_env(tmp_path)
    manage = [sys.executable, "manage.py"]
    for step in (["migrate", "--noinput"], ["shell", "-c", AUTHOR_SETUP]):
        done = subprocess.run([*manage, *step], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=300)  # fmt: skip
        assert done.returncode == 0, done.stderr
    free_port = free_port()
    log = tmp_path / "runserver.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [*manage, "runserver", "--noreload", f"127.0.0.1:{free_port}"],  # as demo.sh does
            cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    base = f"http://127.0.0.1:{free_port}"
    try:
        deadline = time.monotonic() + START_DEADLINE
        while True:
            assert server.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=5) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield base
    finally:
        # The autoreloader's parent, its child and the embedded worker share the session.
        os.killpg(server.pid, 15)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, 9)
            server.wait()


def test_demo_serves_styled_404_and_405_pages(demo_server: str, chromium_executable: str,
                                              axe: Any) -> None:  # fmt: skip
    from playwright.sync_api import sync_playwright

    base = demo_server
    audit = Audit(axe)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_executable, args=ARGS)
        context = browser.new_context(viewport=DESKTOP)
        audit.guard(context)
        page = context.new_page()
        audit.watch(page)
        stylesheets = []
        page.on("response", lambda r: stylesheets.append((r.url, r.status))
                if r.url.endswith(".css") else None)  # fmt: skip

        missing = page.goto(f"{base}/no-such-page/")
        assert missing is not None and missing.status == 404
        assert page.locator("h1").inner_text() == "404 — nothing here"
        text = page.locator("main").inner_text()
        assert "There is no page at /no-such-page/" in text
        assert "URLconf" not in page.content()  # not Django's debug page
        _styled(page)
        audit.check(page, "demo-404")

        wrong = page.goto(f"{base}/leagues/1/invite/")
        assert wrong is not None and wrong.status == 405
        assert wrong.headers.get("allow") == "POST"
        assert page.locator("h1").inner_text() == "405 — not like this"
        assert "does nothing when opened as a page" in page.locator("main").inner_text()
        _styled(page)
        audit.check(page, "demo-405")
        page.get_by_role("link", name="Back to /leagues/1/").click()
        page.wait_for_load_state("load")
        assert page.url == f"{base}/leagues/1/"
        assert "Winter duel" in page.locator("h1").inner_text()
        browser.close()

    assert stylesheets and all(status == 200 for _, status in stylesheets), stylesheets
    assert not audit.violations, audit.violations
    assert not audit.blocked, audit.blocked
    assert not audit.errors, audit.errors


def _styled(page: Any) -> None:
    """The site's stylesheet applied: the header bar has its colour, not the browser's
    transparent default."""
    background = page.evaluate(
        "() => getComputedStyle(document.querySelector('header.site')).backgroundColor"
    )
    assert background not in ("rgba(0, 0, 0, 0)", "transparent"), background


def test_the_upload_box_says_empty_and_too_large(demo_server: str, chromium_executable: str,
                                                 tmp_path: Path) -> None:  # fmt: skip
    """site.js refuses an empty file and one over the limit before sending it, in the words the
    server uses (tests/website/test_upload_messages.py). The files are chosen from the disk,
    as a person does: handed over as bytes, the 40 MB would go through Playwright's pipe to
    the browser, 25 s on two cores."""
    from playwright.sync_api import sync_playwright

    base = demo_server
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_executable, args=ARGS)
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.goto(f"{base}/accounts/login/?next=/bots/1/")
        page.fill("#id_username", "ada")
        page.fill("#id_password", "demo-pass-1234")
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{base}/bots/1/")
        sent = []
        page.on("request", lambda r: sent.append(r.url) if "/upload/" in r.url else None)
        status = "[data-upload-status]"
        for name, size, message in (
            ("empty.py", 0, "The file is empty."),
            ("big.py", 40 * 1000 * 1000, "The file is too large: the limit is 32 MiB."),
        ):
            chosen = tmp_path / name
            chosen.write_bytes(b"#" * size)
            page.set_input_files("#id_file", chosen)
            page.click("form[data-upload] button[type=submit]")
            page.wait_for_function("m => document.querySelector('[data-upload-status]')"
                                   ".textContent === m", arg=message)  # fmt: skip
            assert "errorlist" in (page.get_attribute(status, "class") or "")
        assert sent == []  # refused before a byte was sent
        browser.close()


def test_closing_a_league_for_good_asks_first(demo_server: str, chromium_executable: str,
                                              axe: Any) -> None:  # fmt: skip
    """"Close for good…" opens a page that says what closing does; its button does nothing
    until the box is ticked (the browser refuses the form), then the league is closed."""
    from playwright.sync_api import sync_playwright

    base = demo_server
    audit = Audit(axe)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_executable, args=ARGS)
        context = browser.new_context(viewport=DESKTOP)
        audit.guard(context)
        page = context.new_page()
        audit.watch(page)
        page.goto(f"{base}/accounts/login/?next=/leagues/1/")
        page.fill("#id_username", "olga")
        page.fill("#id_password", "demo-pass-1234")
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{base}/leagues/1/")
        page.get_by_role("link", name="Close for good…").click()
        page.wait_for_url(f"{base}/leagues/1/close/")
        assert page.locator("h1").inner_text() == "Close Winter duel for good?"
        audit.check(page, "league-close")
        page.get_by_role("button", name="Close for good").click()
        assert page.url == f"{base}/leagues/1/close/"  # not sent: the box is required
        assert page.evaluate("() => document.querySelector('#id_confirm').validity.valueMissing")
        page.get_by_label("Yes, close Winter duel for good").check()
        page.get_by_role("button", name="Close for good").click()
        page.wait_for_url(f"{base}/leagues/1/")
        assert "Winter duel is closed." in page.locator(".messages").inner_text()
        browser.close()
    assert not audit.violations, audit.violations
    assert not audit.errors, audit.errors
