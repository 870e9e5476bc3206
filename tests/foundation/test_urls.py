"""The root URLconf answers: health probe, admin, and the OpenAPI schema (in-process, fast)."""

import pytest
from django.test import Client


@pytest.mark.django_db
def test_healthz_checks_the_database(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_admin_login_page(client: Client) -> None:
    assert client.get("/admin/login/").status_code == 200


def test_openapi_schema(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert response.json()["info"]["title"] == "Isle Arena API"
