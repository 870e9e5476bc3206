"""Boss leagues through the services, real paired games on the eager workers, and the API."""

from __future__ import annotations

import pytest
from django.test import Client

from competition import boss_leagues as rule
from competition import sprt
from tournament.models import BossLeagueStanding, Bot, BotVersion, Match, PairedComparison
from tournament.services import boss_leagues as bls
from tournament.services import leagues as ls
from tournament.services.bots import builtin_bots_register

from .conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def bosses_on(settings):
    settings.BOSS_LEAGUES = True
    builtin_bots_register()


def _house_bot_of(owner, name: str, plays: str) -> BotVersion:
    """An author's bot whose version plays like the built-in bot `plays` (in-process)."""
    bot = Bot.objects.create(name=name, owner=owner)
    return BotVersion.objects.create(bot=bot, number=1, builtin=plays,
                                     status=BotVersion.Status.READY)  # fmt: skip


def _first_gate_only(monkeypatch, seeds: int = 60):
    """Keep the climb to Wood (Bronze's boss is greedy itself, a long run we need not play),
    with the product's α = β = 0.05 but a wide H1 (+200 Elo, a clearly stronger bot), so that
    each seed moves the LLR several times as far and the test plays a few dozen games."""
    leagues = rule.leagues()
    wood = leagues.tiers[0]
    quick = sprt.SprtSettings(wood.settings.elo0, 200.0, wood.settings.alpha, wood.settings.beta)
    short = rule.Leagues((rule.Tier(wood.key, wood.name, wood.boss, quick, seeds),), leagues.seats)
    monkeypatch.setattr(rule, "leagues", lambda path="": short)


def test_a_clearly_stronger_bot_is_promoted_past_wood_through_real_paired_games(
    author, bosses_on, monkeypatch, django_capture_on_commit_callbacks
):
    _first_gate_only(monkeypatch)
    version = _house_bot_of(author, "greedy-twin", "greedy")
    with django_capture_on_commit_callbacks(execute=True):
        (standing,) = bls.boss_leagues_start(version=version)
    standing.refresh_from_db()
    assert standing.mode == "duel" and standing.tier == "wood"
    assert standing.version == version and standing.run is None  # nothing above in this test
    (entry,) = standing.history
    assert entry["tier"] == "wood" and entry["outcome"] == "H1" and entry["promoted"]
    run = PairedComparison.objects.get(pk=entry["comparison"])
    assert run.requested_by is None and run.version_b == version
    assert run.version_a.builtin == "random" and run.opponents == [run.version_a_id]
    assert run.status == "finished" and run.result["decision"] == "H1"
    games = Match.objects.filter(paired_game__comparison=run)
    assert {m.kind for m in games} == {"boss"} and games.filter(status="finished").exists()
    assert not games.filter(status="queued").exists()  # the gate sent each in turn


def test_a_bot_equal_to_the_boss_is_not_promoted_in_a_seeded_run(
    author, bosses_on, monkeypatch, django_capture_on_commit_callbacks
):
    _first_gate_only(monkeypatch, seeds=40)
    version = _house_bot_of(author, "random-twin", "random")
    with django_capture_on_commit_callbacks(execute=True):
        (standing,) = bls.boss_leagues_start(version=version)
    standing.refresh_from_db()
    assert standing.tier == rule.UNRANKED and standing.run is None
    (entry,) = standing.history
    assert entry["tier"] == "wood" and entry["outcome"] == "H0"
    assert not entry["promoted"]


def test_a_new_version_takes_the_place_of_the_run_in_progress(author, bosses_on, runner):
    runner.scores = lambda spec: [0.0 for _ in spec["seats"]]  # never played here: no commit
    first = _house_bot_of(author, "climber", "greedy")
    (standing,) = bls.boss_leagues_start(version=first)
    old_run = standing.run
    assert standing.run_tier == "wood" and old_run.status == "running"
    second = BotVersion.objects.create(bot=first.bot, number=2, builtin="greedy",
                                       status=BotVersion.Status.READY)  # fmt: skip
    (standing,) = bls.boss_leagues_start(version=second)
    old_run.refresh_from_db()
    assert old_run.status == "failed" and "version 2 took its place" in old_run.error
    assert not Match.objects.filter(paired_game__comparison=old_run, status="queued").exists()
    assert standing.run.version_b == second and standing.history[-1]["outcome"] == "replaced"


def test_house_bots_and_boss_leagues_off_start_nothing(author, settings):
    builtin_bots_register()
    settings.BOSS_LEAGUES = True
    house = BotVersion.objects.filter(bot__is_system=True).first()
    assert bls.boss_leagues_start(version=house) == []
    settings.BOSS_LEAGUES = False
    assert bls.boss_leagues_start(version=_house_bot_of(author, "x", "greedy")) == []


def _ladder_with_leagues(organiser, author, ready_version):
    """A duel ladder of three entrants: one in Bronze, one in Wood, one unranked."""
    league = ls.league_create(organiser=organiser, name="duels", mode="duel", seats=2,
                              format="ladder")  # fmt: skip
    versions = {name: ready_version(author, name) for name in ("brass", "plank", "fresh")}
    for version in versions.values():
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    BossLeagueStanding.objects.create(bot=versions["brass"].bot, mode="duel", tier="bronze",
                                      version=versions["brass"])  # fmt: skip
    BossLeagueStanding.objects.create(bot=versions["plank"].bot, mode="duel", tier="wood")
    return league, versions


def test_everyone_sees_a_bots_leagues_and_its_run_in_the_api(
    author, other_author, bosses_on, runner
):
    version = _house_bot_of(author, "climber", "greedy")
    (standing,) = bls.boss_leagues_start(version=version)  # queued, not played (no commit)
    for viewer in (None, other_author, author):
        body = client_for(viewer).get(f"/api/v1/bots/{version.bot_id}/").json()
        (duel,) = body["leagues"]
        assert duel["mode"] == "duel" and duel["tier"] == "unranked"
        assert duel["name"] == "Unranked" and duel["history"] == []
        assert duel["run"] == {"comparison": standing.run.pk, "tier": "wood", "name": "Wood",
                               "bot_version": version.pk}  # fmt: skip
    # A bot without a standing is unranked with no run.
    bare = _house_bot_of(author, "bare", "random")
    (duel,) = client_for(None).get(f"/api/v1/bots/{bare.bot_id}/").json()["leagues"]
    assert duel == {"mode": "duel", "tier": "unranked", "name": "Unranked", "run": None,
                    "history": []}  # fmt: skip


def test_the_ladder_shows_each_entrants_league_and_filters_by_tier(
    organiser, author, ready_version
):
    league, versions = _ladder_with_leagues(organiser, author, ready_version)
    url = f"/api/v1/leagues/{league.pk}/ladder/"
    whole = client_for(None).get(url).json()["results"]
    assert {r["bot"]: r["boss_league"] for r in whole} == {
        "brass": "bronze", "plank": "wood", "fresh": "unranked"}  # fmt: skip
    ranks = {r["bot"]: r["rank"] for r in whole}
    bronze = client_for(None).get(url, {"tier": "bronze"}).json()
    assert [(r["bot"], r["rank"]) for r in bronze["results"]] == [("brass", ranks["brass"])]
    assert bronze["count"] == 1
    unranked = client_for(None).get(url, {"tier": "unranked"}).json()["results"]
    assert [r["bot"] for r in unranked] == ["fresh"]
    assert client_for(None).get(url, {"tier": "gold"}).json()["results"] == []
    bad = client_for(None).get(url, {"tier": "iron"})
    assert bad.status_code == 400
    assert "tier must be one of wood, bronze" in bad.json()["error"]["message"]


def test_a_mode_without_boss_leagues_has_no_badge_and_refuses_the_filter(
    organiser, author, ready_version
):
    league = ls.league_create(organiser=organiser, name="fours", mode="standard", seats=4,
                              format="ladder")  # fmt: skip
    ls.league_entry_add(league=league, user=organiser,
                        bot_version_id=ready_version(author, "std").pk)  # fmt: skip
    url = f"/api/v1/leagues/{league.pk}/ladder/"
    assert [r["boss_league"] for r in client_for(None).get(url).json()["results"]] == [None]
    bad = client_for(None).get(url, {"tier": "wood"})
    assert bad.status_code == 400
    assert "no boss leagues" in bad.json()["error"]["message"]


def test_the_pages_show_the_league_badges_the_filter_and_the_run(
    client, organiser, author, ready_version, bosses_on, runner
):
    league, versions = _ladder_with_leagues(organiser, author, ready_version)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert 'class="badge league bronze"' in page and ">Bronze</span>" in page
    assert 'name="tier"' in page and '<option value="silver">Silver</option>' in page
    page = client.get(f"/leagues/{league.pk}/", {"tier": "wood"}).content.decode()
    assert "plank" in page and "brass" not in page.split('id="ladder-title"')[1].split(
        "</table>")[0]  # fmt: skip
    bad = client.get(f"/leagues/{league.pk}/", {"tier": "iron"})
    assert bad.status_code == 400 and "tier must be one of" in bad.content.decode()
    (standing,) = bls.boss_leagues_start(version=versions["brass"])  # Bronze: climbs to Silver
    assert standing.run_tier == "silver" and standing.run.version_a.builtin == "search-0.05s"
    bot_page = client.get(f"/bots/{versions['brass'].bot_id}/").content.decode()
    assert "Boss leagues" in bot_page and 'class="badge league bronze"' in bot_page
    assert f'href="/paired/{standing.run.pk}/"' in bot_page and "climbing to Silver" in bot_page


def test_a_bots_league_is_public_on_its_page_for_every_identity(
    organiser, author, other_author, ready_version
):
    _, versions = _ladder_with_leagues(organiser, author, ready_version)
    url = f"/bots/{versions['brass'].bot_id}/"
    for viewer in (None, other_author, author):
        client = Client()
        if viewer is not None:
            client.force_login(viewer)
        page = client.get(url).content.decode()
        assert 'class="badge league bronze"' in page and "duel:" in page
