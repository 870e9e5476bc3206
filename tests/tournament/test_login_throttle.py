"""Password guessing is throttled per client address, per account at an address and, slowing
rather than locking, per account from every address: 429 with Retry-After,
the right password included, on the API token endpoint and the login form, and never for the
owner of an account that somebody else guesses at. Behind the proxy the address is the
client's, from X-Forwarded-For (tests/tournament/test_client_address.py)."""

from __future__ import annotations

import json
import re
import time

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


class Clock:
    """time.time() for the throttle and the cache's expiry, moved by hand."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = time.time()
        monkeypatch.setattr(time, "time", lambda: self.now)

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch) -> Clock:
    return Clock(monkeypatch)


def _login_form(client: Client, username: str, password: str, address: str):
    return client.post(LOGIN, {"username": username, "password": password},
                       REMOTE_ADDR=address)  # fmt: skip


def test_guessing_from_many_addresses_never_locks_the_owner_out(make_user, clock):
    """Thirty addresses guess twelve times each: each of them is refused, the owner is not:
    at once from an address they logged in from before, after a short wait from a new one."""
    make_user("victim")
    client = Client()
    assert _login_form(client, "victim", PASSWORD, "192.0.2.7").status_code == 302  # home
    client.logout()
    for a in range(30):
        statuses = [_token(client, "victim", "wrong", f"10.0.1.{a}").status_code
                    for _ in range(12)]  # fmt: skip
        assert statuses[-1] == 429, statuses
    assert _token(client, "victim", PASSWORD, address="192.0.2.7").status_code == 200
    abroad = _token(client, "victim", PASSWORD, address="10.9.9.9")
    assert abroad.status_code == 429 and 0 < int(abroad["Retry-After"]) <= 10
    clock.advance(int(abroad["Retry-After"]))
    assert _token(client, "victim", PASSWORD, address="10.9.9.9").status_code == 200


def test_an_account_under_attack_is_slowed_for_every_new_address(make_user, clock):
    """Past LOGIN_FAILURES_PER_ACCOUNT_TOTAL failures from every address together, the
    addresses that never logged in to the account share one try per
    LOGIN_UNDER_ATTACK_SPACING_SECONDS, and each has one try per window: the attacker's
    guesses are spaced out however many addresses it has. The owner's right password gets in
    from a new address after that wait; an address the owner logged in from keeps the full
    allowance and waits for nothing."""
    make_user("victim")
    client = Client()
    home = _login_form(client, "victim", PASSWORD, "192.0.2.7")
    assert home.status_code == 302  # logged in once from home
    client.logout()
    for a in range(5):  # a botnet: 5 addresses x 4 wrong passwords = 20 failures
        for _ in range(4):
            assert _token(client, "victim", "wrong", f"10.0.4.{a}").status_code == 400
    assert _token(client, "victim", "wrong", "10.0.5.1").status_code == 400  # a turn...
    assert _token(client, "victim", "wrong", "10.0.5.2").status_code == 429  # ...then a wait
    clock.advance(10)
    assert _token(client, "victim", "wrong", "10.0.5.1").status_code == 429  # its one try used
    assert _token(client, "victim", PASSWORD, "10.0.5.2").status_code == 200  # owner, abroad
    for _ in range(3):  # the owner's typos at home are forgiven as usual, without waiting
        assert _token(client, "victim", "wrong", "192.0.2.7").status_code == 400
    assert _token(client, "victim", PASSWORD, "192.0.2.7").status_code == 200
    # A token login (`arena login`) marks its address as known too: 10.0.5.2 waits no more.
    for _ in range(3):
        assert _token(client, "victim", "wrong", "10.0.5.2").status_code == 400
    # Another account is not slowed at all.
    make_user("bystander")
    for _ in range(3):
        assert _token(client, "bystander", "wrong", "10.0.6.1").status_code == 400


def test_forged_forwarded_addresses_from_inside_a_private_range_are_throttled(
    make_user, settings
):
    """The compose default trusts the proxy's one address: a client elsewhere in the private
    network (here 172.29.80.23, beside the proxy at 172.29.80.10) that sends a new
    X-Forwarded-For with each guess is still counted as itself, and refused."""
    from tournament.client_address import trusted_networks

    settings.TRUSTED_PROXIES = ["172.29.80.10"]
    settings.TRUSTED_PROXY_NETWORKS = trusted_networks(settings.TRUSTED_PROXIES)
    make_user("victim")
    client = Client()
    statuses = [
        client.post(TOKEN, {"username": "victim", "password": f"guess-{i}"},
                    content_type="application/json", REMOTE_ADDR="172.29.80.23",
                    HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code  # fmt: skip
        for i in range(25)
    ]
    assert statuses[:10] == [400] * 10 and set(statuses[10:]) == {429}
    # The owner, through the proxy from their own address, is not refused.
    owner = client.post(TOKEN, {"username": "victim", "password": PASSWORD},
                        content_type="application/json", REMOTE_ADDR="172.29.80.10",
                        HTTP_X_FORWARDED_FOR="203.0.113.40")  # fmt: skip
    assert owner.status_code == 200


def test_the_account_count_holds_whatever_address_a_guess_comes_from(make_user, clock):
    """Even if every guess had an address of its own (a proxy trusted too widely, a botnet,
    an IPv6 block), the account's own count slows them: of 25 guesses from 25 addresses, those
    after the 20th wait their turn. The owner then logs in from a new address after the wait."""
    make_user("victim")
    client = Client()
    statuses = [_token(client, "victim", f"guess-{i}", f"10.1.0.{i}").status_code
                for i in range(25)]  # fmt: skip
    assert statuses[:21] == [400] * 21 and set(statuses[21:]) == {429}
    clock.advance(10)
    assert _token(client, "victim", PASSWORD, "10.2.0.1").status_code == 200


def test_a_password_reset_lets_the_owner_in_from_a_new_address_at_once(make_user, mailoutbox):
    """Under attack, a new address waits its turn; one that has just proved the mailbox (the
    password reset's link) is known to the account, and logs in without waiting."""
    user = make_user("victim")
    user.email = "victim@example.com"
    user.save(update_fields=["email"])
    client = Client()
    for i in range(21):  # over the total; the last guess took the strangers' turn
        _token(client, "victim", "wrong", f"10.3.0.{i}")
    assert _token(client, "victim", PASSWORD, "10.9.9.9").status_code == 429
    browser = Client(REMOTE_ADDR="10.9.9.9")
    browser.post("/accounts/password/reset/", {"email": "victim@example.com"})
    link = re.search(r"http://testserver(\S+)", mailoutbox[0].body).group(1)
    form = browser.get(link, follow=True)
    done = browser.post(form.redirect_chain[-1][0], {"new_password1": "th1rd-Secret!",
                                                     "new_password2": "th1rd-Secret!"})
    assert done.status_code == 302
    assert _token(client, "victim", "th1rd-Secret!", "10.9.9.9").status_code == 200


def test_an_ipv6_client_is_counted_by_its_slash_64(make_user):
    """Every address of one /64 is one client: a fresh address per guess does not reset it."""
    make_user("victim")
    client = Client()
    statuses = [_token(client, "victim", "wrong", f"2001:db8:1:2::{i:x}").status_code
                for i in range(12)]  # fmt: skip
    assert statuses[:10] == [400] * 10 and statuses[10:] == [429, 429]
    assert _token(client, "victim", PASSWORD, "2001:db8:1:3::1").status_code == 200


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
    right = client.post(LOGIN, {"username": "victim", "password": PASSWORD},
                        REMOTE_ADDR="10.0.3.1")  # fmt: skip
    assert right.status_code == 429 and int(right["Retry-After"]) > 0
    assert b"Too many failed logins from this address" in right.content
    owner = client.post(LOGIN, {"username": "victim", "password": PASSWORD},
                        REMOTE_ADDR="10.0.3.2")  # fmt: skip
    assert owner.status_code == 302


def test_behind_the_proxy_each_client_has_its_own_counts(make_user, settings):
    """Every request comes from the proxy's address: with TRUSTED_PROXIES naming it, the
    attacker's failures count against the attacker's address (X-Forwarded-For), and a forged
    header cannot shift them onto someone else."""
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    from tournament.client_address import trusted_networks

    settings.TRUSTED_PROXY_NETWORKS = trusted_networks(settings.TRUSTED_PROXIES)
    make_user("victim")
    make_user("other")
    client = Client()

    def via_proxy(username: str, password: str, forwarded: str):
        return client.post(
            TOKEN, {"username": username, "password": password},
            content_type="application/json", REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=forwarded,
        )  # fmt: skip

    for i in range(60):  # one attacker, many accounts, each request forging a different origin
        via_proxy(f"user{i}", "wrong", f"198.51.100.{i}, 203.0.113.66")
    assert via_proxy("victim", PASSWORD, "203.0.113.66").status_code == 429
    assert via_proxy("other", PASSWORD, "203.0.113.9").status_code == 200
    assert via_proxy("victim", PASSWORD, "203.0.113.66, 203.0.113.10").status_code == 200


def test_after_login_the_user_lands_on_a_page_that_exists(make_user):
    make_user("walker")
    client = Client()
    response = client.post(LOGIN, {"username": "walker", "password": PASSWORD}, follow=True)
    assert response.status_code == 200, response.redirect_chain
    assert not response.request["PATH_INFO"].startswith("/api/")
