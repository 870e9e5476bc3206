"""The REST API end to end in embedded mode: every endpoint, bad input, permissions, error shape."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.test import override_settings

from tests.accounts import PASSWORD
from tournament.models import BotVersion, League, Match
from tournament.services.bots import builtin_bots_register

from .conftest import client_for

pytestmark = pytest.mark.django_db


def _error(response, status, code=None):
    assert response.status_code == status, response.content
    body = response.json()["error"]
    assert body["message"]
    if code:
        assert body["code"] == code
    return body


# --- accounts and auth ------------------------------------------------------------------------


def test_register_then_token_then_me():
    anon = client_for(None)
    made = anon.post(
        "/api/v1/accounts/",
        {"username": "carol", "password": "kitten-boat-42", "email": "carol@example.com"},
        format="json",
    )
    assert made.status_code == 201 and made.json()["username"] == "carol"
    token = anon.post(
        "/api/v1/auth/token/", {"username": "carol", "password": "kitten-boat-42"}, format="json"
    )
    assert token.status_code == 200
    anon.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    me = anon.get("/api/v1/accounts/me/").json()
    assert me["username"] == "carol" and me["is_organiser"] is False


def test_register_bad_input(author):
    anon = client_for(None)
    body = _error(
        anon.post("/api/v1/accounts/", {"username": "x", "password": "1", "email": "no"}), 400
    )
    assert set(body["fields"]) >= {"username", "password", "email"}
    taken = anon.post(
        "/api/v1/accounts/",
        {"username": "alice", "password": "kitten-boat-42", "email": "a@example.com"},
    )
    assert "taken" in _error(taken, 400, "invalid")["fields"]["username"][0]
    weak = anon.post(
        "/api/v1/accounts/", {"username": "dave", "password": "password", "email": "d@e.com"}
    )
    assert "password" in _error(weak, 400)["fields"]
    _error(anon.post("/api/v1/auth/token/", {"username": "alice", "password": "wrong"}), 400)
    _error(anon.get("/api/v1/accounts/me/"), 401)


def test_session_login_page(client, author):
    page = client.get("/accounts/login/")
    assert page.status_code == 200 and b"csrfmiddlewaretoken" in page.content
    done = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert done.status_code == 302
    assert client.get("/api/v1/accounts/me/").json()["username"] == "alice"


# --- bots -------------------------------------------------------------------------------------


def test_bot_create_list_detail_update_retire(author, other_author):
    api = client_for(author)
    made = api.post("/api/v1/bots/", {"name": "whiskers", "description": "d"}, format="json")
    assert made.status_code == 201
    bot_id = made.json()["id"]
    _error(api.post("/api/v1/bots/", {"name": "Whiskers"}, format="json"), 409, "conflict")
    _error(api.post("/api/v1/bots/", {"name": "bad/name"}, format="json"), 400, "invalid")
    listed = client_for(None).get("/api/v1/bots/?owner=alice").json()
    assert listed["count"] == 1 and listed["results"][0]["name"] == "whiskers"
    detail = client_for(None).get(f"/api/v1/bots/{bot_id}/").json()
    assert detail["owner"] == "alice" and detail["ratings"] == [] and detail["recent_matches"] == []
    # another author can read but not change it
    other = client_for(other_author)
    _error(other.patch(f"/api/v1/bots/{bot_id}/", {"name": "mine"}, format="json"), 403)
    _error(other.post(f"/api/v1/bots/{bot_id}/retire/"), 403, "permission_denied")
    renamed = api.patch(f"/api/v1/bots/{bot_id}/", {"name": "purr"}, format="json")
    assert renamed.json()["name"] == "purr"
    assert api.post(f"/api/v1/bots/{bot_id}/retire/").json()["retired"] is True
    _error(client_for(None).get("/api/v1/bots/999999/"), 404, "not_found")
    _error(client_for(None).post("/api/v1/bots/", {"name": "anon"}, format="json"), 401)


def test_builtin_bots_are_system_owned_and_locked(author):
    versions = builtin_bots_register()
    assert set(versions) == {"random", "greedy", "search-0.05s", "search-0.25s", "search-1s"}
    assert builtin_bots_register()["random"].pk == versions["random"].pk  # idempotent
    bot = versions["random"].bot
    assert bot.is_system and versions["random"].builtin == "random"
    assert versions["random"].status == BotVersion.Status.READY
    _error(client_for(author).post(f"/api/v1/bots/{bot.pk}/retire/"), 403)


def _zip(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in entries.items():
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o100644 << 16  # a regular file, as `zip` writes it
            archive.writestr(info, data)
    return buffer.getvalue()


def _upload(api, bot_id, name, data):
    return api.post(
        f"/api/v1/bots/{bot_id}/versions/", {"file": io.BytesIO(data)}, format="multipart"
    ) if name is None else api.post(
        f"/api/v1/bots/{bot_id}/versions/",
        {"file": _named(name, data)},
        format="multipart",
    )  # fmt: skip


def _named(name, data):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, data)


def test_upload_versions(author, other_author, runner, django_capture_on_commit_callbacks):
    api = client_for(author)
    bot_id = api.post("/api/v1/bots/", {"name": "uploader"}, format="json").json()["id"]
    with django_capture_on_commit_callbacks(execute=True):
        first = _upload(api, bot_id, "bot.py", b"print('hi')\n")
    assert first.status_code == 201, first.content
    assert first.json()["number"] == 1 and first.json()["status"] == "pending"
    assert BotVersion.objects.get(pk=first.json()["id"]).status == "ready"
    bundle = _zip(
        {"bot.json": b'{"entrypoint": "main.py", "language": "python3"}', "main.py": b"print(1)\n"}
    )
    with django_capture_on_commit_callbacks(execute=True):
        second = _upload(api, bot_id, "bot.zip", bundle)
    assert second.status_code == 201, second.content
    assert second.json()["number"] == 2
    versions = client_for(None).get(f"/api/v1/bots/{bot_id}/versions/").json()
    assert [v["status"] for v in versions["results"]] == ["ready", "ready"]
    detail = client_for(None).get(f"/api/v1/bot-versions/{second.json()['id']}/").json()
    assert detail["bundle_kind"] == "zip" and len(detail["sha256"]) == 64
    # bad bundles: a path escaping the bundle, wrong extension, no file, too large
    evil = _zip(
        {
            "bot.json": b'{"entrypoint": "main.py", "language": "python3"}',
            "main.py": b"",
            "../x.py": b"",
        }
    )
    assert _error(_upload(api, bot_id, "bot.zip", evil), 400, "bundle_rejected")["fields"]["file"]
    _error(_upload(api, bot_id, "bot.exe", b"MZ"), 400, "bundle_rejected")
    _error(api.post(f"/api/v1/bots/{bot_id}/versions/", {}, format="multipart"), 400, "invalid")
    with override_settings(BOT_UPLOAD_MAX_BYTES=10):
        body = _error(_upload(api, bot_id, "bot.py", b"#" * 11), 413, "too_large")
        assert "10 bytes" in body["message"]
    _error(_upload(client_for(other_author), bot_id, "bot.py", b"print(1)"), 403)
    _error(_upload(client_for(None), bot_id, "bot.py", b"print(1)"), 401)
    _error(client_for(None).get("/api/v1/bot-versions/999999/"), 404)


@override_settings(
    REST_FRAMEWORK={
        **__import__("django.conf").conf.settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"uploads": "2/hour", "matches": "1/hour"},
    }
)
def test_uploads_and_match_requests_are_throttled(author, runner, monkeypatch):
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"uploads": "2/hour", "matches": "1/hour"}
    )
    api = client_for(author)
    bot_id = api.post("/api/v1/bots/", {"name": "t"}, format="json").json()["id"]
    for _ in range(2):
        assert _upload(api, bot_id, "bot.py", b"print(1)").status_code == 201
    _error(_upload(api, bot_id, "bot.py", b"print(1)"), 429, "throttled")
    assert api.get(f"/api/v1/bots/{bot_id}/versions/").status_code == 200  # reads are free
    api.post("/api/v1/matches/", {}, format="json")
    _error(api.post("/api/v1/matches/", {}, format="json"), 429, "throttled")


# --- leagues ----------------------------------------------------------------------------------


def _entered_league(organiser, author, ready_version, *, public=True, n=2, fmt="round_robin"):
    api = client_for(organiser)
    made = api.post(
        "/api/v1/leagues/",
        {"name": f"cup-{public}-{fmt}", "mode": "duel", "seats": 2, "format": fmt,
         "public": public, "seeds": 1},
        format="json",
    )  # fmt: skip
    assert made.status_code == 201, made.content
    league_id = made.json()["id"]
    mine = client_for(author if public else organiser)  # private leagues: by invitation
    for i in range(n):
        version = ready_version(author, f"entrant{i}-{public}-{fmt}")
        entry = mine.post(
            f"/api/v1/leagues/{league_id}/entries/",
            {"bot": version.bot_id} if i % 2 else {"bot_version": version.pk},
            format="json",
        )
        assert entry.status_code == 201, entry.content
    return league_id


def test_league_lifecycle_and_ladder(
    organiser, author, ready_version, runner, django_capture_on_commit_callbacks
):
    league_id = _entered_league(organiser, author, ready_version, n=3)
    anon = client_for(None)
    assert anon.get(f"/api/v1/leagues/{league_id}/entries/").json()["count"] == 3
    _error(client_for(author).post(f"/api/v1/leagues/{league_id}/start/"), 403)
    with django_capture_on_commit_callbacks(execute=True):
        started = client_for(organiser).post(f"/api/v1/leagues/{league_id}/start/")
    assert started.status_code == 200
    ladder = anon.get(f"/api/v1/leagues/{league_id}/ladder/").json()
    assert ladder["league"]["status"] == "closed"  # 3 tables x 2 rotations, all played
    rows = ladder["results"]
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert all(r["games"] == 4 for r in rows)
    assert rows[0]["elo"] >= rows[1]["elo"] >= rows[2]["elo"]
    assert {"bot", "version", "wins", "draws", "losses", "mean_score", "last_change"} <= set(
        rows[0]
    )
    assert "win_rate" not in rows[0]
    assert sum(r["wins"] for r in rows) == 6
    history = anon.get(f"/api/v1/leagues/{league_id}/history/").json()
    assert history["count"] == 12
    # the bot page shows its rating and recent matches
    bot_id = rows[0]["bot_id"]
    detail = anon.get(f"/api/v1/bots/{bot_id}/").json()
    assert detail["ratings"][0]["league"] == league_id and len(detail["recent_matches"]) == 4
    _error(client_for(organiser).post(f"/api/v1/leagues/{league_id}/start/"), 409, "conflict")
    _error(client_for(organiser).post(f"/api/v1/leagues/{league_id}/close/"), 409)


def test_league_create_permissions_and_bad_input(organiser, author):
    payload = {"name": "open", "mode": "duel", "seats": 2, "format": "ladder"}
    _error(client_for(author).post("/api/v1/leagues/", payload, format="json"), 403)
    _error(client_for(None).post("/api/v1/leagues/", payload, format="json"), 401)
    api = client_for(organiser)
    body = _error(api.post("/api/v1/leagues/", {**payload, "seats": 4}, format="json"), 400)
    assert body["code"] == "bad_game_config" and "seats" in body["fields"]
    body = _error(api.post("/api/v1/leagues/", {**payload, "mode": "go"}, format="json"), 400)
    assert "mode" in body["fields"]
    _error(api.post("/api/v1/leagues/", {**payload, "format": "knockout"}, format="json"), 400)
    _error(api.post("/api/v1/leagues/", {**payload, "time_bank": -1}, format="json"), 400)
    assert api.post("/api/v1/leagues/", payload, format="json").status_code == 201
    _error(api.post("/api/v1/leagues/", payload, format="json"), 409)
    listed = client_for(None).get("/api/v1/leagues/?format=ladder&mode=duel").json()
    assert listed["count"] == 1
    _error(client_for(None).get("/api/v1/leagues/?format=nonsense"), 400, "invalid")


def test_private_league_hidden_from_others(
    organiser, author, other_author, ready_version, make_user
):
    league_id = _entered_league(organiser, author, ready_version, public=False)
    _error(client_for(None).get(f"/api/v1/leagues/{league_id}/"), 404)
    _error(client_for(other_author).get(f"/api/v1/leagues/{league_id}/ladder/"), 404)
    assert client_for(None).get("/api/v1/leagues/").json()["count"] == 0
    assert client_for(organiser).get(f"/api/v1/leagues/{league_id}/").status_code == 200
    # the owner of an invited entrant sees the league
    assert client_for(author).get(f"/api/v1/leagues/{league_id}/ladder/").status_code == 200
    other_organiser = make_user("oscar", organiser=True)
    _error(client_for(other_organiser).post(f"/api/v1/leagues/{league_id}/pause/"), 404)


def test_entries_bad_input(organiser, author, other_author, ready_version):
    league_id = _entered_league(organiser, author, ready_version, n=1)
    api = client_for(author)
    _error(api.post(f"/api/v1/leagues/{league_id}/entries/", {}, format="json"), 400)
    _error(api.post(f"/api/v1/leagues/{league_id}/entries/", {"bot": 999999}, format="json"), 404)
    theirs = ready_version(other_author, "theirs")
    _error(
        api.post(f"/api/v1/leagues/{league_id}/entries/", {"bot": theirs.bot_id}, format="json"),
        403,
    )
    pending = BotVersion.objects.create(bot=theirs.bot, number=2, status="pending")
    _error(
        client_for(other_author).post(
            f"/api/v1/leagues/{league_id}/entries/", {"bot_version": pending.pk}, format="json"
        ),
        409,
    )


def test_pause_and_resume(organiser, author, ready_version, runner):
    league_id = _entered_league(organiser, author, ready_version, fmt="ladder")
    api = client_for(organiser)
    assert api.post(f"/api/v1/leagues/{league_id}/start/").json()["status"] == "running"
    assert api.post(f"/api/v1/leagues/{league_id}/pause/").json()["status"] == "paused"
    _error(api.post(f"/api/v1/leagues/{league_id}/pause/"), 409)
    assert api.post(f"/api/v1/leagues/{league_id}/start/").json()["status"] == "running"
    assert api.post(f"/api/v1/leagues/{league_id}/close/").json()["status"] == "closed"
    assert not Match.objects.filter(league_id=league_id, status="queued").exists()
    assert League.objects.get(pk=league_id).status == "closed"


# --- matches ----------------------------------------------------------------------------------


def test_challenge_match(author, ready_version, runner, django_capture_on_commit_callbacks):
    a, b = ready_version(author, "ca"), ready_version(author, "cb")
    api = client_for(author)
    with django_capture_on_commit_callbacks(execute=True):
        made = api.post(
            "/api/v1/matches/", {"mode": "duel", "bot_versions": [a.pk, b.pk]}, format="json"
        )
    assert made.status_code == 201, made.content
    assert made.json()["status"] == "queued"
    match = client_for(None).get(f"/api/v1/matches/{made.json()['id']}/").json()
    assert match["status"] == "finished" and match["kind"] == "challenge"
    assert [s["seat"] for s in match["seats"]] == [0, 1]
    assert [s["rank"] for s in match["seats"]] == [1, 2]
    assert match["seats"][0]["bot_sha256"] == a.sha256
    assert match["replay_url"].endswith(f"/api/v1/matches/{match['id']}/replay")
    assert match["viewer_url"].endswith(f"/replays/{match['id']}/")
    listed = client_for(None).get(f"/api/v1/matches/?bot={a.bot_id}&status=finished").json()
    assert [m["id"] for m in listed["results"]] == [match["id"]]  # match lists are not counted
    replay = client_for(None).get(match["replay_url"])
    assert replay.status_code in (200, 404)  # served by the replays app


def test_challenge_bad_input(author, ready_version):
    a = ready_version(author, "solo-a")
    api = client_for(author)
    _error(api.post("/api/v1/matches/", {"mode": "duel", "bot_versions": [a.pk]}, format="json"),
           400, "bad_game_config")  # fmt: skip
    _error(api.post("/api/v1/matches/", {"mode": "duel", "bot_versions": []}, format="json"), 400)
    _error(
        api.post("/api/v1/matches/", {"mode": "duel", "bot_versions": [a.pk, 999999]},
                 format="json"), 404,
    )  # fmt: skip
    _error(api.post("/api/v1/matches/", {"mode": "duel", "bot_versions": "x"}, format="json"), 400)
    _error(client_for(None).post("/api/v1/matches/", {}, format="json"), 401)
    _error(client_for(None).get("/api/v1/matches/?status=bogus"), 400)
    _error(client_for(None).get("/api/v1/matches/424242/"), 404)


def test_schema_and_docs(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200 and b"/api/v1/leagues/{league_id}/ladder/" in schema.content
    assert client.get("/api/docs/").status_code == 200


def test_solo_league_ladder_shows_win_rate_and_margin(
    organiser, author, ready_version, runner, django_capture_on_commit_callbacks
):
    api = client_for(organiser)
    payload = {"name": "solo cup", "mode": "solo", "seats": 1, "format": "round_robin", "seeds": 2}
    body = _error(api.post("/api/v1/leagues/", payload, format="json"), 400, "bad_game_config")
    assert "difficulty" in body["message"]
    payload["options"] = {"difficulty": "hard"}
    league_id = api.post("/api/v1/leagues/", payload, format="json").json()["id"]
    version = ready_version(author, "lonely")
    client_for(author).post(
        f"/api/v1/leagues/{league_id}/entries/", {"bot": version.bot_id}, format="json"
    )
    runner.scores = lambda spec: [45.0]  # margin 45 - 40 = +5 in both games
    with django_capture_on_commit_callbacks(execute=True):
        api.post(f"/api/v1/leagues/{league_id}/start/")
    (row,) = client_for(None).get(f"/api/v1/leagues/{league_id}/ladder/").json()["results"]
    assert (row["games"], row["wins"], row["win_rate"], row["mean_margin"]) == (2, 2, 1.0, 5.0)
    # two wins against the hard sister (1500): 1500 + 16 = 1516, then
    # E(1516 vs 1500) = 0.523021, 1516 + 32 * 0.476979 = 1531.263
    assert row["elo"] == pytest.approx(1531.3, abs=0.05)


def test_wrong_method_has_the_error_shape(author):
    _error(client_for(author).delete("/api/v1/leagues/"), 405, "method_not_allowed")


def test_private_league_invitations(organiser, author, other_author, ready_version):
    api = client_for(organiser)
    league_id = api.post(
        "/api/v1/leagues/",
        {"name": "secret", "mode": "duel", "seats": 2, "format": "round_robin", "public": False},
        format="json",
    ).json()["id"]
    url = f"/api/v1/leagues/{league_id}/"
    mine = ready_version(author, "invitee-bot")
    alice, bob = client_for(author), client_for(other_author)
    # not invited: the league does not exist for them, so they cannot enter it
    _error(alice.get(url), 404)
    _error(alice.post(url + "entries/", {"bot": mine.bot_id}, format="json"), 404)
    invited = api.post(url + "invitations/", {"user": "alice"}, format="json")
    assert invited.status_code == 201, invited.content
    assert (invited.json()["user"], invited.json()["invited_by"]) == ("alice", "olga")
    _error(api.post(url + "invitations/", {"user": "alice"}, format="json"), 409, "conflict")
    body = _error(api.post(url + "invitations/", {"user": "nobody"}, format="json"), 404)
    assert "user" in body["fields"]
    _error(api.post(url + "invitations/", {}, format="json"), 400, "invalid")
    # invited: alice sees the league, in the list too, and enters her bot
    assert alice.get(url).status_code == 200
    assert [lg["id"] for lg in alice.get("/api/v1/leagues/").json()["results"]] == [league_id]
    entered = alice.post(url + "entries/", {"bot": mine.bot_id}, format="json")
    assert entered.status_code == 201, entered.content
    # only the organiser invites; the invited see their own invitation, others nothing
    _error(alice.post(url + "invitations/", {"user": "bob"}, format="json"), 403)
    _error(client_for(None).post(url + "invitations/", {"user": "bob"}, format="json"), 401)
    _error(bob.get(url), 404)
    _error(bob.get(url + "invitations/"), 404)
    assert api.get(url + "invitations/").json()["count"] == 1
    assert [i["user"] for i in alice.get(url + "invitations/").json()["results"]] == ["alice"]


def test_entering_a_private_league_needs_an_invitation(organiser, author, ready_version):
    from tournament.errors import Conflict, PermissionDenied
    from tournament.services import leagues as ls

    league = ls.league_create(
        organiser=organiser, name="closed door", mode="duel", seats=2, format="round_robin",
        public=False,
    )  # fmt: skip
    mine = ready_version(author, "gatecrasher")
    with pytest.raises(PermissionDenied, match="invited"):
        ls.league_entry_add(league=league, user=author, bot_id=mine.bot_id)
    ls.league_invite(league=league, user=organiser, username="alice")
    assert ls.league_entry_add(league=league, user=author, bot_id=mine.bot_id).pk
    league.status = League.Status.CLOSED
    league.save()
    with pytest.raises(Conflict, match="closed"):
        ls.league_invite(league=league, user=organiser, username="olga")


def test_every_endpoint_in_the_schema_with_pages_filters_and_errors(client):
    import yaml

    from tournament.api import urls as api_urls

    schema = yaml.safe_load(client.get("/api/schema/").content)
    paths = schema["paths"]
    for pattern in api_urls.urlpatterns:
        route = "/api/v1/" + str(pattern.pattern).replace("<int:", "{").replace(">", "}")
        assert route in paths, route
    for replay_path in ("/api/v1/matches/{match_id}/replay", "/api/v1/matches/{match_id}/frames",
                        "/api/v1/replays/frames"):  # fmt: skip
        assert replay_path in paths
    error_ref = "#/components/schemas/Error"
    for path, operations in paths.items():
        for method, operation in operations.items():
            content = operation["responses"]["4XX"]["content"]["application/json"]
            assert content["schema"]["$ref"] == error_ref, (method, path)
            ok = operation["responses"].get("200", {}).get("content", {}).get("application/json")
            if ok is None:
                continue
            assert ok["schema"].get("type") != "array", (method, path)  # lists come in pages
            ref = ok["schema"].get("$ref", "")
            if ref.startswith("#/components/schemas/Paginated") or ref.endswith("PageOutput"):
                names = {p["name"] for p in operation.get("parameters", [])}
                assert "page" in names, path
    match_filters = {p["name"] for p in paths["/api/v1/matches/"]["get"]["parameters"]}
    assert {"status", "mode", "kind", "league", "round", "bot", "bot_version"} <= match_filters


def test_unknown_api_path_has_the_error_shape(client):
    body = _error(client.get("/api/v1/no-such-thing/"), 404, "not_found")
    assert "/api/v1/no-such-thing/" in body["message"]
    assert client.get("/no-such-page/").status_code == 404  # pages keep Django's page


def test_lists_are_paginated_and_filterable(
    organiser, author, ready_version, runner, django_capture_on_commit_callbacks, monkeypatch
):
    from rest_framework.pagination import PageNumberPagination

    league_id = _entered_league(organiser, author, ready_version, n=3)
    with django_capture_on_commit_callbacks(execute=True):
        client_for(organiser).post(f"/api/v1/leagues/{league_id}/start/")
    anon = client_for(None)
    monkeypatch.setattr(PageNumberPagination, "page_size", 2)
    ladder = anon.get(f"/api/v1/leagues/{league_id}/ladder/").json()
    assert ladder["count"] == 3 and len(ladder["results"]) == 2 and ladder["next"]
    assert ladder["league"]["id"] == league_id
    second = anon.get(f"/api/v1/leagues/{league_id}/ladder/?page=2").json()
    assert [r["rank"] for r in second["results"]] == [3]
    bot_version = ladder["results"][0]["bot_version"]
    history = anon.get(f"/api/v1/leagues/{league_id}/history/?bot_version={bot_version}").json()
    assert history["count"] == 4 and {h["bot_version"] for h in history["results"]} == {
        bot_version
    }
    bot_id = ladder["results"][0]["bot_id"]
    assert anon.get(f"/api/v1/bots/{bot_id}/versions/?status=ready").json()["count"] == 1
    assert anon.get(f"/api/v1/bots/{bot_id}/versions/?status=failed").json()["count"] == 0
    _error(anon.get(f"/api/v1/bots/{bot_id}/versions/?status=bogus"), 400, "invalid")
