"""One list of accepted upload formats, drawn from the languages table
(workers/data/languages.json), on every page and document that lists them: the home page, the
new-bot page, the upload box, the upload's error message and the README."""

from __future__ import annotations

import html
import re

import pytest

from tests.website.browser import REPO
from tournament.bundle_formats import bundle_kinds, formats_sentence
from tournament.models import Bot
from workers.sandbox.bundles import languages

pytestmark = pytest.mark.django_db


def _formats_on(page: str) -> list[str]:
    """The text of every [data-formats] span of a page, tags dropped."""
    spans = re.findall(r"<span data-formats>(.*?)</span>", page, re.DOTALL)
    return [html.unescape(re.sub(r"<[^>]+>", "", span)) for span in spans]


def test_the_list_is_the_languages_table() -> None:
    table = languages()
    single = [s for spec in table.values() if spec.get("single_file")
              for s in spec["entrypoint_suffixes"]]  # fmt: skip
    assert bundle_kinds() == (*(s.lstrip(".") for s in single), "zip")
    sentence = formats_sentence()
    for suffix in single:
        assert suffix in sentence
    for spec in table.values():  # every language can come as a zip
        assert spec["label"] in sentence
    assert sentence == (
        "a .py, .js, .mjs or .cjs file, or a .zip of Python 3.11, Python 3.11 with numpy, "
        "JavaScript (Node.js 20), "
        "C++17 sources or a static Linux x86-64 executable"
    )


def test_home_new_bot_page_and_upload_box_show_the_same_list(client, author) -> None:
    sentence = formats_sentence()
    home = _formats_on(client.get("/").content.decode())
    client.force_login(author)
    new_bot = _formats_on(client.get("/bots/new/").content.decode())
    bot = Bot.objects.create(name="formats", owner=author)
    upload = _formats_on(client.get(f"/bots/{bot.pk}/").content.decode())
    assert home == [sentence]
    assert new_bot == [sentence]
    assert upload == [sentence[0].upper() + sentence[1:]]
    accept = re.search(r'<input type="file"[^>]* accept="([^"]+)"',
                       client.get(f"/bots/{bot.pk}/").content.decode())  # fmt: skip
    assert accept and accept[1] == ",".join(f".{k}" for k in bundle_kinds())


def test_a_wrong_file_is_told_the_list(client, author) -> None:
    bot = Bot.objects.create(name="wrong", owner=author)
    client.force_login(author)
    response = client.post(f"/bots/{bot.pk}/upload/", {"file": _file("notes.txt")},
                           HTTP_ACCEPT="application/json")  # fmt: skip
    assert response.json() == {"error": f"A bundle is {formats_sentence()}."}


def test_the_readme_says_the_same() -> None:
    readme = (REPO / "README.md").read_text().replace("`", "").replace("\n", " ")
    assert formats_sentence() in readme


def _file(name: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, b"hello")
