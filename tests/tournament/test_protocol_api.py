"""GET /api/v1/protocol/schema: the typed protocol, published for bot authors."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from engine import available_modes
from workers.protocol_schema import protocol_schema

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
