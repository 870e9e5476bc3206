"""Sign-up is throttled per client address (SIGNUPS_PER_ADDRESS, default 5 an hour): the next
account from that address is refused with 429, Retry-After and a sentence, on the API and on
the site's form alike, so the per-user limits cannot be multiplied by making users. Other
addresses sign up as usual; a forged X-Forwarded-For does not make a new address."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tournament.client_address import trusted_networks

pytestmark = pytest.mark.django_db

API = "/api/v1/accounts/"
SITE = "/accounts/signup/"


def _api_signup(client: Client, name: str, address: str, **extra):
    return client.post(API, {"username": name, "password": "kitten-boat-42",
                             "email": f"{name}@example.com"},
                       content_type="application/json", REMOTE_ADDR=address, **extra)  # fmt: skip


def _site_signup(name: str, address: str):
    return Client().post(SITE, {"username": name, "email": f"{name}@example.com",
                                "password1": "kitten-boat-42", "password2": "kitten-boat-42"},
                         REMOTE_ADDR=address)  # fmt: skip


def test_the_sixth_api_sign_up_from_one_address_is_refused() -> None:
    client = Client()
    statuses = [_api_signup(client, f"rapid{i}", "198.51.100.7").status_code for i in range(12)]
    assert statuses == [201] * 5 + [429] * 7
    refused = _api_signup(client, "rapid99", "198.51.100.7")
    assert 0 < int(refused["Retry-After"]) <= 3600
    error = refused.json()["error"]
    assert error["code"] == "throttled"
    assert error["message"].startswith("Too many new accounts from this address: at most 5 in")
    assert get_user_model().objects.filter(username__startswith="rapid").count() == 5
    assert _api_signup(client, "elsewhere", "198.51.100.8").status_code == 201


def test_the_site_form_says_so_with_429_and_shares_the_count() -> None:
    for i in range(3):
        assert _site_signup(f"form{i}", "203.0.113.5").status_code == 302
    for i in range(2):
        assert _api_signup(Client(), f"api{i}", "203.0.113.5").status_code == 201
    refused = _site_signup("form-late", "203.0.113.5")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many new accounts from this address" in refused.content.decode()
    assert not get_user_model().objects.filter(username="form-late").exists()
    assert _site_signup("form-other", "203.0.113.6").status_code == 302


def test_a_forged_forwarded_header_is_not_a_new_address(settings) -> None:
    settings.TRUSTED_PROXIES = ["172.29.80.10"]
    settings.TRUSTED_PROXY_NETWORKS = trusted_networks(settings.TRUSTED_PROXIES)
    client = Client()
    statuses = [
        _api_signup(client, f"forger{i}", "172.29.80.23",
                    HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code  # fmt: skip
        for i in range(8)
    ]
    assert statuses == [201] * 5 + [429] * 3
    # Through the proxy, each client is counted as itself.
    via_proxy = _api_signup(client, "proxied", "172.29.80.10",
                            HTTP_X_FORWARDED_FOR="192.0.2.44")  # fmt: skip
    assert via_proxy.status_code == 201
