"""Running an event through the API: the Swiss points table, start time, entry deadline and
cap on entrants (bad values answer 400 with a plain message), the standings endpoint, the
organiser adding and removing entries, and the beat job starting a league at its time."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tournament.conftest import client_for
from tests.tournament.test_api_errors import assert_error_body
from tournament.models import League, Match
from tournament.services import events
from tournament.services import leagues as ls

pytestmark = pytest.mark.django_db


def _create(organiser, **fields):
    body = {"name": "Cup", "mode": "standard", "seats": 4, "format": "swiss", **fields}
    return client_for(organiser).post("/api/v1/leagues/", body, format="json")


def test_points_table_is_set_and_read_back(organiser):
    response = _create(organiser, points_table=[10, 6, 3, 0], bye_points=4)
    assert response.status_code == 201, response.content
    assert response.json()["points_table"] == [10, 6, 3, 0]
    assert response.json()["bye_points"] == 4
    default = _create(organiser, name="Default").json()
    assert default["points_table"] == [6, 5, 3, 1]  # Board Game Arena's
    assert default["bye_points"] == 3.75  # the mean of the table


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"points_table": [3, 1]}, "points_table", "4 values for 4 seats, not 2"),
        ({"starts_at": "2030-01-02T10:00:00Z", "entry_deadline": "2030-01-01T10:00:00Z"},
         "entry_deadline", "The entry deadline is before the start time"),
        ({"max_entrants": 2}, "max_entrants", "at least 4"),
        ({"starts_at": "2001-01-01T10:00:00Z"}, "starts_at", "in the past"),
    ],
)  # fmt: skip
def test_bad_event_fields_answer_400_with_a_plain_message(organiser, fields, field, words):
    error = assert_error_body(_create(organiser, **fields), 400)
    assert words in error["message"]
    assert field in error["fields"]
    assert not League.objects.exists()


def test_cap_below_the_current_entrants_is_refused(organiser, ready_version):
    league = ls.league_create(organiser=organiser, name="Capped", mode="duel", seats=2,
                              format="swiss")  # fmt: skip
    for i in range(3):
        ls.league_entry_add(league=league, user=organiser,
                            bot_version_id=ready_version(organiser, f"c{i}").pk)  # fmt: skip
    client = client_for(organiser)
    error = assert_error_body(
        client.patch(f"/api/v1/leagues/{league.pk}/", {"max_entrants": 2}, format="json"), 400
    )
    assert error["message"] == (
        "The cap on entrants must be at least 3: the league already has 3 entrants."
    )
    ok = client.patch(f"/api/v1/leagues/{league.pk}/", {"max_entrants": 3}, format="json")
    assert ok.status_code == 200 and ok.json()["max_entrants"] == 3
    # full: a fourth entry is refused with the cap in words
    fourth = ready_version(organiser, "c3")
    refused = client.post(f"/api/v1/leagues/{league.pk}/entries/", {"bot_version": fourth.pk},
                          format="json")  # fmt: skip
    assert assert_error_body(refused, 409)["message"] == (
        "The league is full: it takes at most 3 entrants."
    )


def test_entries_close_at_the_deadline(organiser, author, ready_version):
    league = ls.league_create(organiser=organiser, name="Late", mode="duel", seats=2,
                              format="ladder")  # fmt: skip
    League.objects.filter(pk=league.pk).update(entry_deadline=timezone.now() - timedelta(1))
    version = ready_version(author, "late-bot")
    response = client_for(author).post(f"/api/v1/leagues/{league.pk}/entries/",
                                       {"bot_version": version.pk}, format="json")  # fmt: skip
    assert "Entries closed at the deadline" in assert_error_body(response, 409)["message"]


def test_organiser_adds_and_removes_entries(organiser, author, other_author, ready_version):
    league = ls.league_create(organiser=organiser, name="Run", mode="duel", seats=2,
                              format="swiss")  # fmt: skip
    mine = ready_version(author, "authors-bot")
    client = client_for(organiser)
    added = client.post(f"/api/v1/leagues/{league.pk}/entries/", {"bot_version": mine.pk},
                        format="json")  # fmt: skip
    assert added.status_code == 201  # the organiser enters an author's bot
    entry = added.json()["id"]
    url = f"/api/v1/leagues/{league.pk}/entries/{entry}/"
    assert_error_body(client_for(other_author).delete(url), 403)
    assert_error_body(client_for(author).delete(url), 403)  # the owner is not the organiser
    assert client.delete(url).status_code == 204
    assert not league.entries.exists()
    assert_error_body(client.delete(url), 404)


def test_removing_an_entry_that_played_withdraws_it(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    league = ls.league_create(organiser=organiser, name="W", mode="duel", seats=2,
                              format="ladder")  # fmt: skip
    for i in range(3):
        ls.league_entry_add(league=league, user=organiser,
                            bot_version_id=ready_version(organiser, f"w{i}").pk)  # fmt: skip
    ls.league_start(league=league, user=organiser)  # queued, not played
    Match.objects.filter(league=league).update(status=Match.Status.FINISHED)
    # an entry that played: the ladder's first pairing seats two of the three, drawn at random
    first = next(e for e in league.entries.order_by("pk") if league.matches.filter(
        status=Match.Status.FINISHED, seats__bot_version=e.bot_version_id).exists())  # fmt: skip
    ls.league_schedule_round(league=league)
    assert league.matches.filter(status=Match.Status.QUEUED).exists()
    withdrawn = events.league_entry_remove(league=league, user=organiser, entry_id=first.pk)
    assert withdrawn is not None and withdrawn.withdrawn_at is not None
    assert not league.matches.filter(
        status=Match.Status.QUEUED, seats__bot_version=first.bot_version_id
    ).exists()
    assert first.pk not in {e.pk for e in ls.scheduled_entries(league)}
    from tournament.standings import league_standings

    assert [r.entry.withdrawn_at is not None for r in league_standings(league=league)
            if r.entry.pk == first.pk] == [True]  # fmt: skip
    # a ladder has no standings by points: its ladder ranks it
    assert_error_body(client_for(None).get(f"/api/v1/leagues/{league.pk}/standings/"), 404)


def test_league_starts_by_itself_at_its_start_time(organiser, ready_version, runner):
    soon = timezone.now() + timedelta(minutes=5)
    league = ls.league_create(organiser=organiser, name="Timed", mode="duel", seats=2,
                              format="swiss", starts_at=soon)  # fmt: skip
    for i in range(4):
        ls.league_entry_add(league=league, user=organiser,
                            bot_version_id=ready_version(organiser, f"t{i}").pk)  # fmt: skip
    assert events.leagues_start_due() == []  # not yet
    assert ls.ladders_schedule() == 0
    league.refresh_from_db()
    assert league.status == League.Status.DRAFT
    assert events.leagues_start_due(now=soon + timedelta(seconds=1)) == [league.pk]
    league.refresh_from_db()
    assert league.status == League.Status.RUNNING and league.matches.count() == 2


def test_a_due_league_with_too_few_entrants_stays_a_draft(organiser, ready_version):
    league = ls.league_create(organiser=organiser, name="Empty", mode="duel", seats=2,
                              format="swiss", starts_at=timezone.now() + timedelta(seconds=1))
    assert events.leagues_start_due(now=timezone.now() + timedelta(minutes=1)) == []
    league.refresh_from_db()
    assert league.status == League.Status.DRAFT


def test_standings_endpoint(organiser, ready_version, runner, django_capture_on_commit_callbacks):
    league = ls.league_create(organiser=organiser, name="S", mode="duel", seats=2,
                              format="swiss", rounds=2)  # fmt: skip
    for i in range(4):
        ls.league_entry_add(league=league, user=organiser,
                            bot_version_id=ready_version(organiser, f"st{i}").pk)  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    body = client_for(None).get(f"/api/v1/leagues/{league.pk}/standings/").json()
    assert body["final"] is True and body["tiebreaks"] == ["buchholz", "median_buchholz"]
    assert body["points_table"] == [1, 0] and body["bye_points"] == 1
    rows = body["standings"]
    assert [r["points"] for r in rows] == sorted((r["points"] for r in rows), reverse=True)
    assert sum(r["points"] for r in rows) == 4  # four matches, one point each
    assert {"buchholz", "median_buchholz", "opponents_points", "played"} <= set(rows[0])
