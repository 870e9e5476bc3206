"""`/api/schema/` is generated once per process and then served as kept: two requests (in
YAML and in JSON) generate it once, and both carry the same schema."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from django.test import Client

from tournament.api.schema_views import CachedSchemaView

pytestmark = pytest.mark.django_db


def test_the_schema_is_generated_once_across_requests(monkeypatch) -> None:
    monkeypatch.setattr(CachedSchemaView, "schemas", {})
    monkeypatch.setattr(CachedSchemaView, "generated", 0)
    calls = []
    original = CachedSchemaView.generator_class.get_schema

    def counted(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003 - the generator's own
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(CachedSchemaView.generator_class, "get_schema", counted)
    client = Client()
    first = client.get("/api/schema/")
    second = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert first.status_code == second.status_code == 200
    assert len(calls) == 1 and CachedSchemaView.generated == 1
    assert yaml.safe_load(first.content) == json.loads(second.content)
    assert "/api/v1/leagues/" in json.loads(second.content)["paths"]


def test_the_docs_page_is_served_from_this_server(client: Client) -> None:
    page = client.get("/api/docs/").content.decode()
    # every script and stylesheet from this server (a CSRF token may spell "cdn" by chance)
    assert not re.search(r"""(src|href)=["'](https?:)?//""", page) and "cdn." not in page.lower()
    assert "/static/drf_spectacular_sidecar/" in page
    assert '"defaultModelsExpandDepth": -1' in page
