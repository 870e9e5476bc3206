"""Every /api/ answer that is an error is the one JSON error body, DEBUG on or off; validation
errors name every field at fault, as lists of strings."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client, RequestFactory

from tests.tournament.conftest import client_for
from tournament.api.exceptions import csrf_failure

pytestmark = pytest.mark.django_db


def assert_error_body(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    error = json.loads(response.content)["error"]
    assert set(error) == {"code", "message", "fields"}
    assert isinstance(error["message"], str) and error["message"]
    for messages in error["fields"].values():  # the schema: field -> list of strings
        assert isinstance(messages, list) and all(isinstance(m, str) for m in messages)
    if code is not None:
        assert error["code"] == code, error
    return error


@pytest.mark.parametrize("debug", [True, False])
def test_unknown_api_path_answers_the_error_body(settings, debug):
    settings.DEBUG = debug
    error = assert_error_body(Client().get("/api/v1/nope/"), 404, "not_found")
    assert "/api/v1/nope/" in error["message"]


@pytest.mark.parametrize("debug", [True, False])
def test_wrong_method_answers_the_error_body(settings, debug, author):
    settings.DEBUG = debug
    response = client_for(author).delete("/api/v1/leagues/")
    assert_error_body(response, 405)
    assert "GET" in response["Allow"]
    response = Client().put("/api/v1/replays/frames")
    assert_error_body(response, 405)


def test_crash_under_debug_answers_the_error_body(settings, monkeypatch):
    settings.DEBUG = True
    from tournament import selectors

    def boom(**kwargs: Any) -> Any:
        raise RuntimeError("boom at /secret/path")

    monkeypatch.setattr(selectors, "league_list", boom)
    client = Client(raise_request_exception=False)
    error = assert_error_body(client.get("/api/v1/leagues/"), 500, "server_error")
    assert "/secret/path" not in error["message"]


def test_csrf_refusal_answers_the_error_body(organiser):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    response = client.post(
        "/api/v1/leagues/", {"name": "x"}, content_type="application/json"
    )
    error = assert_error_body(response, 403)
    assert "CSRF" in error["message"]


def test_csrf_failure_view_speaks_json_under_api_only():
    request = RequestFactory().post("/api/v1/anything/")
    response = csrf_failure(request, reason="CSRF cookie not set.")
    error = assert_error_body(response, 403, "csrf_failed")
    assert "CSRF cookie not set." in error["message"]
    page = csrf_failure(RequestFactory().post("/accounts/login/"), reason="x")
    assert page.status_code == 403 and page["Content-Type"].startswith("text/html")


def test_replay_frames_upload_works_for_token_clients(organiser):
    """No session, no CSRF cookie: a script posting a replay file is not refused as CSRF."""
    client = Client(enforce_csrf_checks=True, HTTP_AUTHORIZATION="Token whatever")
    response = client.post(
        "/api/v1/replays/frames", data=b"not a replay", content_type="application/octet-stream"
    )
    assert response.status_code not in (401, 403), response.content[:300]
    assert_error_body(response, response.status_code, "replay_invalid")


def test_replay_frames_refuses_a_declared_oversize_body_before_reading_it():
    client = Client()
    response = client.generic(
        "POST", "/api/v1/replays/frames", b"x", CONTENT_TYPE="application/octet-stream",
        CONTENT_LENGTH=str(50 * 1024 * 1024),
    )  # fmt: skip
    assert_error_body(response, 413, "too_large")


def test_list_field_errors_are_lists_of_strings(author):
    response = client_for(author).post(
        "/api/v1/matches/", {"mode": "duel", "bot_versions": ["x", 0]}, format="json"
    )
    error = assert_error_body(response, 400, "invalid")
    messages = error["fields"]["bot_versions"]
    assert any(m.startswith("item 0: ") for m in messages), messages
    assert any(m.startswith("item 1: ") for m in messages), messages


LEAGUE = {"name": "cup", "mode": "duel", "seats": 2, "format": "round_robin"}


def test_league_create_rejects_unknown_keys_naming_them(organiser):
    response = client_for(organiser).post(
        "/api/v1/leagues/", {**LEAGUE, "sedes": 3, "colour": "red"}, format="json"
    )
    error = assert_error_body(response, 400, "invalid")
    assert {"sedes", "colour"} <= set(error["fields"])
    assert "sedes" in error["message"] and "colour" in error["message"]


def test_league_create_unknown_keys_come_with_the_other_shape_errors(organiser):
    response = client_for(organiser).post(
        "/api/v1/leagues/", {**LEAGUE, "seats": "two", "colour": "red"}, format="json"
    )
    error = assert_error_body(response, 400)
    assert {"seats", "colour"} <= set(error["fields"])


def test_league_create_reports_every_rule_error_at_once(organiser):
    payload = {
        **LEAGUE, "mode": "solo", "seats": 3, "options": {"difficulty": "impossible"},
        "decision_time_limit": 0, "time_bank": -1, "seeds": 0, "rounds": 500,
    }  # fmt: skip
    error = assert_error_body(client_for(organiser).post("/api/v1/leagues/", payload,
                                                         format="json"), 400)  # fmt: skip
    assert {"seats", "options", "decision_time_limit", "time_bank", "seeds", "rounds"} <= set(
        error["fields"]
    ), error


def test_solo_bad_difficulty_lists_the_difficulties(organiser):
    payload = {**LEAGUE, "mode": "solo", "seats": 1, "options": {"difficulty": "impossible"}}
    error = assert_error_body(
        client_for(organiser).post("/api/v1/leagues/", payload, format="json"), 400
    )
    for difficulty in ("easy", "medium", "hard", "very_hard", "expert"):
        assert difficulty.replace("_", " ") in error["message"]  # said plainly
        assert any(difficulty in m for m in error["fields"]["options"])  # as sent
    assert "'impossible'" in error["message"]
