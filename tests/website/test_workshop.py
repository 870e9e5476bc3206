"""The workshop's pages through Django's test client, for the three identities: the owner
edits, saves and submits without script; another author and a visitor find nothing there."""

from __future__ import annotations

import io
import zipfile

import pytest

from tournament.models import BotDraft, BotVersion, Match
from tournament.services import drafts
from tournament.services.bots import bot_create, bot_version_upload, builtin_bots_register

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
    urls = [f"/workshop/{bot.pk}/", f"/workshop/{bot.pk}/kit/", f"/workshop/{bot.pk}/submit/",
            f"/workshop/{bot.pk}/play/"]
    for url in urls:  # a visitor is sent to log in
        assert client.post(url, {"source": "x", "kit": "python"}).status_code == 302
    client.force_login(other_author)
    assert client.get(urls[0]).status_code == 404
    for url in urls:
        assert client.post(url, {"source": "# theirs\n", "kit": "python", "opponent": "random",
                                 "game": "duel"}).status_code == 404  # fmt: skip
    assert "private-work" not in client.get("/workshop/").content.decode()
    assert "Open in the workshop" not in client.get(f"/bots/{bot.pk}/").content.decode()
    assert BotDraft.objects.get(bot=bot).source == "# secret\n"
    assert not BotVersion.with_drafts.filter(bot=bot).exists()
    assert not Match.objects.exists()


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


@pytest.fixture
def queued(monkeypatch):
    """Matches are queued, never played (the play task is not sent)."""
    from tournament.services import matches

    monkeypatch.setattr(matches, "match_enqueue", lambda *args, **kwargs: None)


def test_play_saves_the_text_plays_the_draft_and_comes_back(client, author, queued) -> None:
    builtin_bots_register()
    bot = bot_create(owner=author, name="player")
    drafts.draft_save(bot=bot, user=author, source="print(1)\n", filename="bot.py")
    client.force_login(author)
    page = client.get(f"/workshop/{bot.pk}/").content.decode()
    assert 'name="opponent"' in page and "random (Wood&#x27;s boss)" in page
    assert "greedy (Bronze&#x27;s boss)" in page and 'value="standard-3"' in page
    assert f'formaction="/workshop/{bot.pk}/play/"' in page
    edited = "import sys\nfor line in sys.stdin:\n    pass\n"
    answer = client.post(f"/workshop/{bot.pk}/play/",
                         {"source": edited, "opponent": "random", "game": "duel"})  # fmt: skip
    match = Match.objects.get(kind=Match.Kind.TEST)
    assert answer.status_code == 302 and answer["Location"] == f"/matches/{match.pk}/"
    assert BotDraft.objects.get(bot=bot).source == edited  # kept first
    seats = list(match.seats.order_by("seat").select_related("bot_version"))
    assert seats[0].bot_version.is_draft and seats[1].bot_version.builtin == "random"
    assert match.mode == "duel" and match.status == Match.Status.QUEUED

    page = client.get(answer["Location"]).content.decode()
    assert "player (draft)" in page and "Back to the workshop" in page
    assert f'href="/workshop/{bot.pk}/"' in page and "Play again" in page
    assert 'name="opponent" value="random"' in page and 'name="game" value="duel"' in page

    # Play again while the first still waits: over the cap, back in the workshop, told why
    answer = client.post(f"/workshop/{bot.pk}/play/", {"opponent": "random", "game": "duel"})
    assert answer.status_code == 302 and answer["Location"] == f"/workshop/{bot.pk}/"
    page = client.get(answer["Location"]).content.decode()
    assert "You already have 1 test game queued or running" in page
    # the same from the editor: the posted text is kept all the same
    answer = client.post(f"/workshop/{bot.pk}/play/", {"source": edited + "# 2\n",
                                                       "opponent": "greedy", "game": "solo"})
    assert answer["Location"] == f"/workshop/{bot.pk}/"
    assert BotDraft.objects.get(bot=bot).source == edited + "# 2\n"
    assert Match.objects.filter(kind=Match.Kind.TEST).count() == 1

    # another game and one of the author's own versions as the opponent
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    own = drafts.draft_submit(bot=bot, user=author)
    BotVersion.objects.filter(pk=own.pk).update(status=BotVersion.Status.READY)
    assert f'value="{own.pk}"' in client.get(f"/workshop/{bot.pk}/").content.decode()
    answer = client.post(f"/workshop/{bot.pk}/play/", {"opponent": str(own.pk),
                                                       "game": "standard-3"})  # fmt: skip
    second = Match.objects.exclude(pk=match.pk).get(kind=Match.Kind.TEST)
    assert answer["Location"] == f"/matches/{second.pk}/"
    assert [s.bot_version_id for s in second.seats.order_by("seat")][1:] == [own.pk, own.pk]
    page = client.get(answer["Location"]).content.decode()
    assert f'name="opponent" value="{own.pk}"' in page and 'value="standard-3"' in page


def test_a_bad_choice_is_said_in_the_workshop(client, author, queued) -> None:
    bot = bot_create(owner=author, name="chooser")
    drafts.draft_save(bot=bot, user=author, source="print(1)\n", filename="bot.py")
    client.force_login(author)
    answer = client.post(f"/workshop/{bot.pk}/play/", {"opponent": "grumpy", "game": "duel"})
    assert answer["Location"] == f"/workshop/{bot.pk}/"
    assert "grumpy is not one of the available choices" in client.get(
        answer["Location"]).content.decode()
    assert not Match.objects.exists()
