"""The workshop's drafts: kept per bot for its owner only, within the single-file limit, and
submitted as exactly the version an upload of the same file makes; their API answers 404 to
everyone but the owner."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.files.storage import storages

from tests.tournament.conftest import client_for
from tournament.errors import NotFound, ValidationFailed
from tournament.models import BotDraft, BotVersion
from tournament.selectors.workshop import bundle_files, workshop_bots
from tournament.services import drafts
from tournament.services.bots import bot_create, bot_version_upload, builtin_bots_register
from tournament.services.starter_kits import EXAMPLES

SOURCE = "import sys\nfor line in sys.stdin:\n    print('{}')  # é\n"


def _stored(version: BotVersion) -> bytes:
    with storages["bots"].open(version.bundle_name, "rb") as stored:
        return stored.read()


def test_save_then_read_keeps_the_text(author):
    bot = bot_create(owner=author, name="drafty")
    assert drafts.draft_for(bot=bot, user=author) is None
    drafts.draft_save(bot=bot, user=author, source=SOURCE, filename="bot.py")
    draft = drafts.draft_for(bot=bot, user=author)
    assert (draft.source, draft.filename, draft.language) == (SOURCE, "bot.py", "python3")
    drafts.draft_save(bot=bot, user=author, source=SOURCE + "# more\n")  # keeps its name
    draft = drafts.draft_for(bot=bot, user=author)
    assert draft.filename == "bot.py" and draft.source.endswith("# more\n")
    assert BotDraft.objects.filter(bot=bot).count() == 1


def test_a_draft_starts_from_the_latest_single_file_version(author):
    bot = bot_create(owner=author, name="uploaded")
    bot_version_upload(bot=bot, user=author, filename="mine.js", data=b"console.log(1)\n")
    draft = drafts.draft_for(bot=bot, user=author)
    assert draft.pk is None  # not saved until the author saves it
    assert (draft.filename, draft.language, draft.source) == ("mine.js", "node", "console.log(1)\n")
    storages["bots"].delete(bot.versions.get().bundle_name)  # gone from storage: no draft
    assert drafts.draft_for(bot=bot, user=author) is None


def test_the_starter_kit_is_the_write_a_bot_kit(author):
    bot = drafts.workshop_start(owner=author, name="kitten", kit="python")
    draft = drafts.draft_for(bot=bot, user=author)
    assert draft.filename == "random_bot.py"
    assert draft.source == (EXAMPLES / "bots" / "random_bot.py").read_text(encoding="utf-8")
    assert [kit.slug for kit in drafts.editable_kits()] == ["python", "javascript"]
    with pytest.raises(ValidationFailed, match="more than one file"):
        drafts.workshop_start(owner=author, name="cpp-bot", kit="cpp")
    with pytest.raises(NotFound):
        drafts.workshop_start(owner=author, name="nokit", kit="cobol")
    assert not author.bots.filter(name__in=["cpp-bot", "nokit"]).exists()


def test_submit_makes_the_version_an_upload_of_the_same_file_makes(
    author, runner, django_capture_on_commit_callbacks
):
    builtin_bots_register()
    drafted = bot_create(owner=author, name="from-draft")
    uploaded = bot_create(owner=author, name="from-upload")
    drafts.draft_save(bot=drafted, user=author, source=SOURCE, filename="bot.py")
    with django_capture_on_commit_callbacks(execute=True):
        a = drafts.draft_submit(bot=drafted, user=author)
        b = bot_version_upload(bot=uploaded, user=author, filename="bot.py",
                               data=SOURCE.encode())  # fmt: skip
    a.refresh_from_db()
    b.refresh_from_db()
    same = ("number", "bundle_kind", "sha256", "size", "manifest", "status")
    assert [getattr(a, f) for f in same] == [getattr(b, f) for f in same]
    assert a.status == BotVersion.Status.READY
    assert _stored(a) == _stored(b) == SOURCE.encode()
    # the draft stays to go on from; a second submit is the next version
    assert drafts.draft_for(bot=drafted, user=author).source == SOURCE
    with django_capture_on_commit_callbacks(execute=True):
        assert drafts.draft_submit(bot=drafted, user=author).number == 2


def test_submit_refuses_what_an_upload_refuses(author):
    bot = bot_create(owner=author, name="empty")
    with pytest.raises(NotFound, match="no draft"):
        drafts.draft_submit(bot=bot, user=author)
    drafts.draft_save(bot=bot, user=author, source="", filename="bot.py")
    with pytest.raises(Exception, match="The file is empty"):
        drafts.draft_submit(bot=bot, user=author)
    assert not bot.versions.exists()


def test_size_limit_and_file_names(author, settings):
    settings.BOT_UPLOAD_MAX_BYTES = 100
    bot = bot_create(owner=author, name="sized")
    drafts.draft_save(bot=bot, user=author, source="x" * 100, filename="bot.py")
    with pytest.raises(ValidationFailed, match="too large: the limit is 100 bytes"):
        drafts.draft_save(bot=bot, user=author, source="é" * 51)  # 102 bytes in UTF-8
    for name in ("bot.cpp", "../bot.py", ".bot.py", "bot", "a/b.py"):
        with pytest.raises(ValidationFailed, match="not one the workshop can edit"):
            drafts.draft_save(bot=bot, user=author, source="1", filename=name)
    assert drafts.draft_for(bot=bot, user=author).source == "x" * 100


def test_nobody_but_the_owner_reads_or_writes_a_draft(author, other_author):
    bot = bot_create(owner=author, name="secret")
    drafts.draft_save(bot=bot, user=author, source="# mine\n", filename="bot.py")
    for stranger in (AnonymousUser(), other_author):
        with pytest.raises(NotFound):
            drafts.draft_for(bot=bot, user=stranger)
        with pytest.raises(NotFound):
            drafts.draft_save(bot=bot, user=stranger, source="# theirs\n")
        with pytest.raises(NotFound):
            drafts.draft_submit(bot=bot, user=stranger)
        with pytest.raises(NotFound):
            drafts.draft_from_kit(bot=bot, user=stranger, kit="python")
    assert drafts.draft_for(bot=bot, user=author).source == "# mine\n"
    assert not bot.versions.exists()


def test_workshop_lists_the_authors_bots_drafts_first(author, other_author):
    plain = bot_create(owner=author, name="a-plain")
    drafted = bot_create(owner=author, name="z-drafted")
    bot_create(owner=other_author, name="not-mine")
    drafts.draft_save(bot=drafted, user=author, source="1\n", filename="bot.py")
    rows = workshop_bots(user=author)
    assert [row.bot for row in rows] == [drafted, plain]
    assert rows[0].draft is not None and rows[1].draft is None


def test_a_zip_bots_files_are_listed(author):
    bot = bot_create(owner=author, name="zipped")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("bot.json", '{"language": "python3", "entrypoint": "main.py"}')
        archive.writestr("main.py", "import helper\n")
        archive.writestr("lib/helper.py", "X = 1\n")
    version = bot_version_upload(bot=bot, user=author, filename="b.zip", data=out.getvalue())
    files = bundle_files(version=version)
    assert [(f.name, f.text) for f in files] == [
        ("bot.json", '{"language": "python3", "entrypoint": "main.py"}'),
        ("lib/helper.py", "X = 1\n"),
        ("main.py", "import helper\n"),
    ]
    assert drafts.draft_for(bot=bot, user=author) is None  # a zip bot has no draft to edit


# --- the API ---------------------------------------------------------------------------------


def test_api_get_put_submit(author, runner, django_capture_on_commit_callbacks):
    builtin_bots_register()
    bot = bot_create(owner=author, name="api-bot")
    client = client_for(author)
    url = f"/api/v1/bots/{bot.pk}/draft/"
    answer = client.get(url)
    assert answer.status_code == 404 and "no draft" in answer.json()["error"]["message"]
    answer = client.put(url, {"source": SOURCE, "filename": "bot.py"}, format="json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert (body["source"], body["language"], body["saved"]) == (SOURCE, "python3", True)
    assert client.get(url).json()["source"] == SOURCE
    answer = client.put(url, {"source": "1", "filename": "bot.rb"}, format="json")
    assert answer.status_code == 400 and "filename" in answer.json()["error"]["fields"]
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"{url}submit/")
    assert answer.status_code == 201, answer.content
    version = BotVersion.objects.get(pk=answer.json()["id"])
    assert version.bot == bot and _stored(version) == SOURCE.encode()


def test_api_answers_404_to_all_but_the_owner(author, other_author):
    bot = bot_create(owner=author, name="hidden")
    drafts.draft_save(bot=bot, user=author, source="# mine\n", filename="bot.py")
    url = f"/api/v1/bots/{bot.pk}/draft/"
    for client in (client_for(None), client_for(other_author)):
        assert client.get(url).status_code == 404
        put = client.put(url, {"source": "# theirs\n"}, format="json")
        assert put.status_code == 404
        assert client.post(f"{url}submit/").status_code == 404
        assert "mine" not in put.content.decode()
    assert client_for(author).get("/api/v1/bots/999999/draft/").status_code == 404
    assert drafts.draft_for(bot=bot, user=author).source == "# mine\n"
    assert not bot.versions.exists()
