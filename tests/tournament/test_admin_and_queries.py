"""The Django admin lists every tournament model; list endpoints cost a fixed number of queries."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tournament.services import leagues as ls

from .conftest import client_for

pytestmark = pytest.mark.django_db

MODELS = [
    "bot", "botversion", "league", "leagueentry", "leagueinvitation", "match", "matchseat",
    "ratingchange", "pairedcomparison", "workerheartbeat",
]  # fmt: skip


@pytest.fixture
def played(organiser, ready_version, runner, django_capture_on_commit_callbacks):
    league = ls.league_create(
        organiser=organiser, name="q", mode="family", seats=3, format="round_robin"
    )
    for i in range(4):
        version = ready_version(organiser, f"q{i}")
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    return league


def test_admin_lists_every_model(client, played):
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw-12345!")
    client.force_login(admin)
    for model in MODELS:
        response = client.get(f"/admin/tournament/{model}/")
        assert response.status_code == 200, model
    match = played.matches.first()
    assert client.get(f"/admin/tournament/match/{match.pk}/change/").status_code == 200


def test_lists_do_not_grow_queries_with_rows(played, django_assert_max_num_queries):
    anon = client_for(None)
    assert played.matches.count() == 12  # C(4, 3) tables x 3 rotations
    with django_assert_max_num_queries(3):  # the page's ids, its matches, their seats
        assert len(anon.get("/api/v1/matches/").json()["results"]) == 12
    with django_assert_max_num_queries(4):
        assert len(anon.get(f"/api/v1/leagues/{played.pk}/ladder/").json()["results"]) == 4
    with django_assert_max_num_queries(4):
        assert anon.get("/api/v1/bots/").json()["count"] == 4
