"""Hidden seeds for solo leaderboards: until the league closes, its matches (their seeds,
results and replays) are shown to no one but staff (`hidden`), or each author sees only their
own (`author`); at the close all are published. Asked as anonymous, another author, the
owner and staff, of every endpoint, download and page that shows a match: the API's match
list and detail, the replay download and frames, the site's match list, match page, league
page, bot page and home page."""

from __future__ import annotations

import pytest
from django.test import Client

from competition.seeds import seed_from
from tests.tournament.conftest import client_for
from tests.tournament.test_api_errors import assert_error_body
from tournament.models import Match
from tournament.services import leagues as ls
from tournament.services import matches as ms

pytestmark = pytest.mark.django_db


@pytest.fixture
def solo_league(organiser, author, other_author, ready_version, runner):
    def _make(seed_privacy):
        league = ls.league_create(
            organiser=organiser, name=f"Solo {seed_privacy}", mode="solo", seats=1,
            format="ladder", options={"difficulty": "medium"}, seed_privacy=seed_privacy,
        )  # fmt: skip
        mine = ready_version(author, f"mine-{seed_privacy}")
        theirs = ready_version(other_author, f"theirs-{seed_privacy}")
        for version, owner in ((mine, author), (theirs, other_author)):
            ls.league_entry_add(league=league, user=owner, bot_version_id=version.pk)
        ls.league_start(league=league, user=organiser)  # queued (a ladder never stops)
        for match in list(league.matches.filter(status=Match.Status.QUEUED)):
            ms.match_play(match_id=match.pk)  # played here, one by one
        finished = league.matches.filter(status=Match.Status.FINISHED)
        own = finished.filter(seats__bot_version=mine).first()
        other = finished.filter(seats__bot_version=theirs).first()
        assert own is not None and other is not None
        return league, own, other

    return _make


def _api_sees(user, match) -> bool:
    client = client_for(user)
    listed = {m["id"] for m in client.get("/api/v1/matches/?page_size=100").json()["results"]}
    detail = client.get(f"/api/v1/matches/{match.pk}/")
    replay = client.get(f"/api/v1/matches/{match.pk}/replay")
    frames = client.get(f"/api/v1/matches/{match.pk}/frames")
    # the download and the frames answer "No match N." for a match the user may not see
    # (the scripted runner's replay bytes are no real replay, so a visible one may fail later)
    unknown = f"No match {match.pk}."
    seen = [match.pk in listed, detail.status_code == 200,
            unknown not in replay.content.decode(errors="replace"),
            unknown not in frames.content.decode(errors="replace")]  # fmt: skip
    assert len(set(seen)) == 1, (user, seen)  # every endpoint agrees
    if not seen[0]:
        assert_error_body(detail, 404)
        assert str(match.seed) not in detail.content.decode()
    return seen[0]


def _site_sees(user, match) -> bool:
    client = Client()
    if user is not None:
        client.force_login(user)
    page = client.get(f"/matches/{match.pk}/")
    pages = [client.get(path).content.decode() for path in
             ("/matches/", f"/leagues/{match.league_id}/", "/")]  # fmt: skip
    link = f'href="/matches/{match.pk}/"'
    seen = [page.status_code == 200, *(link in html for html in pages)]
    assert len(set(seen[:2])) == 1, (user, seen)
    if not seen[0]:
        assert not any(seen)
    return seen[0]


def test_hidden_seeds_are_shown_to_no_one_but_staff_until_the_close(
    solo_league, author, other_author, organiser, make_user
):
    league, own, other = solo_league("hidden")
    assert league.base_seed != seed_from("league", league.pk, league.name)
    staff = make_user("stella", is_staff=True)
    for user in (None, other_author, author, organiser):
        assert not _api_sees(user, own)
        assert not _site_sees(user, own)
    assert _api_sees(staff, own)
    # the ladder is public: it ranks the entrants without showing a deal
    ladder = client_for(None).get(f"/api/v1/leagues/{league.pk}/ladder/").json()
    assert {r["bot"] for r in ladder["results"]} == {"mine-hidden", "theirs-hidden"}
    ls.league_close(league=league, user=organiser)
    for user in (None, other_author, author):
        assert _api_sees(user, own) and _api_sees(user, other)
        assert _site_sees(user, own)


def test_author_mode_shows_each_author_their_own_until_the_close(
    solo_league, author, other_author, organiser
):
    league, own, other = solo_league("author")
    assert _api_sees(author, own) and _site_sees(author, own)
    assert not _api_sees(author, other) and not _site_sees(author, other)
    assert _api_sees(other_author, other) and not _api_sees(other_author, own)
    assert not _api_sees(None, own) and not _site_sees(None, own)
    ls.league_close(league=league, user=organiser)
    assert _api_sees(None, own) and _api_sees(author, other)


def test_hidden_seeds_only_for_solo_leagues(organiser):
    response = client_for(organiser).post("/api/v1/leagues/", {
        "name": "Duel", "mode": "duel", "seats": 2, "format": "ladder", "seed_privacy": "hidden",
    }, format="json")  # fmt: skip
    error = assert_error_body(response, 400)
    assert error["message"].startswith("Hidden seeds are for solo leagues")
    assert "seed_privacy" in error["fields"]
