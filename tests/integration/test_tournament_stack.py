"""The tournament through the real stack: gunicorn + a Celery worker + beat on PostgreSQL and
Redis (tests/conftest.py `live_stack`, which points the processes at pytest-django's test
database). A four-bot league (two of them uploaded bundles played in the sandbox: the Python
random starter and the C++ heuristic starter, compiled on upload by the worker) runs to the
end over the API; a worker process killed by SIGKILL mid-match leads to one finished match."""

from __future__ import annotations

import os
import signal
import time
import uuid
from pathlib import Path

import pytest

from tests.workers.starters import cpp_bundle
from tournament.models import BotVersion, Match, MatchSeat, RatingChange
from tournament.services.ratings import ratings_recompute

from .processes import children, marked, stubborn_bot
from .stack_api import (
    Api,
    builtin_versions,
    league_played,
    login,
    login_organiser,
    upload_ready,
    wait_for,
)

pytestmark = [pytest.mark.integration, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]


def test_league_of_four_bots_through_the_stack(live_stack, tmp_path):
    anon = Api(live_stack.base_url)
    author = login(anon, "author1")
    organiser = login_organiser(anon, "organiser1")

    uploaded = [
        upload_ready(author, "starter", "random_bot.py",
                      (REPO / "examples/bots/random_bot.py").read_bytes()),
        upload_ready(author, "heuristic", "heuristic_cpp.zip",
                      cpp_bundle("heuristic", tmp_path).read_bytes()),
    ]  # fmt: skip
    assert uploaded[1]["language"] == "cpp" and len(uploaded[1]["built_sha256"]) == 64
    assert uploaded[1]["build_log"].startswith("$ g++")  # the owner sees the compile log
    builtin = builtin_versions(anon)
    assert set(builtin) == {"random", "greedy", "search-0.05s", "search-0.25s", "search-1s"}

    league = league_played(
        organiser, author,
        {"name": "stack cup", "mode": "standard", "seats": 4, "format": "round_robin",
         # generous for a busy machine (bots are charged CPU time), and under the server's
         # worst-case ceiling: 4 x (260 x 2 s + 120 s) + startup < 3600 s
         "seeds": 1, "decision_time_limit": 2.0, "time_bank": 120.0},
        uploaded, [builtin["random"], builtin["greedy"]], timeout=240,
    )  # fmt: skip
    matches = anon.call("GET", f"/api/v1/matches/?league={league['id']}")["results"]
    assert len(matches) == 4  # one table of four, each of its four seat rotations
    assert {m["status"] for m in matches} == {"finished"}
    assert len({m["seed"] for m in matches}) == 1
    for match in matches:
        assert "result" not in match  # lists carry summaries; the detail has the result
        result = anon.call("GET", f"/api/v1/matches/{match['id']}/")["result"]
        assert sorted(s["rank"] for s in match["seats"]) == sorted(result["ranks"])
        assert all(s["fault"] == "" for s in match["seats"]), match["seats"]
        replay = anon.call("GET", f"/api/v1/matches/{match['id']}/replay")
        import hashlib

        assert hashlib.sha256(replay).hexdigest() == match["replay_sha256"]
        assert len(replay) == match["replay_size"]
    ladder = anon.call("GET", f"/api/v1/leagues/{league['id']}/ladder/")["results"]
    assert [row["games"] for row in ladder] == [4, 4, 4, 4]
    assert sum(row["elo"] for row in ladder) == pytest.approx(6000, abs=0.5)
    assert RatingChange.objects.filter(league_id=league["id"]).count() == 16
    assert ratings_recompute(league_id=league["id"]) == []


def test_worker_killed_mid_match_finishes_it_once(live_stack):
    anon = Api(live_stack.base_url)
    author = login(anon, "author2")
    marker = f"slowpoke-marker-{uuid.uuid4().hex}"  # this test's bots only, whatever else runs
    slow = upload_ready(author, "slowpoke", "slow.py", stubborn_bot(marker, 0.02))
    random_id = builtin_versions(anon)["random"]
    match = author.call(
        "POST", "/api/v1/matches/", {"mode": "duel", "bot_versions": [slow["id"], random_id]}
    )
    wait_for(lambda: Match.objects.get(pk=match["id"]).status == "running", 60, "the match to run")
    # the bot started (its child runs), so its game of about 150 decisions x 0.02 s is under way
    stubborn = wait_for(lambda: marked(marker), 60, "the bot's child to run")
    worker = live_stack.status()["w1"]
    pool = children(worker)
    assert pool, "the worker has no pool process"
    for child in pool:
        os.kill(child, signal.SIGKILL)
    # Bots die with their worker: soon no process of the killed match's bot is left (a
    # generous deadline for a busy machine; the kill itself is immediate)
    deadline = time.monotonic() + 60.0
    while (left := [p for p in stubborn if p in marked(marker)]) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.05)
    assert left == [], "bot processes outlived their worker's pool process"
    done = wait_for(
        lambda: (m := Match.objects.get(pk=match["id"])).status in ("finished", "failed") and m,
        120, "the match to be re-delivered and finished",
    )  # fmt: skip
    assert done.status == "finished", done.error
    assert done.attempts == 2  # the killed attempt and the re-delivery
    assert MatchSeat.objects.filter(match=done, rank__isnull=False).count() == 2
    assert done.replay_size > 0
    # A stray third delivery would be queued before a match sent now, and the one worker takes
    # its queue in order: once the later match is finished, any earlier delivery was made.
    later = author.call(
        "POST", "/api/v1/matches/", {"mode": "duel", "bot_versions": [random_id, random_id]}
    )
    wait_for(lambda: Match.objects.get(pk=later["id"]).status == "finished", 120,
             "a later match to finish")  # fmt: skip
    again = Match.objects.get(pk=match["id"])
    assert (again.status, again.attempts, again.finished_at) == ("finished", 2, done.finished_at)


def test_paired_comparison_through_the_stack(live_stack):
    """A paired comparison is played by the real worker like any unrated match: built-in
    random (A) against greedy (B) in the Duel, six deals in both seats."""
    anon = Api(live_stack.base_url)
    organiser = login_organiser(anon, "organiser2")
    from tournament.services.bots import builtin_bots_register

    builtin_bots_register()  # as `manage.py register_builtin_bots` does on a new deployment
    builtin = {name: BotVersion.objects.get(builtin=name, bot__is_system=True).pk
               for name in ("random", "greedy")}
    made = organiser.call(
        "POST", "/api/v1/paired/",
        {"bot_version_a": builtin["random"], "bot_version_b": builtin["greedy"],
         "mode": "duel", "seats": 2, "seeds": 30, "elo1": 200},
    )  # fmt: skip
    assert made["status"] == "running" and made["games_total"] == 16  # the first 4 seeds
    done = wait_for(
        lambda: (c := anon.call("GET", f"/api/v1/paired/{made['id']}/"))["status"] != "running"
        and c,
        240, "the paired comparison",
    )  # fmt: skip
    assert done["status"] == "finished", done
    result = done["result"]  # the SPRT stopped early: greedy wins every pair
    assert result["decision"] == "H1" and result["elo_low"] > 0 and result["games"] <= 40
    assert done["games_total"] < 30 * 4
    assert not RatingChange.objects.exists()
    kinds = set(Match.objects.filter(paired_game__comparison_id=made["id"]).values_list("kind"))
    assert kinds == {("paired",)}
