"""OpenSkill beside Elo: the pure module, the ladder service and recompute, the ladder API."""

from __future__ import annotations

import ast
import importlib
import inspect
import random

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError

from competition import skill
from tournament.models import League, LeagueEntry, Match, RatingChange
from tournament.services import leagues as ls
from tournament.services import matches as ms
from tournament.services.challenges import challenge_create
from tournament.services.ratings import ratings_recompute

from .conftest import client_for


def test_two_seat_update_is_the_plackett_luce_update():
    # Plackett-Luce, two seats at (25, 25/3), beta = 25/6: c^2 = 2 (sigma^2 + beta^2) =
    # 2 (69.4444 + 17.3611) = 173.6111, c = 13.1762; p(winner first) = 0.5; the winner's mu
    # rises by sigma^2 / c * (1 - 0.5) = 69.4444 / 13.1762 * 0.5 = 2.6352.
    winner, loser = skill.match_update([skill.START, skill.START], [1, 2])
    assert winner.mu == pytest.approx(27.6354, abs=1e-3)
    assert loser.mu == pytest.approx(22.3646, abs=1e-3)
    assert winner.sigma == loser.sigma < skill.START_SIGMA
    tie = skill.match_update([skill.START, skill.START], [1, 1])
    assert tie[0].mu == pytest.approx(25.0) and tie[1].mu == pytest.approx(25.0)


def test_upsets_move_more_and_certainty_moves_less():
    strong, weak = skill.Skill(30.0, 3.0), skill.Skill(20.0, 3.0)
    expected_win = skill.match_update([strong, weak], [1, 2])
    upset = skill.match_update([strong, weak], [2, 1])
    assert 30.0 - upset[0].mu > expected_win[0].mu - 30.0 > 0
    sure, unsure = skill.Skill(25.0, 2.0), skill.Skill(25.0, 8.0)
    after = skill.match_update([sure, unsure], [2, 1])
    assert 25.0 - after[0].mu < after[1].mu - 25.0


def test_four_seats_and_crash_ranks():
    after = skill.match_update([skill.START] * 4, [1, 2, 2, 4])
    assert after[1].mu == pytest.approx(after[2].mu)
    assert after[0].mu > after[1].mu > after[3].mu
    assert sum(s.mu for s in after) == pytest.approx(100.0, abs=1e-6)  # symmetric start


def test_solo_against_the_sister_and_bad_input():
    win = skill.match_update([skill.START], [1], solo_difficulty="expert", margin=5)
    loss = skill.match_update([skill.START], [1], solo_difficulty="easy", margin=-5)
    assert win[0].mu > 25 > loss[0].mu
    # beating the expert sister is worth more than beating the easy one
    easy_win = skill.match_update([skill.START], [1], solo_difficulty="easy", margin=5)
    assert win[0].mu > easy_win[0].mu
    assert skill.sister_skill("hard").mu == pytest.approx(25.0)
    with pytest.raises(ValueError, match="unknown solo difficulty"):
        skill.match_update([skill.START], [1], solo_difficulty="nope", margin=1)
    with pytest.raises(ValueError, match="one entry per seat"):
        skill.match_update([skill.START] * 2, [1])
    with pytest.raises(ValueError, match="at least two seats"):
        skill.match_update([skill.START], [1])


def test_shown_numbers():
    assert skill.conservative(25.0, 25.0 / 3.0) == pytest.approx(0.0)
    assert skill.interval(25.0, 2.0) == (21.0, 29.0)
    assert skill.is_provisional(skill.START_SIGMA, 50)
    assert skill.is_provisional(1.0, skill.PROVISIONAL_GAMES - 1)
    assert not skill.is_provisional(skill.PROVISIONAL_SIGMA - 0.01, skill.PROVISIONAL_GAMES)
    p = skill.win_probabilities([skill.Skill(30, 2), skill.Skill(20, 2)])
    assert p[0] > 0.8 and sum(p) == pytest.approx(1.0)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_ladder_settles_after_sixteen_games_each(seats):
    """Random results among equals, half of them draws (σ falls slowest so): after 16 games
    each no entrant is provisional any more, and after 9 every one still is."""
    rng = random.Random(seats)
    ratings, games = [skill.START] * 8, [0] * 8
    seen = {}
    while min(games) < 16:
        table = rng.sample(range(8), seats)
        ranks = [1] * seats if rng.random() < 0.5 else rng.sample(range(1, seats + 1), seats)
        updated = skill.match_update([ratings[i] for i in table], ranks)
        for i, after in zip(table, updated, strict=True):
            ratings[i], games[i] = after, games[i] + 1
            seen.setdefault(games[i], []).append(skill.is_provisional(after.sigma, games[i]))
    assert all(seen[9]) and not any(p for n in range(16, max(seen) + 1) for p in seen[n])
    reason = skill.provisional_reason(skill.START_SIGMA, 3)
    assert reason == "3 of the 10 rated games a rating needs to settle"


def test_win_probabilities_are_openskills_own():
    """The closed form the scheduler uses gives openskill's floats, bit for bit."""
    rng = random.Random(7)
    for _ in range(3000):
        seats = rng.choice([2, 2, 3, 4])
        skills = [
            (rng.choice([skill.START_MU, rng.gauss(25, 8)]),
             rng.choice([skill.START_SIGMA, rng.uniform(0.5, 9)]))
            for _ in range(seats)
        ]  # fmt: skip
        teams = [[skill.MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in skills]
        assert skill.win_probabilities(skills) == list(skill.MODEL.predict_win(teams))
    with pytest.raises(ValueError, match="at least two seats"):
        skill.win_probabilities([skill.START])


def test_skill_module_imports_no_django():
    tree = ast.parse(inspect.getsource(skill))
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not any(name.startswith("django") for name in names)


# --- the ladder -----------------------------------------------------------------------------


def _league(organiser, ready_version, names, *, fmt="round_robin", seats=2, mode="duel", **kw):
    league = ls.league_create(
        organiser=organiser, name=f"os-{fmt}-{seats}", mode=mode, seats=seats, format=fmt, **kw
    )
    versions = [ready_version(organiser, f"{n}-{league.pk}") for n in names]
    for v in versions:
        ls.league_entry_add(league=league, user=organiser, bot_version_id=v.pk)
    return league, versions


@pytest.mark.django_db
def test_both_ratings_move_together_and_recompute_agrees(
    organiser, ready_version, runner, django_capture_on_commit_callbacks, capsys
):
    league, versions = _league(
        organiser, ready_version, ["a", "b", "c"], mode="family", seats=3, seeds=2
    )
    order = {v.bot.name: i for i, v in enumerate(versions)}
    runner.scores = lambda spec: [30.0 - 10 * order[s["name"]] for s in spec["seats"]]
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    entries = {e.bot_version_id: e for e in LeagueEntry.objects.filter(league=league)}
    a, b, c = (entries[v.pk] for v in versions)
    assert a.openskill_mu > b.openskill_mu > c.openskill_mu
    assert all(e.openskill_sigma < skill.START_SIGMA for e in entries.values())
    assert a.rating > b.rating > c.rating
    # a always finishes 1st, b 2nd, c 3rd: the ladder API's placements and mean finishing place
    rows = client_for(None).get(f"/api/v1/leagues/{league.pk}/ladder/").json()["results"]
    assert [(r["placements"], r["mean_rank"]) for r in rows] == [
        ([6], 1.0), ([0, 6], 2.0), ([0, 0, 6], 3.0)
    ]
    changes = RatingChange.objects.filter(league=league)
    assert changes.count() == 18 and not changes.filter(mu_after__isnull=True).exists()
    assert ratings_recompute(league_id=league.pk) == []
    call_command("recompute_ratings", league=league.pk)
    assert "ok, 6 matches" in capsys.readouterr().out
    # Tampering with either rating is found, in the entry or in a stored change.
    LeagueEntry.objects.filter(pk=a.pk).update(openskill_sigma=a.openskill_sigma + 0.5)
    problems = ratings_recompute(league_id=league.pk)
    assert len(problems) == 1 and "stored OpenSkill" in problems[0]
    LeagueEntry.objects.filter(pk=a.pk).update(openskill_sigma=a.openskill_sigma)
    change = changes.order_by("pk").first()
    RatingChange.objects.filter(pk=change.pk).update(mu_after=change.mu_after + 1)
    with pytest.raises(CommandError, match="disagree"):
        call_command("recompute_ratings", league=league.pk)
    assert f"match {change.match_id}" in capsys.readouterr().err


@pytest.mark.django_db
def test_solo_league_moves_openskill_against_the_sister(organiser, ready_version, runner):
    league = League.objects.create(
        name="solo", organiser=organiser, mode="solo", seats=1, format="round_robin",
        options={"difficulty": "expert"}, status=League.Status.RUNNING,
    )  # fmt: skip
    version = ready_version(organiser, "solo-bot")
    entry = LeagueEntry.objects.create(league=league, bot_version=version)
    runner.scores = lambda spec: [52.0]  # margin +12
    match = ms.match_create_internal(
        kind="league", mode="solo", options=league.options, bot_versions=[version],
        league=league, requested_by=None,
    )  # fmt: skip
    ms.match_play(match_id=match.pk)
    entry.refresh_from_db()
    expected = skill.match_update([skill.START], [1], solo_difficulty="expert", margin=12)[0]
    assert (entry.openskill_mu, entry.openskill_sigma) == pytest.approx(tuple(expected))
    assert ratings_recompute(league_id=league.pk) == []


@pytest.mark.django_db
def test_unrated_matches_never_touch_ratings(
    organiser, author, ready_version, runner, django_capture_on_commit_callbacks
):
    league, (a, b) = _league(organiser, ready_version, ["a", "b"])
    with django_capture_on_commit_callbacks(execute=True):
        match = challenge_create(user=author, mode="duel", options={}, bot_version_ids=[a.pk, b.pk])
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert not RatingChange.objects.exists()
    for entry in LeagueEntry.objects.filter(league=league):
        assert (entry.rating, entry.openskill_mu, entry.openskill_sigma, entry.games) == (
            1500.0, skill.START_MU, pytest.approx(skill.START_SIGMA), 0,
        )  # fmt: skip


@pytest.mark.django_db
def test_migration_fills_openskill_from_history(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    league, _ = _league(organiser, ready_version, ["a", "b", "c"], seeds=2)
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    def flat():
        pairs = sorted(LeagueEntry.objects.values_list("openskill_mu", "openskill_sigma"))
        return [x for pair in pairs for x in pair]

    stored = flat()
    # As before the migration: no OpenSkill on changes, entries at the start rating.
    RatingChange.objects.update(mu_before=None, mu_after=None, sigma_before=None, sigma_after=None)
    LeagueEntry.objects.update(openskill_mu=skill.START_MU, openskill_sigma=skill.START_SIGMA)
    assert ratings_recompute(league_id=league.pk) != []
    migration = importlib.import_module("tournament.migrations.0006_openskill")
    migration.replay_openskill(apps, None)
    assert flat() == pytest.approx(stored)
    assert ratings_recompute(league_id=league.pk) == []


@pytest.mark.django_db
def test_ladder_api_orders_by_elo_or_conservative(organiser, author, ready_version):
    league, versions = _league(organiser, ready_version, ["lucky", "proven", "new"], fmt="ladder")
    lucky, proven, new = (LeagueEntry.objects.get(bot_version=v) for v in versions)
    # lucky: high Elo from few games, still uncertain; proven: lower Elo, sure of itself.
    LeagueEntry.objects.filter(pk=lucky.pk).update(
        rating=1600, openskill_mu=30.0, openskill_sigma=7.0, games=3
    )
    LeagueEntry.objects.filter(pk=proven.pk).update(
        rating=1550, openskill_mu=28.0, openskill_sigma=2.0, games=40
    )
    api = client_for(None)
    url = f"/api/v1/leagues/{league.pk}/ladder/"
    body = api.get(url).json()
    assert body["league"]["ladder_order"] == "elo"
    assert [r["bot"].split("-")[0] for r in body["results"]] == ["lucky", "proven", "new"]
    top = body["results"][0]
    assert top["openskill_mu"] == 30.0 and top["openskill_sigma"] == 7.0
    assert top["conservative"] == 9.0 and top["openskill_interval"] == [16.0, 44.0]
    assert top["provisional"] is True and body["results"][1]["provisional"] is False
    assert body["results"][2]["conservative"] == pytest.approx(0.0, abs=1e-3)
    body = api.get(url + "?order=conservative").json()
    assert [r["bot"].split("-")[0] for r in body["results"]] == ["proven", "lucky", "new"]
    assert [r["rank"] for r in body["results"]] == [1, 2, 3]
    bad = api.get(url + "?order=luck")
    assert bad.status_code == 400 and "order must be one of" in bad.json()["error"]["message"]

    # The organiser makes the conservative rating the league's order; others may not.
    detail = f"/api/v1/leagues/{league.pk}/"
    assert client_for(author).patch(detail, {"ladder_order": "conservative"}).status_code == 403
    response = client_for(organiser).patch(detail, {"ladder_order": "conservative"})
    assert response.status_code == 200 and response.json()["ladder_order"] == "conservative"
    body = api.get(url).json()
    assert [r["bot"].split("-")[0] for r in body["results"]] == ["proven", "lucky", "new"]
    assert api.get(url + "?order=elo").json()["results"][0]["bot"].startswith("lucky")
    assert client_for(organiser).patch(detail, {"ladder_order": "x"}).status_code == 400


@pytest.mark.django_db
def test_ladder_ties_fall_to_the_margin_then_the_score(organiser, ready_version):
    # Solo ratings only see wins and losses against the sister: two bots that lost every game
    # have the same ratings, and the one that came closer to her ranks first.
    league, versions = _league(
        organiser, ready_version, ["first", "far", "close", "scorer"], mode="solo", seats=1,
        options={"difficulty": "medium"},
    )
    entries = [LeagueEntry.objects.get(bot_version=v) for v in versions]
    totals = [(-30.0, 40.0), (-90.0, 20.0), (-30.0, 25.0), (-30.0, 60.0)]
    for entry, (margin, score) in zip(entries, totals, strict=True):
        LeagueEntry.objects.filter(pk=entry.pk).update(
            rating=1420.0, openskill_mu=20.0, openskill_sigma=5.0, games=3, losses=3,
            margin_sum=margin, score_sum=score,
        )  # fmt: skip
    for order in ("elo", "conservative"):
        body = client_for(None).get(f"/api/v1/leagues/{league.pk}/ladder/?order={order}").json()
        names = [r["bot"].split("-")[0] for r in body["results"]]
        assert names == ["scorer", "first", "close", "far"], order
        assert [r["mean_margin"] for r in body["results"]] == [-10.0, -10.0, -10.0, -30.0]


@pytest.mark.django_db
def test_league_created_with_conservative_order(organiser):
    response = client_for(organiser).post(
        "/api/v1/leagues/",
        {"name": "cons", "mode": "duel", "seats": 2, "format": "ladder",
         "ladder_order": "conservative"},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201 and response.json()["ladder_order"] == "conservative"
    with pytest.raises(Exception, match="Ladder order must be one of"):
        ls.league_create(
            organiser=organiser, name="x", mode="duel", seats=2, format="ladder", ladder_order="x"
        )
