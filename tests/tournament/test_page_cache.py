"""The anonymous page cache (tournament/page_cache.py): a hit costs no query and keeps the
page's headers, every committed write drops it however it was made (save, queryset update,
bulk insert, raw SQL), a heartbeat does not, and entries are kept apart by what the page
varies on."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tournament import page_cache
from tournament.models import Match, MatchSeat
from tournament.services import leagues as ls
from tournament.services.matches import match_heartbeat

from .conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(settings: Any, organiser: Any, ready_version: Any, runner: Any,
           django_capture_on_commit_callbacks: Any) -> Any:  # fmt: skip
    settings.PAGE_CACHE_SECONDS = 30
    league = ls.league_create(
        organiser=organiser, name="cached", mode="family", seats=3, format="round_robin"
    )
    for i in range(3):
        version = ready_version(organiser, f"cached{i}")
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    return league


def _hit(response: Any) -> bool:
    return response.get("X-Page-Cache") == "hit"


def test_a_hit_runs_no_query_and_keeps_the_page_headers(league):
    anon = Client()
    first = anon.get(f"/leagues/{league.pk}/")
    assert first.status_code == 200 and not _hit(first)
    with CaptureQueriesContext(connection) as queries:
        again = anon.get(f"/leagues/{league.pk}/")
    assert _hit(again) and again.content == first.content
    assert len(queries) == 0  # no session, no user, no database
    for header in ("Content-Type", "X-Frame-Options", "Content-Length"):
        assert again[header] == first[header], header


@pytest.mark.parametrize("how", ["save", "queryset update", "bulk insert", "raw SQL"])
def test_every_committed_write_drops_the_pages(league, how, django_capture_on_commit_callbacks):
    anon = Client()
    url = "/api/v1/matches/"
    anon.get(url)
    assert _hit(anon.get(url))
    match = Match.objects.order_by("pk").first()
    with django_capture_on_commit_callbacks(execute=True):
        if how == "save":
            match.status = Match.Status.CANCELLED
            match.save()
        elif how == "queryset update":
            Match.objects.filter(pk=match.pk).update(status=Match.Status.CANCELLED)
        elif how == "bulk insert":
            seat = match.seats.order_by("seat").first()
            MatchSeat.objects.bulk_create(
                [MatchSeat(match=match, seat=9, bot_version_id=seat.bot_version_id)]
            )
        else:
            with connection.cursor() as cursor:
                cursor.execute("UPDATE tournament_match SET status = %s WHERE id = %s",
                               ["cancelled", match.pk])  # fmt: skip
    fresh = anon.get(url)
    assert not _hit(fresh)
    row = next(m for m in fresh.json()["results"] if m["id"] == match.pk)
    if how == "bulk insert":
        assert 9 in [s["seat"] for s in row["seats"]]
    else:
        assert row["status"] == "cancelled"


def test_a_write_rolled_back_or_not_committed_keeps_the_pages(league):
    anon = Client()
    url = "/api/v1/matches/"
    anon.get(url)
    Match.objects.filter(pk=Match.objects.order_by("pk").first().pk).update(attempts=3)
    assert _hit(anon.get(url))  # the test's transaction never commits: nothing was bumped


def test_a_heartbeat_keeps_the_pages(league, django_capture_on_commit_callbacks):
    match = Match.objects.order_by("pk").first()
    with django_capture_on_commit_callbacks(execute=True):
        Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING)
    anon = Client()
    anon.get("/matches/")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert match_heartbeat(match_id=match.pk)
    assert callbacks == []
    assert _hit(anon.get("/matches/"))


def test_entries_are_kept_apart_by_host_and_by_accept_for_the_api(league):
    anon = Client()
    url = "/api/v1/matches/"
    anon.get(url, HTTP_ACCEPT="application/json")
    assert _hit(anon.get(url, HTTP_ACCEPT="application/json"))
    assert not _hit(anon.get(url, HTTP_ACCEPT="text/html"))
    assert not _hit(anon.get(url, HTTP_ACCEPT="application/json", HTTP_HOST="localhost"))
    page = f"/leagues/{league.pk}/"
    anon.get(page, HTTP_ACCEPT="text/html")
    assert _hit(anon.get(page, HTTP_ACCEPT="*/*"))  # pages do not vary by Accept


def test_visitors_with_a_session_or_messages_are_not_served_from_it(league, organiser):
    url = f"/leagues/{league.pk}/"
    Client().get(url)
    assert _hit(Client().get(url))
    with_messages = Client()
    with_messages.cookies["messages"] = "something to show"
    assert not _hit(with_messages.get(url))
    signed_in = Client()
    signed_in.force_login(organiser)
    assert not _hit(signed_in.get(url))
    assert not _hit(client_for(organiser).get(f"/api/v1/leagues/{league.pk}/ladder/"))


def test_replay_files_are_served_from_it(league):
    match = Match.objects.exclude(replay_name="").order_by("pk").first()
    anon = Client()
    url = f"/api/v1/matches/{match.pk}/replay"
    first = anon.get(url)
    again = anon.get(url)
    assert first.status_code == 200 and _hit(again) and again.content == first.content
    assert again["Content-Disposition"] == first["Content-Disposition"]
    assert again["Content-Type"] == "application/zstd"


def test_a_lost_generation_number_never_revives_old_entries(league):
    anon = Client()
    url = "/api/v1/matches/"
    anon.get(url)
    cache.delete(page_cache.GENERATION_KEY)  # evicted, or the cache restarted
    assert not _hit(anon.get(url))
    assert _hit(anon.get(url))


def test_without_the_cache_pages_are_served_fresh(league, monkeypatch):
    def down(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("cache down")

    monkeypatch.setattr(cache, "get_many", down)
    response = Client().get("/api/v1/matches/")
    assert response.status_code == 200 and not _hit(response)


def test_an_expired_page_is_rebuilt_by_one_reader_while_the_others_are_served(
    league, monkeypatch
):
    import time
    import types

    from django.test import RequestFactory

    anon = Client()
    url = "/api/v1/matches/"
    anon.get(url)
    later = time.time() + 31  # past PAGE_CACHE_SECONDS
    clock = types.SimpleNamespace(time=lambda: later, time_ns=time.time_ns)
    monkeypatch.setattr(page_cache, "time", clock)
    key = page_cache._key(RequestFactory().get(url), ("HTTP_ACCEPT",))
    assert cache.add(f"{key}:refresh", 1)  # another reader is rebuilding it
    assert _hit(anon.get(url))  # served meanwhile: no write has bumped the generation
    cache.delete(f"{key}:refresh")
    rebuilt = anon.get(url)
    assert not _hit(rebuilt) and rebuilt.status_code == 200  # this reader rebuilds it
    assert _hit(anon.get(url))  # fresh again
    cache.delete(page_cache.GENERATION_KEY)
    assert not _hit(anon.get(url))  # a past entry is never served for a new generation


def test_an_entry_is_kept_past_its_time_for_pages_read_seldom(league, monkeypatch):
    """Stored for KEEP_FACTOR times PAGE_CACHE_SECONDS: a page read once a minute still finds
    its entry, and one reader rebuilds it while the others are served (a burst of readers
    of an entry dropped at its time would all build the page at once)."""
    kept: dict[str, Any] = {}
    store = cache.set

    def spy(key: str, value: Any, timeout: Any = None, **kwargs: Any) -> Any:
        kept[key] = timeout
        return store(key, value, timeout, **kwargs)

    monkeypatch.setattr(cache, "set", spy)
    assert not _hit(Client().get("/leagues/"))
    (timeout,) = [t for k, t in kept.items() if k.startswith("page-cache:") and ":" not in k[11:]]
    assert timeout >= 10 * 30  # PAGE_CACHE_SECONDS is 30 here
    assert _hit(Client().get("/leagues/"))
