"""A ladder at rest: it stops scheduling once every σ is narrow or every pair has met N times,
wakes for a new entrant (or a bot's new version, entered as a new entry) and rests again; its
page says which and why. The rule itself (`rest_reason`) is tested without Django first."""

from __future__ import annotations

import itertools

import pytest

from tournament.ladder_rest import ladder_rest_state, rest_reason
from tournament.models import HeadToHead, League, Match
from tournament.services import leagues as ls


def test_rest_when_every_sigma_is_narrow():
    state = rest_reason({1: 2.9, 2: 2.5}, {}, seats=2, sigma_limit=3.0, games_limit=10)
    assert state.resting and "σ < 3" in state.reason and "2.90" in state.reason
    state = rest_reason({1: 3.1, 2: 2.5}, {}, seats=2, sigma_limit=3.0, games_limit=10)
    assert not state.resting and "widest 3.10" in state.reason


def test_rest_when_every_pair_has_met_enough():
    sigmas = {1: 5.0, 2: 5.0, 3: 5.0}
    pairs = {frozenset(p): 10 for p in itertools.combinations(sigmas, 2)}
    assert rest_reason(sigmas, pairs, seats=2, sigma_limit=3.0, games_limit=10).resting
    pairs[frozenset((1, 3))] = 9  # one pair short: it plays on
    state = rest_reason(sigmas, pairs, seats=2, sigma_limit=3.0, games_limit=10)
    assert not state.resting and "fewest 9" in state.reason
    del pairs[frozenset((1, 3))]  # a pair that never met counts 0
    assert "fewest 0" in rest_reason(sigmas, pairs, seats=2, sigma_limit=3.0,
                                     games_limit=10).reason  # fmt: skip


def test_solo_rests_on_each_entrants_games_and_too_few_entrants_never_rest():
    assert rest_reason({1: 5.0, 2: 5.0}, {}, seats=1, sigma_limit=3.0, games_limit=4,
                       solo_games={1: 4, 2: 5}).resting  # fmt: skip
    assert not rest_reason({1: 5.0, 2: 5.0}, {}, seats=1, sigma_limit=3.0, games_limit=4,
                           solo_games={1: 3, 2: 5}).resting  # fmt: skip
    state = rest_reason({1: 1.0}, {}, seats=2, sigma_limit=3.0, games_limit=1)
    assert not state.resting and state.reason == "waits for entrants"


def _pair_games(league):
    return {
        frozenset((h.subject_id, h.opponent_id)): h.games
        for h in HeadToHead.objects.filter(league=league)
    }


@pytest.mark.django_db
def test_a_ladder_rests_then_wakes_for_a_newcomer(
    organiser, ready_version, runner, settings, django_capture_on_commit_callbacks
):
    settings.LADDER_REST_PAIR_GAMES = 2
    settings.LADDER_REST_SIGMA = 0.5  # out of reach: the pair rule decides here
    league = ls.league_create(organiser=organiser, name="Night ladder", mode="duel", seats=2,
                              format="ladder")  # fmt: skip
    for i in range(3):
        version = ready_version(organiser, f"house{i}")
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)  # plays on (eager) until it rests
    league.refresh_from_db()
    state = ladder_rest_state(league)
    assert state.resting and "met at least 2 times" in state.reason
    played = league.matches.filter(status=Match.Status.FINISHED).count()
    assert played >= 3  # three pairs, two games each, at least
    assert not league.matches.filter(status__in=[Match.Status.QUEUED, Match.Status.RUNNING])
    assert all(games >= 2 for games in _pair_games(league).values())
    # At rest the beat schedules nothing, however often it ticks.
    assert ls.ladders_schedule() == 0
    assert ls.league_schedule_round(league=league) == []

    # A newcomer wakes it at once (its entry schedules), and it rests again once the
    # newcomer has met everyone twice.
    newcomer = ready_version(organiser, "newcomer")
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_entry_add(league=league, user=organiser, bot_version_id=newcomer.pk)
    league.refresh_from_db()
    assert league.matches.filter(status=Match.Status.FINISHED).count() > played
    pairs = _pair_games(league)
    others = [e.bot_version_id for e in league.entries.exclude(bot_version=newcomer)]
    assert all(pairs[frozenset((newcomer.pk, o))] >= 2 for o in others)
    assert ladder_rest_state(league).resting


@pytest.mark.django_db
def test_a_ladder_rests_when_every_sigma_is_narrow(
    organiser, ready_version, runner, settings, django_capture_on_commit_callbacks
):
    settings.LADDER_REST_PAIR_GAMES = 10_000
    settings.LADDER_REST_SIGMA = 7.5  # reached after a few games each
    league = ls.league_create(organiser=organiser, name="Quick ladder", mode="duel", seats=2,
                              format="ladder")  # fmt: skip
    for i in range(2):
        version = ready_version(organiser, f"q{i}")
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    league.refresh_from_db()
    assert all(e.openskill_sigma < 7.5 for e in league.entries.all())
    state = ladder_rest_state(league)
    assert state.resting and "σ < 7.5" in state.reason
    assert league.status == League.Status.RUNNING  # resting is not closing: entries still open


@pytest.mark.django_db
def test_the_ladder_page_says_it_rests_and_why(
    client, organiser, ready_version, runner, settings, django_capture_on_commit_callbacks
):
    settings.LADDER_REST_PAIR_GAMES = 1
    league = ls.league_create(organiser=organiser, name="Page ladder", mode="duel", seats=2,
                              format="ladder")  # fmt: skip
    for i in range(2):
        version = ready_version(organiser, f"p{i}")
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    ls.league_open(league=league, user=organiser)
    html = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "playing</span>" in html and "plays until every σ &lt; 3" in html
    with django_capture_on_commit_callbacks(execute=True):
        ls.ladders_schedule()
    html = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "at rest</span>" in html
    assert "This ladder is at rest: every pair of entrants has met at least 1 time;" in html


@pytest.mark.django_db
def test_the_api_gives_a_running_ladders_rest_state(
    client, organiser, ready_version, runner, settings, django_capture_on_commit_callbacks
):
    settings.LADDER_REST_PAIR_GAMES = 1
    league = ls.league_create(organiser=organiser, name="API ladder", mode="duel", seats=2,
                              format="ladder")  # fmt: skip
    assert client.get(f"/api/v1/leagues/{league.pk}/").json()["rest"] is None  # a draft
    for i in range(2):
        version = ready_version(organiser, f"a{i}")
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    rest = client.get(f"/api/v1/leagues/{league.pk}/").json()["rest"]
    assert rest["resting"] is True and "met at least 1 time" in rest["reason"]


@pytest.mark.django_db
def test_the_league_list_gives_each_ladders_rest_state_in_fixed_queries(
    client, organiser, ready_version, runner, settings, django_capture_on_commit_callbacks
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournament.services import events

    settings.LADDER_REST_PAIR_GAMES = 1

    def ladder(name, entrants, *, play):
        league = ls.league_create(organiser=organiser, name=name, mode="duel", seats=2,
                                  format="ladder")  # fmt: skip
        for i in range(entrants):
            version = ready_version(organiser, f"{name}-{i}")
            ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
        if play:
            with django_capture_on_commit_callbacks(execute=True):
                ls.league_start(league=league, user=organiser)
        else:
            ls.league_open(league=league, user=organiser)
        return league

    def listed():
        with CaptureQueriesContext(connection) as ctx:
            body = client.get("/api/v1/leagues/").json()
        return {row["id"]: row["rest"] for row in body["results"]}, len(ctx.captured_queries)

    resting = ladder("rests", 3, play=True)
    _, one = listed()
    playing = ladder("plays", 2, play=False)
    waiting = ladder("waits", 1, play=False)
    withdrawn = ladder("withdraws", 3, play=True)  # one entrant withdrawn: not counted
    entry = withdrawn.entries.order_by("pk").first()
    events.league_entry_remove(league=withdrawn, user=organiser, entry_id=entry.pk)
    draft = ls.league_create(organiser=organiser, name="draft", mode="duel", seats=2,
                             format="ladder")  # fmt: skip
    rest, many = listed()
    assert many == one  # the same queries for one ladder or four
    assert rest[draft.pk] is None
    for league in (resting, playing, waiting, withdrawn):
        league.refresh_from_db()
        state = ladder_rest_state(league)
        assert rest[league.pk] == {"resting": state.resting, "reason": state.reason}
        assert rest[league.pk] == client.get(f"/api/v1/leagues/{league.pk}/").json()["rest"]
    assert rest[resting.pk]["resting"] and not rest[playing.pk]["resting"]
    assert rest[waiting.pk]["reason"] == "waits for entrants"
