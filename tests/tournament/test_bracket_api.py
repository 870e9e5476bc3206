"""The API of brackets: create with bracket settings (400s with a plain message), the
bracket endpoint while it runs and after, and the podium of the league detail."""

from __future__ import annotations

import pytest

from tests.tournament.conftest import client_for
from tournament.models import League

pytestmark = pytest.mark.django_db


def _create(client, **fields):
    body = {"name": "Cup", "mode": "duel", "seats": 2, "format": "double_elim", **fields}
    return client.post("/api/v1/leagues/", body, format="json")


def test_bad_bracket_settings_get_a_400_with_a_plain_message(organiser):
    client = client_for(organiser)
    response = _create(client, best_of=2)
    assert response.status_code == 400
    assert "Best of must be an odd number" in response.json()["error"]["message"]
    response = _create(client, format="knockout", seats=2)
    assert response.status_code == 400 and "3- and 4-seat" in response.json()["error"]["message"]
    response = _create(client, format="ladder", best_of=3)
    assert response.status_code == 400 and "Best of" in response.json()["error"]["message"]
    assert not League.objects.exists()


def test_a_bracket_of_one_entrant_gets_a_400_at_start(organiser, ready_version):
    client = client_for(organiser)
    league = _create(client, best_of=3, seeding="random").json()
    version = ready_version(organiser, "lonely")
    client.post(f"/api/v1/leagues/{league['id']}/entries/", {"bot_version": version.pk},
                format="json")  # fmt: skip
    response = client.post(f"/api/v1/leagues/{league['id']}/start/")
    assert response.status_code == 400
    assert (
        response.json()["error"]["message"]
        == "A bracket needs at least 2 entrants; this one has 1."
    )


def test_bracket_and_podium_in_the_api(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    runner.scores = lambda spec: [float(s["name"][1:3]) for s in spec["seats"]]
    client = client_for(organiser)
    created = _create(client, best_of=3, seeding="random")
    assert created.status_code == 201, created.json()
    league = created.json()
    assert league["bracket"]["best_of"] == 3 and league["podium"] == []
    for i, strength in enumerate([11, 44, 22, 33]):
        version = ready_version(organiser, f"s{strength}-{i}")
        client.post(f"/api/v1/leagues/{league['id']}/entries/", {"bot_version": version.pk},
                    format="json")  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(f"/api/v1/leagues/{league['id']}/start/").status_code == 200
    detail = client_for(None).get(f"/api/v1/leagues/{league['id']}/").json()
    assert detail["status"] == "closed"
    podium = detail["podium"]
    assert [(p["place"], p["bot_name"][:3]) for p in podium] == [(1, "s44"), (2, "s33"),
                                                                (3, "s22")]  # fmt: skip
    assert podium[0]["result"] == "Champion" and podium[0]["figures"]["series_won"] >= 2
    bracket = client_for(None).get(f"/api/v1/leagues/{league['id']}/bracket/").json()
    titles = [section["title"] for section in bracket["sections"]]
    assert titles == ["Winners' bracket", "Losers' bracket", "Grand final"]
    final = bracket["sections"][2]["columns"][0]["series"][0]
    assert final["key"] == "GF" and len(final["matches"]) == 2
    assert [s["won"] for s in final["slots"]].count(True) == 1
    titles = client_for(None).get(f"/api/v1/bots/{podium[0]['bot']}/").json()["titles"]
    assert [(t["place"], t["league_name"], t["result"]) for t in titles] == [
        (1, "Cup", "Champion")
    ]
    ladder = _create(client, name="Plain", format="ladder", seeding="ratings").json()
    assert client.get(f"/api/v1/leagues/{ladder['id']}/bracket/").status_code == 404


def test_a_private_bracket_and_its_titles_stay_private(
    organiser, ready_version, runner, django_capture_on_commit_callbacks, make_user
):
    client = client_for(organiser)
    league = _create(client, name="Secret cup", best_of=1, seeding="random", public=False).json()
    versions = [ready_version(organiser, f"hidden-{i}") for i in range(2)]
    for version in versions:
        client.post(f"/api/v1/leagues/{league['id']}/entries/", {"bot_version": version.pk},
                    format="json")  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/api/v1/leagues/{league['id']}/start/")
    stranger = client_for(make_user("stranger"))
    for who in (client_for(None), stranger):
        assert who.get(f"/api/v1/leagues/{league['id']}/bracket/").status_code == 404
        assert who.get(f"/api/v1/leagues/{league['id']}/").status_code == 404
        for version in versions:
            assert who.get(f"/api/v1/bots/{version.bot_id}/").json()["titles"] == []
    mine = [client.get(f"/api/v1/bots/{v.bot_id}/").json()["titles"] for v in versions]
    assert sorted(t[0]["place"] for t in mine) == [1, 2]  # the organiser sees them
