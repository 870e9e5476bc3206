"""Test games of the workshop draft (`test_game_of_draft`): the draft plays as its draft
snapshot, a version stored like an upload of its one file that no list, count, number or
choice of versions shows (models.BotVersion), reused for the same text; only its owner and
staff find its page; and the API's `draft`, exactly one of it and `bot_version`."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from django.core.files.storage import storages
from django.test import Client, TestCase

from tournament.errors import NotFound, RateLimited
from tournament.models import BotDraft, BotVersion, Match
from tournament.services import drafts, test_games
from tournament.services import leagues as ls
from tournament.services import matches as ms
from tournament.services.bots import bot_create, builtin_bots_register

from .conftest import client_for

pytestmark = pytest.mark.django_db
_of_draft = test_games.test_game_of_draft  # not imported by name: pytest would collect test_*

SOURCE = "import sys\nfor line in sys.stdin:\n    pass  # the sketch\n"


@pytest.fixture
def sketch(author):
    """The author's bot whose only text is its workshop draft."""
    bot = bot_create(owner=author, name="sketch")
    drafts.draft_save(bot=bot, user=author, source=SOURCE, filename="bot.py")
    return bot


def _done(match: Match) -> None:
    """The game ended: the author may ask for the next one (one at a time)."""
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)


def _snapshots(bot: Any) -> list[BotVersion]:
    return list(BotVersion.with_drafts.filter(bot=bot, status=BotVersion.Status.DRAFT))


def test_the_draft_plays_as_a_snapshot_stored_like_an_upload(settings, author, sketch, sent):
    settings.MATCH_QUEUE_PER_MODE = False
    with TestCase.captureOnCommitCallbacks(execute=True):
        match = _of_draft(user=author, bot=sketch, opponents=["random"], mode="duel", seed=7)
    assert sent == [((match.pk,), "matches.workshop")]
    assert match.kind == Match.Kind.TEST and match.requested_by == author and match.seed == 7
    assert (match.decision_time_limit, match.time_bank) == (
        settings.BOT_DECISION_TIME_LIMIT, settings.BOT_TIME_BANK
    )  # fmt: skip
    tested = match.seats.get(seat=0).bot_version
    data = SOURCE.encode()
    assert (tested.bot, tested.status, tested.number) == (sketch, "draft", 0)
    assert (tested.bundle_kind, tested.size) == ("py", len(data))
    assert tested.sha256 == hashlib.sha256(data).hexdigest()
    assert tested.manifest["language"] == "python3"
    with storages["bots"].open(tested.bundle_name, "rb") as stored:
        assert stored.read() == data
    assert str(tested) == tested.label == "sketch (draft)"
    # the runner is handed the stored file, as for any version
    spec = ms.match_spec(match)["seats"][0]
    assert spec["bundle_kind"] == "py" and spec["sha256"] == tested.sha256
    assert spec["version"] == "0" and spec["bundle_path"]

    # the same text plays the same snapshot; an edit makes another
    _done(match)
    again = _of_draft(user=author, bot=sketch, opponents=["greedy"], mode="duel")
    assert again.seats.get(seat=0).bot_version == tested
    _done(again)
    drafts.draft_save(bot=sketch, user=author, source=SOURCE + "# faster\n")
    edited = _of_draft(user=author, bot=sketch, opponents=["random"], mode="standard", seats=3)
    assert edited.seats.get(seat=0).bot_version != tested and edited.seats.count() == 3
    assert len(_snapshots(sketch)) == 2


def test_an_unsaved_draft_plays_the_latest_versions_source(author, ready_version, sent):
    mine = ready_version(author, "unsaved")  # no BotDraft: the draft is v1's text
    match = _of_draft(user=author, bot=mine.bot, opponents=["random"], mode="duel")
    tested = match.seats.get(seat=0).bot_version
    assert tested.is_draft and tested.sha256 == mine.sha256 and tested != mine


def test_snapshots_take_no_number_and_no_place_in_any_list(author, sketch, sent):
    first = _of_draft(user=author, bot=sketch, opponents=["random"], mode="duel")
    _done(first)
    v1 = drafts.draft_submit(bot=sketch, user=author)
    drafts.draft_save(bot=sketch, user=author, source=SOURCE + "# two\n")
    _done(_of_draft(user=author, bot=sketch, opponents=["random"], mode="duel"))
    v2 = drafts.draft_submit(bot=sketch, user=author)
    assert (v1.number, v2.number) == (1, 2)  # the snapshots took none of the numbers
    assert [v.number for v in _snapshots(sketch)] == [0, 0]
    assert list(sketch.versions.values_list("number", flat=True)) == [1, 2]
    assert BotVersion.objects.filter(status=BotVersion.Status.DRAFT).count() == 0
    assert drafts.latest_version(sketch) == v2


def test_over_the_caps_no_snapshot_is_made(author, sketch, sent, settings):
    settings.TEST_GAMES_RUNNING_PER_AUTHOR = 1
    _of_draft(user=author, bot=sketch, opponents=["random"], mode="duel")
    drafts.draft_save(bot=sketch, user=author, source=SOURCE + "# next idea\n")
    with pytest.raises(RateLimited, match="already have 1 test game queued or running"):
        _of_draft(user=author, bot=sketch, opponents=["random"], mode="duel")
    assert len(_snapshots(sketch)) == 1  # the new text was not stored
    assert BotDraft.objects.get(bot=sketch).source == SOURCE + "# next idea\n"


def test_only_the_owner_plays_a_draft(author, other_author, sketch, sent):
    with pytest.raises(NotFound):
        _of_draft(user=other_author, bot=sketch, opponents=["random"], mode="duel")
    empty = bot_create(owner=author, name="empty")
    with pytest.raises(NotFound, match="no draft"):
        _of_draft(user=author, bot=empty, opponents=["random"], mode="duel")
    assert not Match.objects.exists() and not _snapshots(sketch)


# --- never shown, never accepted ------------------------------------------------------------


@pytest.fixture
def snapshot(author, sketch, sent) -> BotVersion:
    """A ready v1 of the sketch, then a test game of its draft (another text)."""
    builtin_bots_register()
    v1 = drafts.draft_submit(bot=sketch, user=author)
    BotVersion.objects.filter(pk=v1.pk).update(status=BotVersion.Status.READY)
    drafts.draft_save(bot=sketch, user=author, source=SOURCE + "# unsubmitted\n")
    match = _of_draft(user=author, bot=sketch, opponents=["random"], mode="duel")
    return match.seats.get(seat=0).bot_version


def _client(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("who", ["anonymous", "another author", "the owner", "staff"])
def test_a_snapshot_shows_only_to_its_owner_and_staff(who, author, other_author, make_user,
                                                      snapshot):  # fmt: skip
    user = {"anonymous": None, "another author": other_author, "the owner": author,
            "staff": make_user("sam", is_staff=True)}[who]  # fmt: skip
    sees = who in ("the owner", "staff")
    bot_id = snapshot.bot_id
    page = _client(user).get(f"/bots/{bot_id}/").content.decode()
    assert "(draft)" not in page and f"/versions/{snapshot.pk}/" not in page
    for url in (f"/versions/{snapshot.pk}/", f"/versions/{snapshot.pk}/status/"):
        answer = _client(user).get(url)
        assert answer.status_code == (200 if sees else 404), url
    if sees:
        page = _client(user).get(f"/versions/{snapshot.pk}/").content.decode()
        assert "sketch (draft)" in page and "only in your test games" in page
    api = client_for(user)
    detail = api.get(f"/api/v1/bots/{bot_id}/").json()
    assert [v["number"] for v in detail["versions"]] == [1]
    listed = api.get(f"/api/v1/bots/{bot_id}/versions/").json()["results"]
    assert [v["number"] for v in listed] == [1]
    answer = api.get(f"/api/v1/bot-versions/{snapshot.pk}/")
    assert answer.status_code == (200 if sees else 404)
    if sees:
        assert answer.json()["status"] == "draft" and answer.json()["number"] == 0


def test_nothing_that_chooses_a_version_accepts_a_snapshot(author, organiser, snapshot):
    api = client_for(author)
    answer = api.post("/api/v1/challenges/", {"bot_versions": [snapshot.pk, snapshot.pk],
                                              "mode": "duel"}, format="json")  # fmt: skip
    assert answer.status_code == 404, answer.content
    v1 = snapshot.bot.versions.get()
    answer = api.post("/api/v1/paired/", {
        "bot_version_a": v1.pk, "bot_version_b": snapshot.pk, "mode": "duel", "seats": 2,
        "seeds": 2,
    }, format="json")  # fmt: skip
    assert answer.status_code == 404, answer.content
    assert "bot_version_b" in answer.json()["error"]["fields"]
    for body in (
        {"bot_version": snapshot.pk, "opponents": ["random"], "mode": "duel"},
        {"draft": snapshot.bot_id, "opponents": [str(snapshot.pk)], "mode": "duel"},
    ):
        Match.objects.filter(kind=Match.Kind.TEST).update(status=Match.Status.FINISHED)
        answer = api.post("/api/v1/test-games/", body, format="json")
        assert answer.status_code == 404, answer.content
    league = ls.league_create(organiser=organiser, name="duels", mode="duel", seats=2,
                              format="round_robin")  # fmt: skip
    answer = api.post(f"/api/v1/leagues/{league.pk}/entries/", {"bot_version": snapshot.pk},
                      format="json")  # fmt: skip
    assert answer.status_code == 404, answer.content
    entry = ls.league_entry_add(league=league, user=author, bot_id=snapshot.bot_id)
    assert entry.bot_version.number == 1  # the bot's newest ready version, not the snapshot


# --- the API ---------------------------------------------------------------------------------


def test_the_api_takes_exactly_one_of_a_version_and_a_draft(author, other_author, sketch,
                                                            ready_version, sent):  # fmt: skip
    api = client_for(author)
    game = {"opponents": ["random"], "mode": "duel"}
    mine = ready_version(author, "versioned")
    for body in (game, {**game, "draft": sketch.pk, "bot_version": mine.pk}):
        answer = api.post("/api/v1/test-games/", body, format="json")
        assert answer.status_code == 400, answer.content
        error = answer.json()["error"]
        assert "Give exactly one of bot_version (the version to test) and draft" in error["message"]
        assert set(error["fields"]) == {"bot_version", "draft"}
    answer = api.post("/api/v1/test-games/", {**game, "draft": sketch.pk}, format="json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["kind"] == "test" and body["lane"] == "workshop"
    assert [(s["bot"], s["version"]) for s in body["seats"]] == [("sketch", 0), ("random", 1)]
    theirs = client_for(other_author)
    for bot_id in (sketch.pk, 999999):  # another author's bot, or none: nothing to test
        answer = theirs.post("/api/v1/test-games/", {**game, "draft": bot_id}, format="json")
        assert answer.status_code == 404, answer.content
