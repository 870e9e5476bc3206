"""GET /api/v1/protocol/schema: the typed protocol, published for bot authors."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from engine import available_modes
from workers.protocol.schema import protocol_schema

from .conftest import client_for

pytestmark = pytest.mark.django_db


def test_schema_of_every_mode_without_an_account():
    response = client_for(None).get("/api/v1/protocol/schema")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == set(available_modes())
    for mode, schema in body.items():
        Draft202012Validator.check_schema(schema)
        assert schema == protocol_schema(mode)
    assert "max-age" in response["Cache-Control"]


def test_one_mode_and_conditional_get():
    anon = client_for(None)
    response = anon.get("/api/v1/protocol/schema?mode=duel")
    assert response.status_code == 200
    assert response.json()["title"].endswith("duel")
    again = anon.get("/api/v1/protocol/schema?mode=duel", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_unknown_mode_is_a_clear_400():
    response = client_for(None).get("/api/v1/protocol/schema?mode=chess")
    assert response.status_code == 400
    error = response.json()["error"]
    assert "chess" in error["message"] and "duel" in error["message"]


def test_game_data_of_every_mode_without_an_account():
    from engine.game_data import game_data

    anon = client_for(None)
    for mode in available_modes():
        response = anon.get(f"/api/v1/protocol/game-data?mode={mode}")
        assert response.status_code == 200
        body = response.json()
        assert body == game_data(mode)
        assert response["ETag"] == f'"{body["version"]}"' and "max-age" in response["Cache-Control"]
        schema = protocol_schema(mode)
        Draft202012Validator({"$defs": schema["$defs"],
                              "$ref": f"#/$defs/game_data_{mode}"}).validate(body)
    again = anon.get("/api/v1/protocol/game-data?mode=duel",
                     HTTP_IF_NONE_MATCH=f'"{game_data("duel")["version"]}"')
    assert again.status_code == 304


@pytest.mark.parametrize(("query", "said"), [("?mode=chess", "unknown mode 'chess'"),
                                             ("", "mode is required")])
def test_game_data_of_an_unknown_or_missing_mode_is_a_clear_400(query, said):
    response = client_for(None).get(f"/api/v1/protocol/game-data{query}")
    assert response.status_code == 400
    error = response.json()["error"]
    assert said in error["message"] and "duel" in error["message"]
    assert "mode" in error["fields"]


def test_game_data_is_in_the_openapi_schema():
    response = client_for(None).get("/api/schema/")
    assert response.status_code == 200
    assert "/api/v1/protocol/game-data" in response.content.decode()
