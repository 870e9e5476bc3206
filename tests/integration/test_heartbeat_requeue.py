"""A worker killed outright in the middle of a match, through the real stack: gunicorn, a Celery
worker and beat on PostgreSQL and Redis (scripts/stack.py), with a short heartbeat, staleness
threshold and reaper period (MATCH_HEARTBEAT_SECONDS, MATCH_HEARTBEAT_STALE_SECONDS,
REAPER_SECONDS).

The whole worker goes (SIGKILL of its process group: the Celery main process and its pool
child), so nothing is handed back to the broker and Redis keeps the match's message unacked
for its visibility timeout of an hour: only the reaper, seeing the match's heartbeat go
stale, can queue it again. A second worker then plays it, and the match must count exactly
once: one result, one rating change per seat, a replay that verifies, no extra match rows, and
no process of the killed worker left (its bots die with it, or the next worker's start sweeps
them: `workers.sandbox.bot_process.sweep_leftovers`).
"""

from __future__ import annotations

import hashlib
import re
import time
import uuid

import pytest
from django.db.models import F

from replayfile.format import decode
from replayfile.verify import verify_document
from scripts.stack import Stack
from tests.ports import free_port
from tournament.models import LeagueEntry, Match, MatchSeat, RatingChange
from tournament.services.ratings import ratings_recompute

from .processes import alive, descendants, marked, stubborn_bot
from .stack_api import (
    Api,
    builtin_versions,
    league_closed,
    league_started,
    login,
    login_organiser,
    short_reaper_env,
    upload_ready,
    wait_for,
)

pytestmark = [pytest.mark.integration, pytest.mark.slow]

DECIDE_SECONDS = 0.02  # the bot's pause per decision: a Duel lasts a few seconds


@pytest.fixture
def requeue_stack(stack_env, tmp_path):
    env = short_reaper_env(stack_env, tmp_path / "data")
    stack = Stack(workers=1, port=free_port(), env=env, state_dir=tmp_path / "stack", web_workers=1)
    with stack:
        yield stack


def test_a_killed_worker_s_match_is_requeued_by_its_stale_heartbeat_and_counts_once(
    requeue_stack,
):
    stack = requeue_stack
    anon = Api(stack.base_url)
    author = login(anon, "author3")
    organiser = login_organiser(anon, "organiser3")
    marker = f"requeue-marker-{uuid.uuid4().hex}"  # this test's bots only, whatever else runs
    sleeper = upload_ready(author, "sleeper", "sleeper.py", stubborn_bot(marker, DECIDE_SECONDS))
    league = league_started(
        organiser, author,
        {"name": "requeue cup", "mode": "duel", "seats": 2, "format": "round_robin",
         "seeds": 1, "decision_time_limit": 2.0, "time_bank": 30.0},
        [sleeper], [builtin_versions(anon)["random"]],
    )  # fmt: skip
    scheduled = set(Match.objects.filter(league_id=league["id"]).values_list("pk", flat=True))
    assert len(scheduled) == 2  # the pair in both seat orders

    # One match plays on w1 and has beaten at least once since it started; its bot is up.
    playing = wait_for(
        lambda: Match.objects.filter(
            league_id=league["id"], status="running", heartbeat_at__gt=F("started_at")
        ).first(),
        120, "a league match to run with a heartbeat",
    )  # fmt: skip
    worker = stack.status()["w1"]
    wait_for(
        lambda: set(marked(marker)) & {pid for pid, _ in descendants(worker)},
        60, "the playing bot's child",
    )  # fmt: skip
    doomed = descendants(worker)  # pool, fork server, bots and their child

    stack.kill("w1")
    killed = Match.objects.get(pk=playing.pk)
    assert (killed.status, killed.attempts) == ("running", 1), "the match ended before the kill"

    stack.add_worker()  # w2: its pool process sweeps what w1 left as it starts
    deadline = time.monotonic() + 30
    while (left := alive(doomed)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert left == set(), f"processes of the killed worker still run: {sorted(left)}"

    done = wait_for(
        lambda: (m := Match.objects.get(pk=playing.pk)).status in ("finished", "failed") and m,
        120, "the killed match to be re-queued and played again",
    )  # fmt: skip
    assert done.status == "finished", done.error
    assert done.attempts == 2  # the killed attempt and the one after the re-queue
    assert done.queued_at > killed.started_at  # queued again after it started ...
    reaped = re.findall(  # ... by the reaper, which returns the ids it re-queued
        r"arena\.matches_reap_stale\[[^\]]*\] succeeded in \S+: \[([\d, ]+)\]",
        (stack.log_dir / "beat.log").read_text(),  # the periodic queue's worker
    )
    assert [str(done.pk)] == [i for ids in reaped for i in ids.split(", ")], reaped
    seats = list(MatchSeat.objects.filter(match=done).order_by("seat"))
    assert [s.rank is not None and s.fault == "" for s in seats] == [True, True], seats

    league_closed(anon, league["id"], 120)
    matches = list(Match.objects.filter(league_id=league["id"]))
    assert {m.pk for m in matches} == scheduled  # no match row made twice
    assert {m.status for m in matches} == {"finished"}

    # Ratings moved once per seat of each match, as a recompute from the results agrees.
    changes = RatingChange.objects.filter(match=done)
    assert sorted(changes.values_list("bot_version_id", flat=True)) == sorted(
        s.bot_version_id for s in seats
    )
    assert RatingChange.objects.filter(league_id=league["id"]).count() == 4
    assert list(
        LeagueEntry.objects.filter(league_id=league["id"]).values_list("games", flat=True)
    ) == [2, 2]
    assert ratings_recompute(league_id=league["id"]) == []
    assert marked(marker) == []  # w2 closed the bots it started, too

    data = anon.call("GET", f"/api/v1/matches/{done.pk}/replay")
    assert hashlib.sha256(data).hexdigest() == done.replay_sha256
    verdict = verify_document(decode(data))
    assert verdict.ok, verdict.message
