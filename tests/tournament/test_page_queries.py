"""The queries a list page costs do not grow with its rows (API lists, ladder, league
page, bot page, match list page), lists ship summaries and page by keyset, and the anonymous
page cache is dropped by any write."""

from __future__ import annotations

import json
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
    "api_matches": 3,  # the page's ids, its matches, their seats: no COUNT
    "api_matches_keyset": 4,  # and the anchor row
    "api_ladder": 4,
    "api_bots": 4,
    "api_leagues": 3,
    "api_history": 4,
    "api_bot": 8,  # with its titles (podium places) and its boss leagues
    "html_matches": 3,
    "html_leagues": 2,  # the count for the pager, the page with entrants and leaders
    # head-to-head and chart from kept rows, not from the history; faults by kind; the podium
    # (closed) and the playoff that follows it (linked before and after the close)
    "html_league": 11,
    "html_bot": 15,  # with its titles (podium places) and its boss leagues
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
        "html_leagues": "/leagues/",
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
    settings, organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "PAGE_SIZE": 7}
    _league(organiser, ready_version, "k", 5, django_capture_on_commit_callbacks)
    anon = client_for(None)
    newest = list(Match.objects.order_by("-created_at", "-id").values_list("pk", flat=True))
    assert len(newest) == 30
    first = anon.get("/api/v1/matches/").json()
    assert first["count"] is None and first["previous"] is None  # never counted
    assert "result" not in first["results"][0] and "seats" in first["results"][0]
    assert "result" in anon.get(f"/api/v1/matches/{newest[0]}/").json()  # the detail has it
    seen, url = [], "/api/v1/matches/"
    while url:  # `next` continues by keyset from any page
        page = anon.get(url).json()
        assert page["count"] is None
        seen += [m["id"] for m in page["results"]]
        url = page["next"]
    assert seen == newest
    seen, url = [], f"/api/v1/matches/?before={newest[3]}"
    while url:
        page = anon.get(url).json()
        assert page["previous"] is None
        seen += [m["id"] for m in page["results"]]
        url = page["next"]
    assert seen == newest[4:]
    third = anon.get("/api/v1/matches/?page=3").json()  # numbered pages still work
    assert [m["id"] for m in third["results"]] == newest[14:21]
    assert third["previous"].endswith("?page=2") and third["next"].endswith(f"?before={newest[20]}")
    assert anon.get("/api/v1/matches/?page=2").json()["previous"].endswith("/api/v1/matches/")
    assert anon.get("/api/v1/matches/?page=5").json()["next"] is None
    assert anon.get("/api/v1/matches/?page=6").status_code == 404
    assert anon.get("/api/v1/matches/?page=x").status_code == 404
    league_id = Match.objects.first().league_id
    only = anon.get(f"/api/v1/matches/?before={newest[0]}&league={league_id}&round=1").json()
    assert {m["league"] for m in only["results"]} == {league_id}
    bot_id = Match.objects.get(pk=newest[0]).seats.first().bot_version.bot_id
    with_bot = anon.get(f"/api/v1/matches/?bot={bot_id}").json()["results"]
    expected = Match.objects.filter(seats__bot_version__bot_id=bot_id).distinct().count()
    assert len(with_bot) == min(7, expected) and len({m["id"] for m in with_bot}) == len(with_bot)
    bad = anon.get("/api/v1/matches/?before=x")
    assert bad.status_code == 400 and "before" in bad.json()["error"]["message"]
    assert anon.get("/api/v1/matches/?before=999999").status_code == 400


def test_summary_rows_are_written_as_drf_would_write_them(
    organiser, ready_version, runner, django_capture_on_commit_callbacks, make_user
):
    """MatchSummaryOutput writes its rows by hand (speed): the same output as DRF's own
    field machinery on the models, for strangers, the seats' owner and staff."""
    from django.contrib.auth.models import AnonymousUser
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    from tournament import selectors
    from tournament.api.serializers import MatchOutput, MatchSeatSummaryOutput, MatchSummaryOutput
    from tournament.match_summaries import summaries
    from tournament.models import MatchSeat

    class Generic(MatchOutput):
        seats = MatchSeatSummaryOutput(many=True)

        class Meta(MatchOutput.Meta):
            fields = MatchSummaryOutput.Meta.fields

    _league(organiser, ready_version, "g", 3, django_capture_on_commit_callbacks)
    seats = MatchSeat.objects.order_by("pk")
    seats.filter(pk=seats[0].pk).update(fault="timeout", fault_evidence={"cpu": 1.5})
    seats.filter(pk=seats[1].pk).update(score=None, rank=None, time_used=None)
    Match.objects.filter(pk=seats[2].match_id).update(league=None, replay_name="")
    staff = make_user("sam")
    staff.is_staff = True
    for user in (AnonymousUser(), organiser, make_user("stranger"), staff):
        request = Request(APIRequestFactory().get("/api/v1/matches/"))
        request.user = user
        models = list(selectors.match_list(user=user).order_by("-created_at", "-id"))
        expected = Generic(models, many=True, context={"request": request}).data
        rows = summaries([m.pk for m in models])
        written = MatchSummaryOutput(rows, many=True, context={"request": request}).data
        assert json.loads(json.dumps(written)) == json.loads(json.dumps(expected))
        assert any(s["fault_evidence"] for m in written for s in m["seats"]) == (
            user.is_authenticated and user.username in ("olga", "sam")
        )


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


def test_fault_totals_are_counted_with_each_result(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    """The bot page's fault rate reads totals kept on each version: the same as counting
    the seats of every finished rated (league) match; validation runs are not counted."""
    from tournament.models import BotVersion, MatchSeat
    from tournament.services.bots import bot_seat_counts_rebuild

    league = ls.league_create(
        organiser=organiser, name="f", mode="family", seats=3, format="round_robin"
    )
    for name in ("f-crash", "f-a", "f-b", "f-c"):  # the scripted runner faults "crash" bots
        version = ready_version(organiser, name)
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    kept = dict(BotVersion.objects.values_list("pk", "seats_faulted"))
    played = dict(BotVersion.objects.values_list("pk", "seats_finished"))
    crash = BotVersion.objects.get(bot__name="f-crash")
    assert kept[crash.pk] == played[crash.pk] == 9 and sum(kept.values()) == 9
    assert played == {
        v: MatchSeat.objects.filter(
            bot_version_id=v, match__status="finished", match__kind="league"
        ).count()
        for v in played
    }
    from tournament.models import LeagueEntry

    entry_faults = dict(league.entries.values_list("bot_version_id", "faults"))
    assert entry_faults[crash.pk] == 9 and sum(entry_faults.values()) == 9
    for rebuild in (bot_seat_counts_rebuild, migration_count_seats):
        BotVersion.objects.update(seats_finished=0, seats_faulted=0)
        LeagueEntry.objects.update(faults=0)
        rebuild()
        assert dict(BotVersion.objects.values_list("pk", "seats_faulted")) == kept
        assert dict(BotVersion.objects.values_list("pk", "seats_finished")) == played
        if rebuild is migration_count_seats:  # the migration also recounts each entry's faults
            assert dict(league.entries.values_list("bot_version_id", "faults")) == entry_faults
    # a validation run that faults changes no version's totals
    from tournament.services.bots import _queue_validation

    with django_capture_on_commit_callbacks(execute=True):
        _queue_validation(crash)
    seat = MatchSeat.objects.get(bot_version=crash, match__kind="validation")
    assert seat.match.status == "finished" and seat.fault == "crash"
    crash.refresh_from_db()
    assert (crash.seats_finished, crash.seats_faulted) == (9, 9)


def migration_count_seats() -> None:
    import importlib

    from django.apps import apps

    migration = importlib.import_module("tournament.migrations.0014_faults_count")
    migration.count_from_history(apps, None)


def test_match_lists_never_count_the_whole_list(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    league = _league(organiser, ready_version, "n", 4, django_capture_on_commit_callbacks)
    deep = Match.objects.order_by("-created_at", "-id")[5].pk
    for url in ("/api/v1/matches/", f"/api/v1/matches/?before={deep}", "/api/v1/matches/?page=1",
                "/matches/", f"/matches/?before={deep}", f"/leagues/{league.pk}/"):  # fmt: skip
        with CaptureQueriesContext(connection) as ctx:
            assert Client().get(url).status_code == 200
        counted = [q["sql"] for q in ctx.captured_queries if "COUNT(" in q["sql"].upper()]
        # the league page counts its matches by status (its progress), never to page them
        assert all("GROUP BY" in sql for sql in counted), (url, counted)
