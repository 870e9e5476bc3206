"""Test games (tournament/services/test_games.py): an author's own version played now in the
workshop lane, unrated and private, capped per author; `/api/v1/test-games/`; the match page's
private panel; and one real short game played through the API by the real runner."""

from __future__ import annotations

import hashlib
import sys
from datetime import timedelta
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import storages
from django.test import Client, TestCase
from django.utils import timezone

from replayfile.format import decode, document_from_game, encode
from replayfile.recording import header_for_bots, play_recorded
from tournament.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from tournament.models import Bot, BotVersion, LeagueEntry, Match, RatingChange
from tournament.services import leagues as ls
from tournament.services import matches as ms
from tournament.services import test_games
from tournament.services.bots import builtin_bots_register

from .conftest import client_for

pytestmark = pytest.mark.django_db
_create = test_games.test_game_create  # not imported by name: pytest would collect test_*

STDERR = "SECRET-TEST-STDERR-5e2a: thinking about cats"


@pytest.fixture
def caps(settings):
    settings.TEST_GAMES_RUNNING_PER_AUTHOR = 1
    settings.TEST_GAMES_PER_DAY = 3
    return settings


def test_a_test_game_goes_to_the_workshop_lane_with_league_limits(
    settings, author, ready_version, sent
):
    settings.MATCH_QUEUE_PER_MODE = False
    mine = ready_version(author, "tinker")
    with TestCase.captureOnCommitCallbacks(execute=True):
        match = _create(user=author, bot_version_id=mine.pk, opponents=["greedy"],
                                 mode="duel", seed=1234)  # fmt: skip
    assert sent == [((match.pk,), "matches.workshop")]
    assert match.kind == Match.Kind.TEST and match.league_id is None and match.seed == 1234
    assert match.requested_by == author
    assert (match.decision_time_limit, match.time_bank) == (
        settings.BOT_DECISION_TIME_LIMIT, settings.BOT_TIME_BANK
    )  # fmt: skip
    seats = list(match.seats.order_by("seat").values_list("bot_version__builtin", flat=True))
    assert seats == ["", "greedy"]
    settings.MATCH_QUEUE_PER_MODE = True
    with TestCase.captureOnCommitCallbacks(execute=True):
        Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
        second = _create(user=author, bot_version_id=mine.pk, opponents=["random"],
                                  mode="standard", seats=4)  # fmt: skip
    assert sent[-1] == ((second.pk,), "matches.standard.workshop")
    assert second.seats.count() == 4  # one opponent took every other seat


def test_refusals_name_what_is_wrong(author, other_author, ready_version, sent):
    mine, theirs = ready_version(author, "mine"), ready_version(other_author, "theirs")
    with pytest.raises(PermissionDenied, match="not yours"):
        _create(user=author, bot_version_id=theirs.pk, opponents=["greedy"],
                         mode="duel")  # fmt: skip
    with pytest.raises(PermissionDenied, match="not yours"):
        _create(user=author, bot_version_id=mine.pk, opponents=[str(theirs.pk)],
                         mode="duel")  # fmt: skip
    with pytest.raises(NotFound):
        _create(user=author, bot_version_id=999999, opponents=["greedy"], mode="duel")
    with pytest.raises(ValidationFailed, match="neither a built-in bot"):
        _create(user=author, bot_version_id=mine.pk, opponents=["grumpy"], mode="duel")
    with pytest.raises(ValidationFailed, match="4 seats need 3 opponents"):
        _create(user=author, bot_version_id=mine.pk, opponents=["greedy", "random"],
                         mode="standard", seats=4)  # fmt: skip
    failed = BotVersion.objects.create(bot=mine.bot, number=2, status=BotVersion.Status.FAILED)
    with pytest.raises(Conflict, match="failed validation"):
        _create(user=author, bot_version_id=failed.pk, opponents=["greedy"],
                         mode="duel")  # fmt: skip
    building = BotVersion.objects.create(bot=mine.bot, number=3, bundle_kind="zip",
                                         build_queued_at=timezone.now())  # fmt: skip
    with pytest.raises(Conflict, match="build has not finished"):
        _create(user=author, bot_version_id=building.pk, opponents=["greedy"],
                         mode="duel")  # fmt: skip
    assert not Match.objects.filter(kind=Match.Kind.TEST).exists()
    # A version still being validated, with nothing to build, may be tested at once.
    pending = BotVersion.objects.create(bot=mine.bot, number=4, bundle_kind="py")
    match = _create(user=author, bot_version_id=pending.pk, opponents=[str(mine.pk)],
                             mode="duel")  # fmt: skip
    assert list(match.seats.order_by("seat").values_list("bot_version", flat=True)) == [
        pending.pk, mine.pk
    ]  # fmt: skip


def test_caps_answer_429_in_words(author, ready_version, caps, sent):
    mine = ready_version(author, "capped")
    client = client_for(author)
    body = {"bot_version": mine.pk, "opponents": ["greedy"], "mode": "duel"}
    first = client.post("/api/v1/test-games/", body, format="json")
    assert first.status_code == 201, first.content
    again = client.post("/api/v1/test-games/", body, format="json")
    assert again.status_code == 429
    error = again.json()["error"]
    assert error["message"] == (
        "You already have 1 test game queued or running (at most 1 at once);"
        " request the next when it ends."
    )
    assert int(again["Retry-After"]) > 0
    # Three in the last 24 hours: the next when the oldest of them is a day old.
    Match.objects.filter(kind=Match.Kind.TEST).update(status=Match.Status.FINISHED)
    for _ in range(2):
        assert client.post("/api/v1/test-games/", body, format="json").status_code == 201
        Match.objects.filter(kind=Match.Kind.TEST).update(status=Match.Status.FINISHED)
    oldest = timezone.now() - timedelta(hours=20)
    Match.objects.filter(pk=first.json()["id"]).update(created_at=oldest)
    over = client.post("/api/v1/test-games/", body, format="json")
    assert over.status_code == 429
    message = over.json()["error"]["message"]
    assert message.startswith("You have played 3 test games in the last 24 hours (at most 3);")
    assert (oldest + timedelta(hours=24)).strftime("%Y-%m-%d %H:%M") in message
    assert "in 4 h" in message or "in 3 h 59 min" in message
    assert 3 * 3600 < int(over["Retry-After"]) <= 4 * 3600
    assert Match.objects.filter(kind=Match.Kind.TEST).count() == 3


def test_the_api_answers_the_match_its_page_and_its_place(author, ready_version, sent):
    mine = ready_version(author, "placed")
    response = client_for(author).post(
        "/api/v1/test-games/", {"bot_version": mine.pk, "opponents": ["greedy"], "mode": "duel"},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201
    body = response.json()
    assert body["kind"] == "test" and body["status"] == "queued"
    assert body["page_url"].endswith(f"/matches/{body['id']}/")
    assert body["lane"] == "workshop" and body["place"] == 1
    unknown = client_for(author).post(
        "/api/v1/test-games/", {"bot_version": mine.pk, "opponents": ["greedy"], "mode": "duel",
                                "colour": "red"}, format="json",
    )  # fmt: skip
    assert unknown.status_code == 400 and "colour" in unknown.json()["error"]["fields"]
    assert client_for(None).post("/api/v1/test-games/", {}, format="json").status_code == 401


def test_a_test_game_is_unrated_and_counts_no_fault(
    author, organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    crashy = ready_version(author, "crashy-bot")  # the scripted runner crashes it
    league = ls.league_create(organiser=organiser, name="rated", mode="duel", seats=2,
                              format="round_robin")  # fmt: skip
    ls.league_entry_add(league=league, user=organiser, bot_version_id=crashy.pk)
    entries = list(LeagueEntry.objects.values_list("pk", "rating", "games"))
    with django_capture_on_commit_callbacks(execute=True):
        match = _create(user=author, bot_version_id=crashy.pk, opponents=["greedy"],
                                 mode="duel")  # fmt: skip
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.seats.get(seat=0).fault == "crash"
    crashy.refresh_from_db()
    assert (crashy.seats_finished, crashy.seats_faulted, crashy.fault_streak) == (0, 0, 0)
    assert crashy.suspended_at is None
    assert not RatingChange.objects.exists()
    assert list(LeagueEntry.objects.values_list("pk", "rating", "games")) == entries


# --- privacy --------------------------------------------------------------------------------


@pytest.fixture
def played(author, other_author, make_user, ready_version, runner, monkeypatch):
    """A finished test game of the author's version (it crashed, its stderr kept) with a
    real replay, recorded by the match service."""
    monkeypatch.setattr(ms, "match_enqueue", lambda *a, **kw: None)  # played below, once
    mine = ready_version(author, "secret-tester")
    match = _create(user=author, bot_version_id=mine.pk, opponents=["greedy"],
                             mode="duel", seed=3)  # fmt: skip
    game, steps = play_recorded("duel", 2, 3)
    data = encode(document_from_game(game, steps, header_for_bots(2)))
    result = game.result()

    def run(spec, **hooks):
        seats = [{"seat": s, "score": result["scores"][s], "rank": result["ranks"][s],
                  "fault": "crash" if s == 0 else "", "time_used": 0.5,
                  "fault_detail": "exited with status 1" if s == 0 else "",
                  "log": STDERR if s == 0 else ""} for s in (0, 1)]  # fmt: skip
        return {"seats": seats, "result": result, "replay": data}

    sys.modules["workers.runner"].run_match = run  # the `runner` fixture's module
    ms.match_play(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.replay_name
    return {"match": match, "mine": mine, "author": author, "other": other_author,
            "staff": make_user("sam", is_staff=True), "steps": len(steps)}  # fmt: skip


def _single(match_id: int) -> list[str]:
    """Every address that shows one match."""
    return [
        f"/api/v1/matches/{match_id}/", f"/api/v1/matches/{match_id}/replay",
        f"/api/v1/matches/{match_id}/frames?seat=spectator",
        f"/api/v1/matches/{match_id}/frames?seat=0", f"/api/v1/matches/{match_id}/marks",
        f"/matches/{match_id}/", f"/replays/{match_id}/",
        f"/matches/{match_id}/step/1.png", f"/matches/{match_id}/summary.gif",
        f"/embed/matches/{match_id}/",
        f"/api/v1/test-games/{match_id}/",
    ]  # fmt: skip


def _lists(world: dict[str, Any]) -> list[str]:
    bot = world["mine"].bot_id
    return ["/api/v1/matches/", f"/api/v1/matches/?bot={bot}", "/api/v1/matches/?kind=test",
            "/matches/", f"/bots/{bot}/", "/"]  # fmt: skip


def _client(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("who", ["anonymous", "another author"])
def test_others_get_404_and_never_see_it_listed(played, who):
    user = None if who == "anonymous" else played["other"]
    client = _client(user)
    match_id = played["match"].pk
    for url in _single(match_id):
        status = client.get(url).status_code
        expected = (401, 403) if url.startswith("/api/v1/test-games/") and user is None else (404,)
        assert status in expected, (url, status)
    for url in _lists(played):
        response = client.get(url)
        assert response.status_code == 200, url
        assert f"/matches/{match_id}/" not in response.content.decode(), url
        assert STDERR not in response.content.decode(), url
    if user is not None:
        assert client.get("/api/v1/test-games/").json()["results"] == []
        analysis = client.post(f"/api/v1/matches/{match_id}/analysis/")
        assert analysis.status_code == 404 and "not analysed" not in analysis.content.decode()


@pytest.mark.parametrize("who", ["owner", "staff"])
def test_the_owner_and_staff_see_it_with_its_stderr_times_and_fault(played, who):
    user = played["author"] if who == "owner" else played["staff"]
    client = _client(user)
    match_id = played["match"].pk
    for url in _single(match_id):
        assert client.get(url).status_code == 200, url
    page = client.get(f"/matches/{match_id}/").content.decode()
    assert "Test game (private, unrated)" in page
    assert STDERR in page and 'data-test-stderr="0"' in page
    assert "exited with status 1" in page
    assert f"Decision times: {_decisions(played, 0)} decision" in page
    replay = client.get(f"/api/v1/matches/{match_id}/replay")
    assert decode(b"".join(replay.streaming_content) if replay.streaming else replay.content)
    analysis = client.get(f"/api/v1/matches/{match_id}/analysis/")
    assert "has not been analysed" in analysis.json()["error"]["message"]  # the match is found
    detail = client.get(f"/api/v1/matches/{match_id}/").json()
    assert detail["seats"][0]["log"] == STDERR
    # Not in the public lists, even for its author and staff: in their own list only.
    for url in _lists(played):
        assert f"/matches/{match_id}/\"" not in client.get(url).content.decode(), url
    mine = client.get("/api/v1/test-games/").json()["results"]
    assert [m["id"] for m in mine] == ([match_id] if who == "owner" else [])


def _decisions(world: dict[str, Any], seat: int) -> int:
    game, steps = play_recorded("duel", 2, 3)
    return sum(1 for step in steps if step["seat"] == seat)


# --- a real game ----------------------------------------------------------------------------

@pytest.mark.slow
def test_a_real_test_game_plays_through_the_api(author, django_capture_on_commit_callbacks):
    """The eager setup: the POST queues the match, the commit plays it with the real runner
    and a real sandboxed bot, exactly as a league match is played."""
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / "examples" / "bots" / "random_bot.py")
    data = source.read_bytes()
    bot = Bot.objects.create(name="real-tester", owner=author)
    stored = storages["bots"].save("real-tester.py", ContentFile(data))
    version = BotVersion.objects.create(
        bot=bot, number=1, bundle_name=stored, bundle_kind="py", status=BotVersion.Status.READY,
        sha256=hashlib.sha256(data).hexdigest(), size=len(data), manifest={"language": "python"},
    )  # fmt: skip
    builtin_bots_register()
    client = client_for(author)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/api/v1/test-games/", {
            "bot_version": version.pk, "opponents": ["greedy"], "mode": "duel", "seed": 7,
        }, format="json")  # fmt: skip
    assert response.status_code == 201, response.content
    done = client.get(f"/api/v1/test-games/{response.json()['id']}/").json()
    assert done["status"] == "finished", done
    assert done["place"] is None and done["replay_url"]
    assert {s["rank"] for s in done["seats"]} <= {1, 2} and done["seats"][0]["fault"] == ""
    assert not RatingChange.objects.exists()
    page = _client(author).get(f"/matches/{done['id']}/").content.decode()
    assert "Test game (private, unrated)" in page and "Decision times:" in page
