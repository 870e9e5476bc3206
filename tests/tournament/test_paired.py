"""Paired comparisons through the service, the workers' match path and the API."""

from __future__ import annotations

import pytest

from tournament.models import LeagueEntry, Match, PairedComparison, RatingChange
from tournament.services import leagues as ls
from tournament.services import matches as ms
from tournament.services import paired as ps
from tournament.services.bots import builtin_bots_register
from tournament.services.outcome import SeatOutcome

from .conftest import client_for

pytestmark = pytest.mark.django_db

STRENGTH = {"worse": 20.0, "better": 30.0, "random": 25.0}


def _scores(spec):
    return [STRENGTH.get(s["name"], 25.0) for s in spec["seats"]]


def test_create_plays_seeds_until_the_sprt_decides_unrated_and_finds_b_stronger(
    organiser, author, ready_version, runner, django_capture_on_commit_callbacks
):
    a, b = ready_version(author, "worse"), ready_version(author, "better")
    league = ls.league_create(
        organiser=organiser, name="side", mode="duel", seats=2, format="ladder"
    )
    for v in (a, b):  # both are in a league: a comparison must not move their ratings
        ls.league_entry_add(league=league, user=organiser, bot_version_id=v.pk)
    runner.scores = _scores
    api = client_for(author)
    body = {"bot_version_a": a.pk, "bot_version_b": b.pk, "mode": "duel", "seats": 2,
            "seeds": 100}  # the cap; the SPRT stops long before  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        made = api.post("/api/v1/paired/", body, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["games_total"] == 4 * 2 * 2  # the first window of seeds
    assert made.json()["result"] is None and made.json()["elo1"] == 40.0
    comparison = PairedComparison.objects.get(pk=made.json()["id"])
    matches = Match.objects.filter(paired_game__comparison=comparison)
    assert {m.kind for m in matches} == {"paired"} and {m.league_id for m in matches} == {None}
    # The tested seat got its own bot seed; the opponent plays with the match seed.
    for spec in runner.specs:
        tested = [s for s in spec["seats"] if s["name"] in ("worse", "better")]
        others = [s for s in spec["seats"] if s["name"] not in ("worse", "better")]
        assert len(tested) == 1 and tested[0]["bot_seed"] is not None
        assert [o["bot_seed"] for o in others] == [None] and others[0]["builtin"] == "random"
    # Same deal for A and B in each seed and rotation.
    by_cell = {}
    for g in comparison.games.select_related("match"):
        by_cell.setdefault((g.seed_index, g.rotation), set()).add(g.match.seed)
    assert all(len(seeds) == 1 for seeds in by_cell.values())

    detail = client_for(None).get(f"/api/v1/paired/{comparison.pk}/").json()
    assert detail["status"] == "finished"
    result = detail["result"]
    # B outscores A on every deal: the LLR climbs about 0.108 a seed and crosses ln(19) at
    # the 28th; the seeds queued beyond it were played or cancelled, never counted.
    assert result["decision"] == "H1" and result["seeds"] == 28 and result["games"] == 112
    assert result["verdict"] == "H1 accepted: B is stronger than A (Elo above +0)"
    assert result["counts"] == [0, 0, 0, 0, 28] and len(result["course"]) == 28
    assert result["llr"] >= result["llr_upper"] > result["course"][-2][2]
    assert result["elo_low"] > 0 and result["elo_high"] is None  # no upper end: B won all
    assert result["mean_diff"] == 10.0
    assert result["win_rate_b"] == 1.0 and result["win_rate_a"] == 0.0
    assert 112 <= detail["games_total"] <= (28 + 4) * 4 < 100 * 4  # stopped early
    assert not matches.filter(status="queued").exists()
    assert detail["version_a"]["bot_name"] == "worse" and detail["version_b"]["number"] == 1
    # Unrated: no rating moved.
    assert not RatingChange.objects.exists()
    assert set(LeagueEntry.objects.values_list("rating", "games")) == {(1500.0, 0)}
    # Listed for the bot page, filtered by bot (A or B).
    listed = client_for(None).get(f"/api/v1/paired/?bot={a.bot_id}").json()
    assert [c["id"] for c in listed["results"]] == [comparison.pk]
    assert client_for(None).get("/api/v1/paired/?bot=99999").json()["count"] == 0


def test_a_game_that_fails_for_good_drops_its_seed(author, ready_version, runner):
    a, b = ready_version(author, "worse"), ready_version(author, "better")
    opponent = ready_version(author, "opp")
    comparison = ps.paired_create(
        user=author, version_a_id=a.pk, version_b_id=b.pk, mode="duel", seats=2, seeds=3,
        opponent_ids=[opponent.pk],
    )  # fmt: skip
    games = list(comparison.games.select_related("match").order_by("seed_index", "rotation"))
    for game in games:
        match = game.match
        if game.seed_index == 1 and game.arm == "B" and game.rotation == 0:
            Match.objects.filter(pk=match.pk).update(attempts=ms.MAX_ATTEMPTS)
            ms.match_fail(match_id=match.pk, error="worker lost")
            continue
        tested = 30.0 if game.arm == "B" else 20.0 + game.seed_index
        seats = [
            SeatOutcome(seat=s, score=tested if s == game.rotation else 25.0, rank=1)
            for s in range(2)
        ]
        ms.match_record_result(match_id=match.pk, seats=seats, result={"scores": []})
    comparison.refresh_from_db()
    assert comparison.status == "finished" and comparison.result["capped"]
    # Seeds 0 and 2 remain: differences 10 and 8.
    assert comparison.result["seeds"] == 2 and comparison.result["mean_diff"] == 9.0
    assert comparison.result["verdict"].startswith("inconclusive at the cap")


def test_every_game_failing_fails_the_comparison(author, ready_version, runner):
    a = ready_version(author, "worse")
    opponent = ready_version(author, "opp")
    comparison = ps.paired_create(
        user=author, version_a_id=a.pk, version_b_id=a.pk, mode="duel", seats=2, seeds=1,
        opponent_ids=[opponent.pk],
    )  # fmt: skip
    for game in comparison.games.all():
        Match.objects.filter(pk=game.match_id).update(attempts=ms.MAX_ATTEMPTS)
        ms.match_fail(match_id=game.match_id, error="worker lost")
    comparison.refresh_from_db()
    assert comparison.status == "failed" and "no seed" in comparison.error


def test_bad_requests_get_clear_errors(author, other_author, ready_version):
    a, b = ready_version(author, "worse"), ready_version(author, "better")
    pending = ready_version(author, "pending")
    pending.status = "pending"
    pending.save()
    base = {"bot_version_a": a.pk, "bot_version_b": b.pk, "mode": "duel", "seats": 2, "seeds": 4}

    def post(user, **changes):
        return client_for(user).post("/api/v1/paired/", {**base, **changes}, format="json")

    cases = [
        (post(other_author), 403, "permission_denied"),
        (post(None), 401, None),
        (post(author, bot_version_b=99999), 404, "not_found"),
        (post(author, bot_version_b=pending.pk), 409, "conflict"),
        (post(author, seeds=0), 400, "invalid"),
        (post(author, seeds=5000), 400, "invalid"),
        (post(author, mode="chess"), 400, "bad_game_config"),
        (post(author, seats=3), 400, "bad_game_config"),
        (post(author, elo0=5, elo1=5), 400, "invalid"),
        (post(author, elo0=10, elo1=2), 400, "invalid"),
        (post(author, alpha=0.5), 400, "invalid"),
        (post(author, beta=0), 400, "invalid"),
        (post(author, opponents=[a.pk, b.pk]), 400, "invalid"),
        (post(author, mode="solo", seats=1, options={"difficulty": "easy"}, opponents=[a.pk]),
         400, "invalid"),
    ]  # fmt: skip
    for response, status, code in cases:
        assert response.status_code == status, response.content
        if code:
            assert response.json()["error"]["code"] == code
    assert not PairedComparison.objects.exists() and not Match.objects.exists()
    assert client_for(None).get("/api/v1/paired/12345/").status_code == 404
    bounds = post(author, elo0=10, elo1=2).json()["error"]["message"]
    assert bounds == "the SPRT's lower bound elo0 (10) must be below elo1 (2)."
    assert "alpha must be between 0 and 0.5" in post(author, alpha=0.7).json()["error"]["message"]


def test_greedy_against_random_on_the_real_runner(organiser, django_capture_on_commit_callbacks):
    """The Must-show through the tournament: built-in bots played by the real match runner
    in-process (embedded mode's eager worker), the same path as every unrated match."""
    builtins = builtin_bots_register()
    api = client_for(organiser)
    body = {"bot_version_a": builtins["random"].pk, "bot_version_b": builtins["greedy"].pk,
            "mode": "duel", "seats": 2, "seeds": 200, "elo1": 200}  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        made = api.post("/api/v1/paired/", body, format="json")
    assert made.status_code == 201, made.content
    detail = api.get(f"/api/v1/paired/{made.json()['id']}/").json()
    assert detail["status"] == "finished", detail
    result = detail["result"]
    assert result["decision"] == "H1" and result["verdict"].startswith("H1 accepted")
    assert result["elo_low"] > 0 and result["win_rate_b"] > result["win_rate_a"]
    assert result["games"] <= 40  # far below the cap of 800 games
    played = Match.objects.filter(kind="paired", status="finished")
    seeds = played.values_list("seats__bot_seed", flat=True)
    assert len({s for s in seeds if s is not None}) == played.count()  # each its own seed


def test_running_comparisons_per_user_are_limited(author, ready_version, settings):
    settings.PAIRED_ACTIVE_MAX = 1
    a, b = ready_version(author, "worse"), ready_version(author, "better")
    body = {"bot_version_a": a.pk, "bot_version_b": b.pk, "mode": "duel", "seats": 2, "seeds": 1}
    api = client_for(author)
    assert api.post("/api/v1/paired/", body, format="json").status_code == 201  # stays running
    refused = api.post("/api/v1/paired/", body, format="json")
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "throttled"
    assert "1 paired comparisons running" in refused.json()["error"]["message"]
    assert refused["Retry-After"]


def test_paired_list_costs_a_fixed_number_of_queries(
    author, ready_version, runner, django_assert_max_num_queries
):
    a, b = ready_version(author, "worse"), ready_version(author, "better")
    for _ in range(2):
        ps.paired_create(user=author, version_a_id=a.pk, version_b_id=b.pk, mode="duel",
                         seats=2, seeds=2)  # fmt: skip
    with django_assert_max_num_queries(3):
        body = client_for(None).get(f"/api/v1/paired/?bot={b.bot_id}").json()
    assert body["count"] == 2 and {c["games_total"] for c in body["results"]} == {8}
