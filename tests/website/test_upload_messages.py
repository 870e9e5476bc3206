"""What an upload that cannot be a bot is told, on the site (with and without the page's
script) and in the API: an empty file is "The file is empty.", a file over the limit names the
limit from the settings ("the limit is 32 MiB"), never "Choose a file" or a bare HTTP status."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from tests.tournament.conftest import client_for
from tests.website.browser import REPO
from tournament.models import Bot

pytestmark = pytest.mark.django_db

EMPTY = "The file is empty."
TOO_LARGE = "The file is too large: the limit is 32 MiB."


@pytest.fixture
def bot(author) -> Bot:
    return Bot.objects.create(name="uploader", owner=author)


def _site_upload(client, bot: Bot, name: str, data: bytes, script: bool):
    headers = {"HTTP_ACCEPT": "application/json"} if script else {}
    return client.post(f"/bots/{bot.pk}/upload/", {"file": SimpleUploadedFile(name, data)},
                       **headers)  # fmt: skip


def test_an_empty_file_is_said_to_be_empty(client, author, bot) -> None:
    client.force_login(author)
    scripted = _site_upload(client, bot, "bot.py", b"", script=True)
    assert scripted.status_code == 400 and scripted.json() == {"error": EMPTY}
    plain = _site_upload(client, bot, "bot.py", b"", script=False)
    assert plain.status_code == 302
    assert EMPTY in client.get(plain["Location"]).content.decode()
    api = client_for(author).post(f"/api/v1/bots/{bot.pk}/versions/",
                                  {"file": SimpleUploadedFile("bot.py", b"")},
                                  format="multipart")  # fmt: skip
    assert api.status_code == 400
    assert api.json()["error"]["code"] == "bundle_rejected"
    assert api.json()["error"]["message"] == EMPTY
    assert not bot.versions.exists()


def test_a_file_over_the_limit_names_the_limit(client, author, bot, settings) -> None:
    assert settings.BOT_UPLOAD_MAX_BYTES == 32 * 1024 * 1024
    client.force_login(author)
    just_over = b"#" * (settings.BOT_UPLOAD_MAX_BYTES + 1)  # read, then refused by the service
    scripted = _site_upload(client, bot, "bot.py", just_over, script=True)
    assert scripted.status_code == 413 and scripted.json() == {"error": TOO_LARGE}
    forty_mb = b"#" * (40 * 1000 * 1000)  # refused from its Content-Length, before it is read
    scripted = _site_upload(client, bot, "bot.py", forty_mb, script=True)
    assert scripted.status_code == 413 and scripted.json() == {"error": TOO_LARGE}
    plain = _site_upload(client, bot, "bot.py", forty_mb, script=False)
    assert plain.status_code == 413 and plain.content.decode() == TOO_LARGE
    api = client_for(author).post(f"/api/v1/bots/{bot.pk}/versions/",
                                  {"file": SimpleUploadedFile("bot.py", forty_mb)},
                                  format="multipart")  # fmt: skip
    assert api.status_code == 413 and api.json()["error"]["message"] == TOO_LARGE
    assert api.json()["error"]["code"] == "too_large"
    with override_settings(BOT_UPLOAD_MAX_BYTES=1536 * 1024):
        small = _site_upload(client, bot, "bot.py", b"#" * (1536 * 1024 + 1), script=True)
        assert small.json() == {"error": "The file is too large: the limit is 1.5 MiB."}
    assert not bot.versions.exists()


def test_the_upload_box_tells_its_script_the_limit(client, author, bot) -> None:
    """site.js refuses an empty or too large file before sending it, in the same words."""
    client.force_login(author)
    page = client.get(f"/bots/{bot.pk}/").content.decode()
    assert 'data-max-bytes="33554432"' in page and 'data-limit="32 MiB"' in page
    assert "up to 32 MiB" in page
    script = (REPO / "website" / "static" / "website" / "site.js").read_text()
    assert '"The file is empty."' in script
    assert '"The file is too large: the limit is " + form.dataset.limit + "."' in script
