"""The site's forms speak in words and follow the mode: errors name fields as the form labels
them (never an internal name such as playoff_top), a mode that fixes the seats (the Duel,
solo) is never refused for the seats field, and the challenge page bounds its seats by the
mode."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.test import Client

from tests.website.conftest import builtin_copy
from tournament.models import BotVersion, League, Match
from website.forms import ChallengeForm, LeagueForm, PairedForm, fixed_seats, mode_choices

pytestmark = pytest.mark.django_db

INTERNAL_NAMES = re.compile(r"\b(playoff_of|playoff_top|best_of|decision_time_limit|time_bank|"
                            r"ladder_order|advance \()")  # fmt: skip


def _league_post(**fields: object) -> dict[str, object]:
    base = {"name": "Cup", "mode": "standard", "seats": 3, "format": "round_robin",
            "rounds": 3, "seeds": 1, "decision_time_limit": 1.0, "time_bank": 30,
            "ladder_order": "elo", "public": "on", "division_every": 10}  # fmt: skip
    return {**base, **fields}


def _errors(response: object) -> list[str]:
    text = response.content.decode()  # type: ignore[attr-defined]
    return [re.sub(r"<[^>]+>", "", e) for e in re.findall(r'<ul class="errorlist"[^>]*>(.*?)</ul>',
                                                         text, re.DOTALL)]  # fmt: skip


def test_fixed_seats_come_from_the_mode() -> None:
    assert fixed_seats("duel") == 2 and fixed_seats("solo") == 1
    assert fixed_seats("standard") is None and fixed_seats("nonsense") is None


def test_solo_with_seats_left_at_two_is_taken_as_one(organiser) -> None:
    form = LeagueForm(_league_post(mode="solo", seats=2, difficulty="medium", format="ladder"))
    assert form.is_valid(), form.errors
    assert form.service_kwargs()["seats"] == 1
    duel = LeagueForm(_league_post(mode="duel", seats="", format="ladder"))
    assert duel.is_valid(), duel.errors
    assert duel.cleaned_data["seats"] == 2
    # a mode that leaves the choice still needs one
    free = LeagueForm(_league_post(mode="standard", seats=""))
    assert not free.is_valid() and "2 to 4" in free.errors["seats"][0]


def test_the_paired_form_takes_the_seats_of_the_mode() -> None:
    form = PairedForm({"mode": "solo", "seats": 4, "difficulty": "easy"})
    form.is_valid()
    assert "seats" not in form.errors and form.cleaned_data["seats"] == 1


def test_solo_league_created_from_the_page_with_seats_at_two(client: Client, organiser) -> None:
    client.force_login(organiser)
    response = client.post("/leagues/new/", _league_post(
        name="Solo cup", mode="solo", seats=2, difficulty="hard", format="ladder"))
    assert response.status_code == 302, _errors(response)
    assert League.objects.get(name="Solo cup").seats == 1


def test_bracket_errors_name_the_fields_as_labelled(client: Client, organiser) -> None:
    client.force_login(organiser)
    cases = [
        _league_post(format="single_elim", mode="duel", seats=2, best_of=4),
        _league_post(format="knockout", mode="duel", seats=2, advance=2),
        _league_post(format="single_elim", mode="duel", seats=2, playoff_top=4),
        _league_post(format="single_elim", mode="duel", seats=2, seeding="standings"),
        _league_post(format="round_robin", decision_time_limit=50, time_bank=600),
    ]
    seen = []
    for data in cases:
        response = client.post("/leagues/new/", data)
        assert response.status_code == 200
        errors = _errors(response)
        assert errors, data
        for error in errors:
            assert not INTERNAL_NAMES.search(error), error
        seen += errors
    text = " ".join(seen)
    assert "Best of must be an odd number" in text
    assert "“Playoff of”" in text and "How many enter the playoff" in text
    assert "from 1 to 1" not in text and "must be 1 at" not in text  # a 2-seat knockout
    assert "lower the time per decision or the time bank" in text


def test_api_errors_name_fields_in_words(client: Client, organiser) -> None:
    client.force_login(organiser)
    response = client.post("/api/v1/leagues/", {
        "name": "Api cup", "mode": "duel", "seats": 2, "format": "ladder", "best_of": 3,
    }, content_type="application/json")  # fmt: skip
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["message"] == "Best of: only for the elimination and knockout formats."
    assert "best_of" in error["fields"]  # the API's own name stays the key
    bad = client.post("/api/v1/leagues/", {
        "name": "Api cup", "mode": "duel", "seats": 2, "format": "ladder", "time_bank": "x",
    }, content_type="application/json")  # fmt: skip
    assert bad.json()["error"]["message"].startswith("Time bank: ")


def test_challenge_bounds_its_seats_by_the_mode(author) -> None:
    versions = [builtin_copy(author, f"b{i}") for i in range(3)]
    queryset = BotVersion.objects.all()
    form = ChallengeForm({"mode": "duel", "seat_0": versions[0].pk, "seat_1": versions[1].pk,
                          "seat_2": versions[2].pk}, versions=queryset)  # fmt: skip
    assert not form.is_valid()
    assert form.errors["seat_2"] == ["A duel game seats 2 bots: leave Seat 2 and after empty."]
    solo = ChallengeForm({"mode": "solo", "difficulty": "easy", "seat_0": versions[0].pk,
                          "seat_1": versions[1].pk}, versions=queryset)  # fmt: skip
    assert not solo.is_valid() and "seats 1 bot:" in solo.errors["seat_1"][0]


def test_the_pages_carry_each_modes_seats_for_the_script(client: Client, organiser) -> None:
    client.force_login(organiser)
    for url in ("/leagues/new/", "/challenge/", "/paired/new/"):
        page = client.get(url).content.decode()
        assert 'data-mode-seats="{&quot;standard&quot;: [2, 4]' in page, url
        assert "&quot;solo&quot;: [1, 1]" in page and "&quot;duel&quot;: [2, 2]" in page


def test_the_league_form_has_no_stray_markup(client: Client, organiser) -> None:
    client.force_login(organiser)
    page = client.get("/leagues/new/").content.decode()
    assert "./p>" not in page and "knockout.</p>" in page


def test_counts_of_one_are_singular() -> None:
    labels = dict(mode_choices())
    assert labels["solo"].endswith("(1 seat)") and labels["duel"].endswith("(2 seats)")
    match = Match(pk=1, seed=1234567703, decision_time_limit=1.0, time_bank=30.0,
                  status=Match.Status.QUEUED, mode="duel")  # fmt: skip
    text = render_to_string("website/_match_info.html", {"match": match, "seats": []})
    assert "Seed 1234567703." in text and "1234567703.." not in text


def test_the_api_takes_the_seats_a_mode_fixes(client: Client, organiser) -> None:
    client.force_login(organiser)
    made = client.post("/api/v1/leagues/", {
        "name": "Api solo", "mode": "solo", "format": "ladder",
        "options": {"difficulty": "easy"}}, content_type="application/json")  # fmt: skip
    assert made.status_code == 201, made.content
    assert made.json()["seats"] == 1
    free = client.post("/api/v1/leagues/", {"name": "Api std", "mode": "standard",
                                            "format": "ladder"},
                       content_type="application/json")  # fmt: skip
    assert free.status_code == 400
    assert free.json()["error"]["message"].startswith("Seats: Give the seats")
