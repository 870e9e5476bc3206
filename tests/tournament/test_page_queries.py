"""Issue 16: the queries a list page costs do not grow with its rows (API lists, ladder, league
page, bot page, match list page), lists ship summaries and page by keyset, and the anonymous
page cache is dropped by any write."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tournament.models import Match
from tournament.services import leagues as ls

from .conftest import client_for

pytestmark = pytest.mark.django_db

# page -> most queries it may make (the same at every size, see below)
BUDGETS = {
    "api_matches": 6,
    "api_matches_keyset": 7,
    "api_ladder": 4,
    "api_bots": 4,
    "api_leagues": 3,
    "api_history": 4,
    "api_bot": 6,
    "html_matches": 8,
    "html_league": 16,
    "html_bot": 16,
}


def _league(organiser: Any, ready_version: Any, name: str, entrants: int, capture: Any) -> Any:
    league = ls.league_create(
        organiser=organiser, name=name, mode="family", seats=3, format="round_robin"
    )
    for i in range(entrants):
        version = ready_version(organiser, f"{name}{i}")
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    with capture(execute=True):
        ls.league_start(league=league, user=organiser)
    return league


def _urls(league: Any) -> dict[str, str]:
    bot = league.entries.order_by("pk").first().bot_version.bot
    middle = Match.objects.order_by("-created_at", "-id")[1]
    return {
        "api_matches": "/api/v1/matches/",
        "api_matches_keyset": f"/api/v1/matches/?before={middle.pk}",
        "api_ladder": f"/api/v1/leagues/{league.pk}/ladder/",
        "api_bots": "/api/v1/bots/",
        "api_leagues": "/api/v1/leagues/",
        "api_history": f"/api/v1/leagues/{league.pk}/history/",
        "api_bot": f"/api/v1/bots/{bot.pk}/",
        "html_matches": "/matches/",
        "html_league": f"/leagues/{league.pk}/",
        "html_bot": f"/bots/{bot.pk}/",
    }


def _queries(urls: dict[str, str]) -> dict[str, int]:
    client, counts = Client(), {}
    for name, url in urls.items():
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        counts[name] = len(ctx.captured_queries)
    return counts


def test_queries_per_page_are_constant_in_rows(
    organiser, ready_version, runner, django_capture_on_commit_callbacks,
    django_assert_max_num_queries,
):  # fmt: skip
    small = _league(organiser, ready_version, "s", 3, django_capture_on_commit_callbacks)
    assert small.matches.count() == 3  # one table of three, three seat rotations
    few = _queries(_urls(small))
    big = _league(organiser, ready_version, "b", 6, django_capture_on_commit_callbacks)
    assert big.matches.count() == 60  # C(6, 3) tables x 3 rotations
    many = _queries(_urls(big))
    assert many == few  # 20x the matches of the league (and 21x in all): the same queries
    client = Client()
    for name, url in _urls(big).items():
        with django_assert_max_num_queries(BUDGETS[name]):
            assert client.get(url).status_code == 200


def test_match_lists_ship_summaries_and_page_by_keyset(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    _league(organiser, ready_version, "k", 5, django_capture_on_commit_callbacks)
    anon = client_for(None)
    newest = list(Match.objects.order_by("-created_at", "-id").values_list("pk", flat=True))
    first = anon.get("/api/v1/matches/").json()
    assert first["count"] == len(newest) == 30
    assert "result" not in first["results"][0] and "seats" in first["results"][0]
    assert "result" in anon.get(f"/api/v1/matches/{newest[0]}/").json()  # the detail has it
    seen, url = [], f"/api/v1/matches/?before={newest[3]}"
    while url:
        page = anon.get(url).json()
        assert page["count"] is None and page["previous"] is None
        seen += [m["id"] for m in page["results"]]
        url = page["next"]
    assert seen == newest[4:]
    league_id = Match.objects.first().league_id
    only = anon.get(f"/api/v1/matches/?before={newest[0]}&league={league_id}&round=1").json()
    assert {m["league"] for m in only["results"]} == {league_id}
    bad = anon.get("/api/v1/matches/?before=x")
    assert bad.status_code == 400 and "before" in bad.json()["error"]["message"]
    assert anon.get("/api/v1/matches/?before=999999").status_code == 400


def test_page_cache_serves_anonymous_reads_until_a_write(
    settings, organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    settings.PAGE_CACHE_SECONDS = 30
    league = _league(organiser, ready_version, "c", 3, django_capture_on_commit_callbacks)
    anon = Client()
    url = f"/api/v1/leagues/{league.pk}/ladder/"
    first = anon.get(url)
    again = anon.get(url)
    assert again["X-Page-Cache"] == "hit" and again.content == first.content
    signed_in = client_for(organiser).get(url)
    assert "X-Page-Cache" not in signed_in  # credentials: never from the cache
    with django_capture_on_commit_callbacks(execute=True):
        entry = league.entries.order_by("pk").first()
        entry.rating = 2000.0
        entry.save()
    fresh = anon.get(url)
    assert "X-Page-Cache" not in fresh
    assert max(row["elo"] for row in fresh.json()["results"]) == 2000.0


def test_placements_are_counted_with_each_result(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    from collections import Counter

    from tournament.models import MatchSeat

    league = _league(organiser, ready_version, "p", 4, django_capture_on_commit_callbacks)
    for entry in league.entries.all():
        ranks = Counter(MatchSeat.objects.filter(
            match__league=league, bot_version=entry.bot_version
        ).values_list("rank", flat=True))  # fmt: skip
        expected = [ranks.get(r, 0) for r in range(1, max(ranks) + 1)]
        assert entry.placements == expected and sum(expected) == entry.games == 9
