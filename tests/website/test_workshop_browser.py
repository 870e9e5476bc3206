"""The workshop in Debian's Chromium: a new author starts a bot from the Python starter, finds
CodeMirror's line numbers and highlighting, reaches the editor and leaves it with the keyboard
(Escape, then Tab), edits, reloads to find the edit kept on the server, and submits the draft
to land on the new version's page. axe-core finds nothing serious at 1280 and 390 px, and no
request leaves 127.0.0.1 (the editor is served from the site's own static files)."""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import storages

from tests.accounts import PASSWORD
from tournament.models import Bot, BotVersion

from .browser import Audit, audited_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EDIT = "# edited in the browser"


def _zip_bot(owner: Any) -> Bot:
    """A bot whose v1 is a zip (stored as an upload stores it; not validated)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("bot.json", '{"language": "python3", "entrypoint": "main.py"}')
        archive.writestr("main.py", "from helper import play\nplay()\n" + "# long\n" * 80)
        archive.writestr("helper.py", "def play():\n    pass\n")
    data = out.getvalue()
    bot = Bot.objects.create(name="novazip", owner=owner)
    stored = storages["bots"].save(f"{bot.pk}/1.zip", ContentFile(data))
    BotVersion.objects.create(bot=bot, number=1, bundle_name=stored, bundle_kind="zip",
                              sha256=hashlib.sha256(data).hexdigest(), size=len(data),
                              status=BotVersion.Status.READY)  # fmt: skip
    return bot


def _editor_text(page: Any) -> str:
    """The whole text in the editor (its DOM holds only the lines in view)."""
    return page.evaluate(
        "() => ArenaEditor.EditorView.findFromDOM(document.querySelector('.cm-editor'))"
        ".state.doc.toString()"
    )


def _active(page: Any) -> str:
    return page.evaluate("""() => {
        const el = document.activeElement;
        return el.classList.contains('cm-content') ? 'editor' : el.textContent.trim();
    }""")


@pytest.mark.django_db(transaction=True)
def test_a_new_author_writes_a_bot_in_the_workshop(
    live_server, chromium_executable, axe, make_user
) -> None:
    zipped = _zip_bot(make_user("nova"))  # the ORM before Playwright's loop starts here
    base = live_server.url
    audit = Audit(axe)
    static: list[str] = []
    with audited_page(chromium_executable, audit) as page:
        page.on("response", lambda r: static.append(r.url) if "/static/" in r.url else None)
        page.goto(f"{base}/accounts/login/?next=/workshop/")
        page.fill("#id_username", "nova")
        page.fill("#id_password", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{base}/workshop/")
        audit.check(page, "workshop-zip-only")

        # a zip bot: its files, read-only, and the way to a new zip
        page.click(f"text={zipped.name}")
        page.wait_for_url(f"{base}/workshop/{zipped.pk}/")
        assert page.locator(".cm-editor").count() == 0
        page.click("summary:has-text('main.py')")
        assert "from helper import play" in page.locator("pre[aria-label='main.py']").inner_text()
        assert page.get_by_role("link", name="upload a new zip").count() == 1
        audit.check(page, "workshop-zip")
        page.goto(f"{base}/workshop/")

        page.fill("#id_name", "novabot")
        page.check("input[name=kit][value=python]")
        page.click("text=Start the bot")
        page.wait_for_url(re.compile(r".*/workshop/\d+/$"))
        editor_url = page.url
        page.wait_for_selector(".cm-editor .cm-content .cm-line")
        assert any("codemirror.bundle" in url for url in static)
        numbers = page.locator(".cm-lineNumbers .cm-gutterElement").all_inner_texts()
        assert "1" in numbers and "10" in numbers
        assert "import json" in _editor_text(page)
        # highlighting: the tokens of the Python source are drawn in more than one colour
        colours = page.evaluate("""() => new Set([...document.querySelectorAll(
            '.cm-content .cm-line span')].map(s => getComputedStyle(s).color)).size""")
        assert colours >= 3, colours
        audit.check(page, "workshop-editor")

        # keyboard: Tab reaches the editor; in it Tab indents; Escape then Tab leaves it
        page.focus("text=all your bots")
        for _ in range(4):
            page.keyboard.press("Tab")
            if _active(page) == "editor":
                break
        assert _active(page) == "editor"
        page.keyboard.press("Control+End")
        page.keyboard.press("Enter")
        page.keyboard.press("Tab")  # indents, focus stays
        assert _active(page) == "editor"
        page.keyboard.press("Shift+Tab")  # and back out of the indentation
        page.keyboard.type(EDIT)
        status = page.locator("[data-workshop-status]")
        page.wait_for_function(
            "() => document.querySelector('[data-workshop-status]').textContent"
            ".startsWith('Saved at')"
        )  # the autosave, after a pause in typing
        assert "Saved at" in status.inner_text()
        if page.locator(".cm-tooltip-autocomplete").count():  # a suggestion list is open:
            page.keyboard.press("Escape")  # the first Escape closes it
            assert page.locator(".cm-tooltip-autocomplete").count() == 0
        page.keyboard.press("Escape")
        page.keyboard.press("Tab")
        assert _active(page) == "Save draft"

        page.reload()
        page.wait_for_selector(".cm-editor .cm-content .cm-line")
        assert page.url == editor_url
        assert _editor_text(page).rstrip().endswith(EDIT)

        page.click("text=Submit this draft")
        page.wait_for_url(re.compile(r".*/versions/\d+/$"), timeout=120_000)
        version_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
        assert "novabot" in page.locator("h1").inner_text()

    assert audit.violations == {}, audit.violations
    assert audit.blocked == [], "requests to other hosts"
    assert audit.errors == [], "script errors"
    version = BotVersion.objects.get(pk=version_id)
    with storages["bots"].open(version.bundle_name, "rb") as stored:
        submitted = stored.read().decode()
    assert version.bot.name == "novabot" and submitted.rstrip().endswith(EDIT)
