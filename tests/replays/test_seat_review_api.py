"""Who may ask where a seat lost: ``/api/v1/matches/{id}/analysis/?seat=K``
(tournament/services/analysis.py, ``may_review_seat``): the seat's owner and staff always,
anyone once the match is public; as anonymous, as another author and as the owner."""

from __future__ import annotations

import pytest

from replayfile import decision_review
from tournament.models import Bot, BotVersion, LeagueInvitation, Match, SeatReview

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def small_budget(monkeypatch):
    monkeypatch.setitem(decision_review.BUDGET, "duel", (1, 2))


def _owned_by(match, seat, user):
    version = BotVersion.objects.create(
        bot=Bot.objects.create(name=f"{user.username}-bot", owner=user), number=1,
        builtin="random", status=BotVersion.Status.READY)
    match.seats.filter(seat=seat).update(bot_version=version)


def _private(match, organiser, invited):
    from tournament.services.accounts import organiser_grant
    from tournament.services.leagues import league_create

    organiser_grant(user=organiser)
    league = league_create(organiser=organiser, name="Private review", mode="duel", seats=2,
                           format="ladder", public=False)  # fmt: skip
    Match.objects.filter(pk=match.pk).update(league=league, kind=Match.Kind.LEAGUE)
    LeagueInvitation.objects.create(league=league, user=invited, invited_by=organiser)


def test_a_private_match_is_reviewed_by_its_seats_owner_only(stored_match, client,
                                                            django_user_model):
    owner = django_user_model.objects.create_user("seat-owner")
    rival = django_user_model.objects.create_user("rival-author")
    match = stored_match("duel", seed=3)
    _owned_by(match, 0, owner)
    _private(match, owner, rival)
    url = f"/api/v1/matches/{match.pk}/analysis/?seat=0"
    # anonymous: the match is not theirs to see
    assert client.get(url).status_code == 404
    assert client.post(url).status_code in (401, 403)
    # another author who sees the match may not study seat 0's decisions
    client.force_login(rival)
    assert client.get(f"/api/v1/matches/{match.pk}/").status_code == 200
    refused = client.post(url)
    assert refused.status_code == 404 and "owner" in str(refused.json())
    assert client.get(url).status_code == 404
    assert not SeatReview.objects.exists()
    # the owner asks, and reads the decisions
    client.force_login(owner)
    assert client.get(url).status_code == 404  # not reviewed yet
    asked = client.post(url)
    assert asked.status_code == 202, asked.content
    body = asked.json()
    assert body["status"] == "done" and body["seat"] == 0
    assert body["method"]["method"] == decision_review.METHOD
    assert body["method"]["playouts"] == 2 and body["method"]["thresholds"] == {"?": 0.1,
                                                                                 "??": 0.15}
    assert body["decisions"]
    for d in body["decisions"]:
        assert set(d) >= {"step", "taken", "best", "loss"}
        assert {"text", "chance", "low", "high", "playouts"} <= set(d["taken"])
        assert d["loss"] == 0 or d["best"]["low"] > d["taken"]["high"]
    assert client.post(url).status_code == 200  # cached per (match, seat, version)
    assert SeatReview.objects.filter(match=match).count() == 1
    # the rival still may not read it
    client.force_login(rival)
    assert client.get(url).status_code == 404


def test_a_public_match_is_reviewed_by_anyone(stored_match, client, django_user_model):
    owner = django_user_model.objects.create_user("public-owner")
    match = stored_match("duel", seed=4)
    _owned_by(match, 1, owner)
    url = f"/api/v1/matches/{match.pk}/analysis/?seat=1"
    assert client.get(url).status_code == 404  # not asked yet
    other = django_user_model.objects.create_user("public-other")
    client.force_login(other)
    assert client.post(url).status_code == 202
    client.logout()
    read = client.get(url)
    assert read.status_code == 200 and read.json()["status"] == "done"


def test_bad_seats_are_refused_in_words(stored_match, client, django_user_model):
    match = stored_match("duel", seed=5)
    client.force_login(django_user_model.objects.create_user("typo"))
    bad = client.get(f"/api/v1/matches/{match.pk}/analysis/?seat=x")
    assert bad.status_code == 400 and "seat must be a seat number" in str(bad.json())
    missing = client.post(f"/api/v1/matches/{match.pk}/analysis/?seat=5")
    assert missing.status_code == 404 and "has no seat 5" in str(missing.json())


def test_the_match_page_lists_the_costliest_decisions_and_the_viewer_marks_them(
        stored_match, client, django_user_model, monkeypatch):
    monkeypatch.setitem(decision_review.BUDGET, "duel", (2, 6))
    owner = django_user_model.objects.create_user("page-owner")
    rival = django_user_model.objects.create_user("page-rival")
    match = stored_match("duel", seed=3)
    _owned_by(match, 0, owner)
    _private(match, owner, rival)
    client.force_login(rival)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Review seat 0" not in page and "data-reviewed-seats" not in page
    assert client.post(f"/matches/{match.pk}/analysis/seat/0/").status_code == 302
    assert not SeatReview.objects.exists()  # refused, in a message
    client.force_login(owner)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Where it lost" in page and "Review seat 0's decisions" in page
    assert "Review seat 1" not in page  # not theirs, and the match is not public
    posted = client.post(f"/matches/{match.pk}/analysis/seat/0/")
    assert posted.status_code == 302 and posted["Location"].endswith("#where-lost")
    review = SeatReview.objects.get(match=match, seat=0)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-reviewed-seats="0"' in page
    section = page[page.index('id="where-lost"'):]
    costliest = review.result["costliest"]
    assert len(costliest) <= 5
    if costliest:
        first = costliest[0]
        assert f'?step={first["step"] + 1}"' in section and first["best"]["text"] in section
        assert "better:" in section and "points of win chance" in section
    else:
        assert "No decision lost more than the uncertainty" in section
    assert f'{len(review.result["decisions"])} decisions judged' in section
