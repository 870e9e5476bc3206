"""One 405 page: a method a read-only page does not take is answered with the site's 405 page
(never the page itself, nor "the form expired" of a missing CSRF token), and the API answers
405 with its JSON error body."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tournament.get_only import SAFE_METHODS, allowed_methods

pytestmark = pytest.mark.django_db


def _patterns(resolver: URLResolver, prefix: str = "") -> list[tuple[str, URLPattern]]:
    out = []
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            out += _patterns(entry, prefix + str(entry.pattern))
        else:
            out.append((prefix + str(entry.pattern), entry))
    return out


@pytest.mark.parametrize("logged_in", [False, True])
@pytest.mark.parametrize("path", ["/", "/leagues/", "/matches/", "/bots/", "/write-a-bot/",
                                  "/docs/protocol/"])  # fmt: skip
def test_a_post_to_a_page_is_the_405_page(path: str, logged_in: bool, author) -> None:
    client = Client(enforce_csrf_checks=True)  # as a browser: no token sent with this POST
    if logged_in:
        client.force_login(author)
    response = client.post(path, {"x": "1"})
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"
    page = response.content.decode()
    assert "405 — not like this" in page and "does not take a POST request" in page
    assert "form expired" not in page.lower()


def test_the_pages_of_the_site_that_are_only_read_are_marked() -> None:
    """Every page view without a form (no POST branch) is marked GET-only."""
    marked = {path for path, p in _patterns(get_resolver())
              if allowed_methods(p.callback) == SAFE_METHODS}  # fmt: skip
    for path in ("", "leagues/", "leagues/<int:league_id>/", "matches/<int:match_id>/",
                 "bots/<int:bot_id>/", "dashboard/", "accounts/", "replays/<int:match_id>/",
                 "leagues/<int:league_id>/bracket/", "paired/<int:comparison_id>/"):
        assert path in marked, path


def test_a_form_page_still_takes_its_post(client: Client, organiser) -> None:
    client.force_login(organiser)
    response = client.post("/leagues/new/", {"name": ""})
    assert response.status_code == 200  # the form again, with its errors


def test_the_api_answers_405_in_json(client: Client, author) -> None:
    response = client.delete("/api/v1/leagues/")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"
    client.force_login(author)
    response = client.put("/api/v1/matches/")
    assert response.status_code == 405 and "error" in response.json()
