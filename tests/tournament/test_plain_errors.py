"""Errors that say what is wrong, in plain words, and the right one first: a filter value that
cannot be read is a 400 with a message, every method an endpoint
does not take is a 405 with the error body, a request is refused for who sends it before its
fields are read, and a solo game without a difficulty says which difficulties there are."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.tournament.conftest import client_for
from tests.tournament.test_api_errors import assert_error_body
from tournament.models import League

pytestmark = pytest.mark.django_db

DIFFICULTY = "Solo leagues need a difficulty: easy, medium, hard, very hard or expert."


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("/api/v1/bots/?retired=null", "retired"),
        ("/api/v1/bots/?is_system=maybe", "is_system"),
        ("/api/v1/leagues/?seats=0.5", "seats"),
        ("/api/v1/leagues/?seats=two", "seats"),
        ("/api/v1/matches/?bot=0.5", "bot"),
        ("/api/v1/matches/?bot_version=x", "bot_version"),
        ("/api/v1/matches/?round=1.5", "round"),
        ("/api/v1/matches/?league=0.5", "league"),
        ("/api/v1/paired/?bot=0.5", "bot"),
    ],
)  # fmt: skip
def test_a_filter_value_that_cannot_be_read_is_a_400_that_names_it(path, field):
    error = assert_error_body(Client().get(path), 400)
    assert field in error["fields"], error
    assert field in error["message"].lower()  # "Seats: ...": a league's field as labelled


@pytest.mark.parametrize(
    "path",
    ["/api/v1/bots/?retired=true", "/api/v1/bots/?retired=0", "/api/v1/bots/?retired=False",
     "/api/v1/leagues/?seats=2", "/api/v1/matches/?bot=3", "/api/v1/matches/?round=1"],
)  # fmt: skip
def test_good_filter_values_still_filter(path):
    assert Client().get(path).status_code == 200


def test_a_boolean_filter_filters_both_ways(author, ready_version):
    from tournament.models import Bot

    ready_version(author, "kept")
    retired = ready_version(author, "old").bot
    Bot.objects.filter(pk=retired.pk).update(retired=True)
    names = {b["name"] for b in Client().get("/api/v1/bots/?retired=1").json()["results"]}
    assert names == {"old"}
    names = {b["name"] for b in Client().get("/api/v1/bots/?retired=false").json()["results"]}
    assert "kept" in names and "old" not in names


def _api_paths() -> list[str]:
    """Every path under /api/, its ids filled with 1."""
    paths: list[str] = []

    def walk(patterns: list, prefix: str) -> None:
        for p in patterns:
            route = prefix + str(p.pattern)
            if isinstance(p, URLResolver):
                walk(p.url_patterns, route)
            elif isinstance(p, URLPattern):
                paths.append("/" + route.replace("<int:", "<").split("<")[0]
                             + "".join("1" + part.split(">", 1)[1]
                                       for part in route.split("<")[1:]))  # fmt: skip

    walk(get_resolver().url_patterns, "")
    return sorted({p for p in paths if p.startswith("/api/") and "schema" not in p})


def test_every_api_path_answers_a_method_it_does_not_take_with_a_405_body(author):
    paths = _api_paths()
    assert "/api/v1/bot-versions/1/" in paths and "/api/v1/matches/1/replay" in paths
    client = client_for(author)
    checked = 0
    for path in paths:
        for method in ("PUT", "DELETE", "BREW"):
            response = client.generic(method, path)
            if response.status_code == 404:  # no object 1: the path still exists
                continue
            error = assert_error_body(response, 405)
            assert method in error["message"], (path, error)
            assert response["Allow"], path
            checked += 1
    assert checked >= 3 * len(paths) - 10


def test_a_non_organiser_is_refused_before_the_fields_are_read(author):
    response = client_for(author).post(
        "/api/v1/leagues/", {"name": "mine", "mode": "duel", "seats": 2,
                             "format": "round_robin", "colour": "red"}, format="json",
    )  # fmt: skip
    error = assert_error_body(response, 403, "permission_denied")
    assert "colour" not in error["fields"] and "colour" not in error["message"]
    assert not League.objects.exists()


def test_an_organiser_still_hears_about_the_unknown_field(organiser):
    response = client_for(organiser).post(
        "/api/v1/leagues/", {"name": "mine", "mode": "duel", "seats": 2,
                             "format": "round_robin", "colour": "red"}, format="json",
    )  # fmt: skip
    assert "colour" in assert_error_body(response, 400)["fields"]


def test_others_are_refused_before_the_fields_of_their_bots_and_leagues(
    author, other_author, organiser, ready_version
):
    bot = ready_version(author, "mine").bot
    stranger = client_for(other_author)
    response = stranger.patch(f"/api/v1/bots/{bot.pk}/", {"name": "?!"}, format="json")
    assert_error_body(response, 403, "permission_denied")
    response = stranger.post(f"/api/v1/bots/{bot.pk}/versions/", {}, format="multipart")
    assert_error_body(response, 403, "permission_denied")
    league = client_for(organiser).post(
        "/api/v1/leagues/", {"name": "l", "mode": "duel", "seats": 2, "format": "round_robin"},
        format="json",
    ).json()  # fmt: skip
    response = stranger.patch(f"/api/v1/leagues/{league['id']}/", {"ladder_order": "?"},
                              format="json")  # fmt: skip
    assert_error_body(response, 403, "permission_denied")
    response = stranger.post(f"/api/v1/leagues/{league['id']}/invitations/", {}, format="json")
    assert_error_body(response, 403, "permission_denied")


@pytest.mark.parametrize("difficulty", [None, ""])
def test_a_solo_league_without_a_difficulty_says_so_plainly(organiser, difficulty):
    options = {} if difficulty is None else {"difficulty": difficulty}
    response = client_for(organiser).post(
        "/api/v1/leagues/", {"name": "solo", "mode": "solo", "seats": 2, "options": options,
                             "format": "round_robin"}, format="json",
    )  # fmt: skip
    error = assert_error_body(response, 400)
    assert DIFFICULTY in error["message"]
    assert "A solo game has 1 seat, not 2." in error["message"]
    for internal in ("options.difficulty", "very_hard", "Got", "1 seats"):
        assert internal not in error["message"], error["message"]
    # the field's detail names the values as they are sent
    assert "very_hard" in " ".join(error["fields"]["options"])


def test_a_solo_challenge_says_games(author, ready_version):
    version = ready_version(author, "solo-bot")
    response = client_for(author).post(
        "/api/v1/challenges/", {"mode": "solo", "bot_versions": [version.pk],
                                "options": {"difficulty": "impossible"}}, format="json",
    )  # fmt: skip
    message = assert_error_body(response, 400)["message"]
    assert ("Solo games need a difficulty: easy, medium, hard, very hard or expert; "
            "'impossible' is not one.") in message  # fmt: skip


def test_the_site_form_says_it_next_to_the_difficulty(organiser):
    browser = Client()
    browser.force_login(organiser)
    page = browser.post("/leagues/new/", {
        "name": "solo", "mode": "solo", "seats": 1, "difficulty": "", "format": "round_robin",
        "rounds": 3, "seeds": 1, "decision_time_limit": 1, "time_bank": 30,
        "ladder_order": "elo", "public": "on",
    }).content.decode()  # fmt: skip
    assert DIFFICULTY in page
    assert "options.difficulty" not in page and "Got" not in page
    assert not League.objects.exists()
