"""The client's address behind the deployment's proxies (tournament/client_address.py): the
right-most X-Forwarded-For hop that is not a trusted proxy, read only from a trusted peer."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from tournament.client_address import client_address, trusted_networks


@pytest.fixture
def proxies(settings):
    def use(*values: str) -> None:
        settings.TRUSTED_PROXIES = list(values)
        settings.TRUSTED_PROXY_NETWORKS = trusted_networks(values)

    return use


def _address(remote: str, forwarded: str | None = None) -> str | None:
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return client_address(RequestFactory().get("/", **extra))


def test_without_trusted_proxies_the_header_is_ignored(proxies) -> None:
    proxies()
    assert _address("203.0.113.5", "198.51.100.1") == "203.0.113.5"


def test_a_trusted_peer_names_the_client_as_the_right_most_hop(proxies) -> None:
    proxies("127.0.0.1")
    assert _address("127.0.0.1", "203.0.113.5") == "203.0.113.5"
    # What the client put to the left of its own address is not believed.
    assert _address("127.0.0.1", "198.51.100.1, 203.0.113.5") == "203.0.113.5"
    # An untrusted peer's header is ignored, whatever it says.
    assert _address("203.0.113.9", "198.51.100.1") == "203.0.113.9"


def test_chains_of_trusted_proxies_and_networks(proxies) -> None:
    proxies("10.0.0.0/8", "2001:db8::/32")
    assert _address("10.1.2.3", "203.0.113.5, 10.9.9.9") == "203.0.113.5"
    assert _address("2001:db8::1", "2001:db8::2, 2001:db8::7") == "2001:db8::2"
    assert _address("10.1.2.3", "10.2.2.2, 10.3.3.3") == "10.2.2.2"  # every hop ours
    assert _address("10.1.2.3", "[2001:db8:1::5]:443, 10.3.3.3") == "2001:db8:1::5"
    assert _address("10.1.2.3", "203.0.113.5:51000") == "203.0.113.5"


def test_a_malformed_hop_ends_the_walk(proxies) -> None:
    proxies("10.0.0.0/8")
    assert _address("10.1.2.3", "203.0.113.5, unknown") == "10.1.2.3"
    assert _address("10.1.2.3", "") == "10.1.2.3"
    assert _address("10.1.2.3", "unknown, 10.4.4.4") == "10.4.4.4"


def test_a_bad_setting_fails_clearly() -> None:
    with pytest.raises(ValueError, match="TRUSTED_PROXIES: 'nginx' is not an address"):
        trusted_networks(["10.0.0.1", "nginx"])
