"""The workshop's pages through Django's test client, for the three identities: the owner
edits, saves and submits without script; another author and a visitor find nothing there."""

from __future__ import annotations

import io
import zipfile

import pytest

from tournament.models import BotDraft, BotVersion
from tournament.services import drafts
from tournament.services.bots import bot_create, bot_version_upload

pytestmark = pytest.mark.django_db


def test_a_new_author_starts_saves_and_submits_without_script(client, author) -> None:
    client.force_login(author)
    page = client.get("/workshop/").content.decode()
    assert "No bots yet" in page and 'value="python"' in page and 'value="cpp"' not in page
    answer = client.post("/workshop/", {"name": "tinker", "kit": "python"})
    bot = author.bots.get(name="tinker")
    assert answer.status_code == 302 and answer["Location"] == f"/workshop/{bot.pk}/"
    page = client.get(answer["Location"]).content.decode()
    assert "random_bot.py" in page and "data-workshop-source" in page
    assert 'data-mode="python"' in page and "Escape and then Tab" in page
    assert "data-workshop-actions" in page and "Submit this draft" in page
    edited = "import sys\nprint('hello')\n"
    answer = client.post(f"/workshop/{bot.pk}/", {"source": edited})
    assert answer.status_code == 302
    assert BotDraft.objects.get(bot=bot).source == edited
    assert edited.replace("'", "&#x27;") in client.get(f"/workshop/{bot.pk}/").content.decode()
    answer = client.post(f"/workshop/{bot.pk}/submit/", {"source": edited + "# v1\n"})
    version = bot.versions.get()
    assert answer["Location"] == f"/versions/{version.pk}/"
    assert version.bundle_kind == "py" and version.size == len(edited + "# v1\n")
    assert "Open in the workshop" in client.get(f"/bots/{bot.pk}/").content.decode()


def test_errors_are_said_and_keep_the_text(client, author, settings) -> None:
    settings.BOT_UPLOAD_MAX_BYTES = 50
    bot = bot_create(owner=author, name="bounded")
    drafts.draft_save(bot=bot, user=author, source="print(1)\n", filename="bot.py")
    client.force_login(author)
    answer = client.post(f"/workshop/{bot.pk}/", {"source": "#" * 60})
    assert answer.status_code == 400
    page = answer.content.decode()
    assert "too large: the limit is 50 bytes" in page and "#" * 60 in page
    assert BotDraft.objects.get(bot=bot).source == "print(1)\n"
    answer = client.post("/workshop/", {"name": "bounded", "kit": "python"})
    assert "already exists" in answer.content.decode()


def test_others_find_no_workshop(client, author, other_author) -> None:
    bot = bot_create(owner=author, name="private-work")
    drafts.draft_save(bot=bot, user=author, source="# secret\n", filename="bot.py")
    urls = [f"/workshop/{bot.pk}/", f"/workshop/{bot.pk}/kit/", f"/workshop/{bot.pk}/submit/"]
    for url in urls:  # a visitor is sent to log in
        assert client.post(url, {"source": "x", "kit": "python"}).status_code == 302
    client.force_login(other_author)
    assert client.get(urls[0]).status_code == 404
    for url in urls:
        assert client.post(url, {"source": "# theirs\n", "kit": "python"}).status_code == 404
    assert "private-work" not in client.get("/workshop/").content.decode()
    assert "Open in the workshop" not in client.get(f"/bots/{bot.pk}/").content.decode()
    assert BotDraft.objects.get(bot=bot).source == "# secret\n"
    assert not BotVersion.objects.filter(bot=bot).exists()


def test_a_zip_bot_shows_its_files_read_only(client, author) -> None:
    bot = bot_create(owner=author, name="zipped")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("bot.json", '{"language": "python3", "entrypoint": "main.py"}')
        archive.writestr("main.py", "print('<zip>')\n")
    bot_version_upload(bot=bot, user=author, filename="b.zip", data=out.getvalue())
    client.force_login(author)
    page = client.get(f"/workshop/{bot.pk}/").content.decode()
    assert "read-only" in page and "main.py" in page and "print(&#x27;&lt;zip&gt;&#x27;)" in page
    assert "data-workshop-source" not in page and f"/bots/{bot.pk}/#upload-title" in page
    answer = client.post(f"/workshop/{bot.pk}/kit/", {"kit": "javascript"})
    assert answer.status_code == 302
    assert BotDraft.objects.get(bot=bot).filename == "random_bot.js"
