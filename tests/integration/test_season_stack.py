"""A season through the real stack (gunicorn + a Celery worker + beat on PostgreSQL and
Redis): a Duel ladder of eight house bots (copies of the built-in random and greedy bots)
plays, its organiser closes it, its top four enter a double-elimination playoff (best of 3)
that starts and runs to the end with no further action, and the champion and podium appear
in the API, on the league page, on the bracket page and as a title on the champion's bot
page."""

from __future__ import annotations

import pytest

from tournament.models import Bot, BotVersion, LeagueEntry, Match, MatchSeat

from .stack_api import Api, login_organiser, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def _drawn(match_ids: list[int]) -> bool:
    """Whether any of these two-seat games ended with both seats on the same rank."""
    ranks = MatchSeat.objects.filter(match_id__in=match_ids).values_list("match_id", "rank")
    by_match: dict[int, set] = {}
    for match_id, rank in ranks:
        by_match.setdefault(match_id, set()).add(rank)
    return any(len(seen) == 1 for seen in by_match.values())


def _house_bot(owner_name: str, name: str, builtin: str) -> int:
    from django.contrib.auth import get_user_model

    owner = get_user_model().objects.get(username=owner_name)
    bot = Bot.objects.create(name=name, owner=owner)
    return BotVersion.objects.create(bot=bot, number=1, builtin=builtin,
                                     status=BotVersion.Status.READY).pk  # fmt: skip


def test_ladder_closes_into_a_double_elimination_playoff(live_stack):
    anon = Api(live_stack.base_url)
    organiser = login_organiser(anon, "organiser5")
    versions = [_house_bot("organiser5", f"house-{kind}-{i}", kind)
                for i, kind in enumerate(["greedy", "random"] * 4)]  # fmt: skip
    ladder = organiser.call("POST", "/api/v1/leagues/", {
        "name": "Season ladder", "mode": "duel", "seats": 2, "format": "ladder",
    })  # fmt: skip
    for version in versions:
        organiser.call("POST", f"/api/v1/leagues/{ladder['id']}/entries/",
                       {"bot_version": version})  # fmt: skip
    playoff = organiser.call("POST", "/api/v1/leagues/", {
        "name": "Season playoff", "mode": "duel", "seats": 2, "format": "double_elim",
        "best_of": 3, "seeding": "standings", "playoff_of": ladder["id"], "playoff_top": 4,
    })  # fmt: skip
    assert playoff["bracket"]["playoff_of"] == ladder["id"] and playoff["status"] == "draft"
    organiser.call("POST", f"/api/v1/leagues/{ladder['id']}/start/")
    wait_for(
        lambda: all(e.games >= 2 for e in LeagueEntry.objects.filter(league_id=ladder["id"])),
        300, "every ladder entrant to play two games",
    )  # fmt: skip
    organiser.call("POST", f"/api/v1/leagues/{ladder['id']}/close/")
    # the ladder's final order is its podium; the playoff started by itself
    closed = anon.call("GET", f"/api/v1/leagues/{ladder['id']}/")
    assert [p["place"] for p in closed["podium"]] == [1, 2, 3]
    top4 = [p["bot_version"] for p in closed["podium"]]
    done = wait_for(
        lambda: (d := anon.call("GET", f"/api/v1/leagues/{playoff['id']}/"))["status"]
        == "closed" and d,
        600, "the playoff to be played to the end",
    )  # fmt: skip
    podium = done["podium"]
    assert [p["place"] for p in podium] == [1, 2, 3]
    assert podium[0]["result"] == "Champion" and podium[1]["result"] == "Runner-up"
    entries = anon.call("GET", f"/api/v1/leagues/{playoff['id']}/entries/")["results"]
    assert len(entries) == 4
    assert set(top4) <= {e["bot_version"] for e in entries}  # the ladder's top entered
    bracket = anon.call("GET", f"/api/v1/leagues/{playoff['id']}/bracket/")
    assert [s["title"] for s in bracket["sections"]] == [
        "Winners' bracket", "Losers' bracket", "Grand final",
    ]  # fmt: skip
    # best of 3: every series with two entrants played 2 or 3 games, each on its own seed
    for section in bracket["sections"]:
        for column in section["columns"]:
            for series in column["series"]:
                if all(slot["entrant"] for slot in series["slots"]):
                    games = len(series["matches"])
                    # a drawn game leaves a series open: it goes on one game at a time
                    # (competition/bracket_plan.py's series_needs), up to 2 x best-of
                    assert 2 <= games <= (3 if not _drawn(series["matches"]) else 6), series
                    seeds = Match.objects.filter(pk__in=series["matches"]).values_list("seed")
                    assert len(set(seeds)) == len(series["matches"])
    assert Match.objects.filter(league_id=playoff["id"]).exclude(status="finished").count() == 0
    champion = podium[0]["bot_name"]
    page = anon.call("GET", f"/leagues/{playoff['id']}/").decode()
    assert "Champion and podium" in page and champion in page
    assert "Champion" in anon.call("GET", f"/leagues/{playoff['id']}/bracket/").decode()
    bot_page = anon.call("GET", f"/bots/{podium[0]['bot']}/").decode()
    assert "Titles" in bot_page and "Season playoff" in bot_page
