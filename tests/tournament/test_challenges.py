"""Challenge matches: the service (choice of versions, seats, unrated, per-user limits) and the
`/api/v1/challenges/` endpoint (429 with Retry-After, the error body, the schema)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tournament.errors import BadGameConfig, Conflict, NotFound, RateLimited, ValidationFailed
from tournament.models import LeagueEntry, Match, RatingChange
from tournament.selectors import challenge_list, challenge_versions
from tournament.services import leagues as ls
from tournament.services.bots import bot_retire
from tournament.services.challenges import challenge_create

from .conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def limits(settings):
    settings.CHALLENGES_PER_HOUR = 3
    settings.CHALLENGES_ACTIVE_MAX = 2
    settings.CHALLENGE_RETRY_SECONDS = 17
    return settings


def test_challenge_plays_any_ready_versions_and_rates_nothing(
    author, other_author, organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    mine, theirs = ready_version(author, "mine"), ready_version(other_author, "theirs")
    league = ls.league_create(
        organiser=organiser, name="rated", mode="standard", seats=3, format="round_robin"
    )
    for v in (mine, theirs):
        ls.league_entry_add(league=league, user=organiser, bot_version_id=v.pk)
    before = list(LeagueEntry.objects.values_list("pk", "rating", "games", "wins"))
    with django_capture_on_commit_callbacks(execute=True):
        match = challenge_create(
            user=author, mode="standard", seats=3, bot_version_ids=[theirs.pk, mine.pk, theirs.pk]
        )
    match.refresh_from_db()
    assert match.kind == Match.Kind.CHALLENGE and match.league_id is None
    assert match.status == Match.Status.FINISHED and match.requested_by == author
    assert [s.bot_version_id for s in match.seats.order_by("seat")] == [
        theirs.pk, mine.pk, theirs.pk
    ]  # fmt: skip
    assert [s.rank for s in match.seats.order_by("seat")] == [1, 2, 3]
    assert runner.specs[-1]["decision_time_limit"] == 1.0  # the ordinary limits
    assert list(LeagueEntry.objects.values_list("pk", "rating", "games", "wins")) == before
    assert not RatingChange.objects.exists()
    assert list(challenge_list(user=author)) == [match]
    assert list(challenge_list(user=other_author)) == []


def test_challenge_refuses_bad_choices(author, other_author, ready_version):
    a = ready_version(author, "a")
    with pytest.raises(ValidationFailed, match="3 seats need 3"):
        challenge_create(user=author, mode="standard", seats=3, bot_version_ids=[a.pk, a.pk])
    with pytest.raises(BadGameConfig):
        challenge_create(user=author, mode="duel", bot_version_ids=[a.pk] * 3)
    with pytest.raises(NotFound):
        challenge_create(user=author, mode="duel", bot_version_ids=[a.pk, 999999])
    pending = ready_version(other_author, "pending")
    pending.status = "pending"
    pending.save()
    with pytest.raises(Conflict, match="not passed validation"):
        challenge_create(user=author, mode="duel", bot_version_ids=[a.pk, pending.pk])
    retired = ready_version(other_author, "old")
    bot_retire(bot=retired.bot, user=other_author)
    with pytest.raises(Conflict, match="retired"):
        challenge_create(user=author, mode="duel", bot_version_ids=[a.pk, retired.pk])
    assert not Match.objects.exists()
    assert set(challenge_versions()) == {a}


def test_challenge_limits_are_per_user(author, other_author, ready_version, limits):
    a, b = ready_version(author, "a"), ready_version(other_author, "b")
    ids = [a.pk, b.pk]
    first = challenge_create(user=author, mode="duel", bot_version_ids=ids)  # stays queued
    challenge_create(user=author, mode="duel", bot_version_ids=ids)
    with pytest.raises(RateLimited, match="2 challenge matches queued or running") as busy:
        challenge_create(user=author, mode="duel", bot_version_ids=ids)
    assert busy.value.retry_after == 17 and busy.value.status == 429
    challenge_create(user=other_author, mode="duel", bot_version_ids=ids)  # someone else may

    Match.objects.filter(requested_by=author).update(status=Match.Status.FINISHED)
    challenge_create(user=author, mode="duel", bot_version_ids=ids)  # the third of the hour
    Match.objects.filter(requested_by=author).update(status=Match.Status.FINISHED)
    with pytest.raises(RateLimited, match="3 challenge matches per hour") as hourly:
        challenge_create(user=author, mode="duel", bot_version_ids=ids)
    assert 3500 < hourly.value.retry_after <= 3600

    # The oldest leaves the window: Retry-After counted from it, then the user may again.
    Match.objects.filter(pk=first.pk).update(created_at=timezone.now() - timedelta(minutes=59))
    with pytest.raises(RateLimited) as soon:
        challenge_create(user=author, mode="duel", bot_version_ids=ids)
    assert 1 <= soon.value.retry_after <= 61
    Match.objects.filter(pk=first.pk).update(created_at=timezone.now() - timedelta(minutes=61))
    challenge_create(user=author, mode="duel", bot_version_ids=ids)
    assert Match.objects.filter(requested_by=author).count() == 4


def test_challenge_api(author, ready_version, runner, limits, django_capture_on_commit_callbacks):
    a, b = ready_version(author, "ca"), ready_version(author, "cb")
    api = client_for(author)
    with django_capture_on_commit_callbacks(execute=True):
        made = api.post(
            "/api/v1/challenges/",
            {"mode": "duel", "seats": 2, "bot_versions": [a.pk, b.pk]},
            format="json",
        )
    assert made.status_code == 201, made.content
    assert made.json()["kind"] == "challenge" and made.json()["league"] is None
    listed = api.get("/api/v1/challenges/").json()
    assert [m["id"] for m in listed["results"]] == [made.json()["id"]]
    assert listed["results"][0]["status"] == "finished"
    assert client_for(None).get("/api/v1/challenges/").status_code == 401

    bad = api.post(
        "/api/v1/challenges/", {"mode": "duel", "seats": 3, "bot_versions": [a.pk, b.pk]},
        format="json",
    )  # fmt: skip
    assert bad.status_code == 400 and bad.json()["error"]["fields"]["bot_versions"]

    Match.objects.update(status=Match.Status.QUEUED)
    api.post("/api/v1/matches/", {"mode": "duel", "bot_versions": [a.pk, b.pk]}, format="json")
    refused = api.post(
        "/api/v1/challenges/", {"mode": "duel", "bot_versions": [a.pk, b.pk]}, format="json"
    )
    assert refused.status_code == 429
    assert refused["Retry-After"] == "17"
    error = refused.json()["error"]
    assert error["code"] == "throttled" and "queued or running" in error["message"]


def test_challenge_endpoint_in_schema(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operations = schema["paths"]["/api/v1/challenges/"]
    assert set(operations) >= {"get", "post"}
    body = operations["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert body.endswith("/ChallengeInput")
    assert "seats" in schema["components"]["schemas"]["ChallengeInput"]["properties"]
    assert "Retry-After" in operations["post"]["responses"]["429"]["headers"]
