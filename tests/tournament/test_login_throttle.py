"""Password guessing is throttled per account and per client address (issue 11): 429 with
Retry-After, the right password included, on the API token endpoint and the login form."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.accounts import PASSWORD

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token/"
LOGIN = "/accounts/login/"


def _token(client: Client, username: str, password: str, address: str = "10.0.0.1"):
    return client.post(
        TOKEN, {"username": username, "password": password}, content_type="application/json",
        REMOTE_ADDR=address,
    )  # fmt: skip


def test_thirty_wrong_passwords_for_one_account_get_429_then_even_the_right_one(make_user):
    make_user("victim")
    client = Client()
    statuses = [_token(client, "victim", f"guess-{i}").status_code for i in range(30)]
    assert 429 in statuses
    assert set(statuses[: statuses.index(429)]) == {400}
    assert set(statuses[statuses.index(429):]) == {429}
    right = _token(client, "victim", PASSWORD)
    assert right.status_code == 429
    assert 0 < int(right["Retry-After"]) <= 900
    error = json.loads(right.content)["error"]
    assert error["code"] == "throttled" and "try again" in error["message"]


def test_the_account_is_locked_from_every_address(make_user):
    make_user("victim")
    client = Client()
    for i in range(30):
        _token(client, "victim", "wrong", address=f"10.0.1.{i}")
    assert _token(client, "victim", PASSWORD, address="10.9.9.9").status_code == 429


def test_an_address_guessing_many_accounts_is_locked(make_user, settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT = 1000
    make_user("someone")
    client = Client()
    for i in range(60):
        _token(client, f"user{i}", "wrong", address="10.0.2.1")
    assert _token(client, "someone", PASSWORD, address="10.0.2.1").status_code == 429
    assert _token(client, "someone", PASSWORD, address="10.0.2.2").status_code == 200


def test_a_few_typos_do_not_lock_out(make_user):
    make_user("typist")
    client = Client()
    for _ in range(3):
        assert _token(client, "typist", "wrong").status_code == 400
    response = _token(client, "typist", PASSWORD)
    assert response.status_code == 200 and json.loads(response.content)["token"]


def test_the_login_form_is_throttled_too(make_user):
    make_user("victim")
    client = Client()
    statuses = [
        client.post(LOGIN, {"username": "victim", "password": f"g{i}"},
                    REMOTE_ADDR="10.0.3.1").status_code  # fmt: skip
        for i in range(30)
    ]
    assert statuses[0] == 200 and statuses[-1] == 429
    right = client.post(LOGIN, {"username": "victim", "password": PASSWORD})
    assert right.status_code == 429 and int(right["Retry-After"]) > 0


def test_after_login_the_user_lands_on_a_page_that_exists(make_user):
    make_user("walker")
    client = Client()
    response = client.post(LOGIN, {"username": "walker", "password": PASSWORD}, follow=True)
    assert response.status_code == 200, response.redirect_chain
    assert not response.request["PATH_INFO"].startswith("/api/")
