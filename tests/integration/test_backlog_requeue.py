"""A worker killed outright while 50 matches wait behind it, through the real stack:
gunicorn, two Celery workers and beat with the periodic queue's worker, on PostgreSQL and Redis
(scripts/stack.py), with a short heartbeat, staleness threshold, reaper period and queued age
(MATCH_HEARTBEAT_SECONDS, MATCH_HEARTBEAT_STALE_SECONDS, REAPER_SECONDS,
REAPER_QUEUED_AGE_SECONDS): the same events as with the defaults, in a fraction of the waiting.
`bench/requeue.py` measures the re-run with the default settings.

The reaper runs on its own queue, so the backlog does not delay it; it re-queues the killed
match when its heartbeat goes stale, to the retry queue, which the surviving worker serves at its
next free slot: the match runs again long before the 50 queued ahead of it, and counts once. The
time from the kill to its second start is printed, not asserted.
"""

from __future__ import annotations

import uuid

import pytest
from django.utils import timezone

from scripts.stack import Stack
from tests.ports import free_port
from tournament.models import LeagueEntry, Match, MatchSeat, RatingChange
from tournament.services.ratings import ratings_recompute

from .processes import descendants, marked, stubborn_bot
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
SEEDS = 27  # x 2 seat orders = 54 matches: 50 or more wait while two play
QUEUED_AGE_SECONDS = 4.0


@pytest.fixture
def backlog_stack(stack_env, tmp_path):
    env = short_reaper_env(stack_env, tmp_path / "data",
                           REAPER_QUEUED_AGE_SECONDS=str(QUEUED_AGE_SECONDS))  # fmt: skip
    stack = Stack(workers=2, port=free_port(), env=env, state_dir=tmp_path / "stack", web_workers=1)
    with stack:
        yield stack


@pytest.mark.timeout(1200)
def test_a_killed_worker_s_match_runs_again_ahead_of_a_backlog_of_50(backlog_stack):
    stack = backlog_stack
    anon = Api(stack.base_url)
    author = login(anon, "author4")
    organiser = login_organiser(anon, "organiser4")
    marker = f"backlog-marker-{uuid.uuid4().hex}"
    sleeper = upload_ready(author, "sleeper", "sleeper.py", stubborn_bot(marker, DECIDE_SECONDS))
    league = league_started(
        organiser, author,
        {"name": "backlog cup", "mode": "duel", "seats": 2, "format": "round_robin",
         "seeds": SEEDS, "decision_time_limit": 2.0, "time_bank": 30.0},
        [sleeper], [builtin_versions(anon)["random"]],
    )  # fmt: skip
    in_league = Match.objects.filter(league_id=league["id"])
    assert in_league.count() == 2 * SEEDS

    # w1 plays a match (its bot is up); 50 matches wait.
    worker = stack.status()["w1"]
    wait_for(
        lambda: set(marked(marker)) & {pid for pid, _ in descendants(worker)},
        120, "a match on w1",
    )  # fmt: skip
    running = set(in_league.filter(status="running").values_list("pk", flat=True))
    queued = in_league.filter(status="queued").count()
    assert queued >= 50, queued
    stack.kill("w1")
    killed_at = timezone.now()

    def replayed() -> Match | None:
        return in_league.filter(pk__in=running, attempts=2).first()

    again = wait_for(replayed, 300, "the killed match to run again")
    waiting_then = in_league.filter(status="queued").count()
    seconds = (again.started_at - killed_at).total_seconds()
    print(f"\nthe killed match ran again {seconds:.1f}s after the kill, "
          f"with {waiting_then} matches still queued")  # fmt: skip
    # It did not wait for its turn behind the backlog: most of the 50 still wait.
    assert waiting_then >= 30, waiting_then

    done = wait_for(
        lambda: (m := Match.objects.get(pk=again.pk)).status in ("finished", "failed") and m,
        300, "the killed match to finish",
    )  # fmt: skip
    assert done.status == "finished", done.error
    assert done.attempts == 2
    seats = list(MatchSeat.objects.filter(match=done))
    assert all(s.rank is not None and s.fault == "" for s in seats), seats

    # Close the league (the backlog is cancelled) and let what runs end.
    organiser.call("POST", f"/api/v1/leagues/{league['id']}/close/")
    wait_for(lambda: not in_league.filter(status__in=("queued", "running")).exists(), 300,
             "the running matches to end")  # fmt: skip
    finished = list(in_league.filter(status="finished"))
    assert set(in_league.values_list("status", flat=True)) <= {"finished", "cancelled"}
    # Exactly once: a rating change per seat of each finished match, games to match.
    for match in finished:
        assert RatingChange.objects.filter(match=match).count() == 2, match.pk
    assert RatingChange.objects.filter(league_id=league["id"]).count() == 2 * len(finished)
    assert sum(
        LeagueEntry.objects.filter(league_id=league["id"]).values_list("games", flat=True)
    ) == 2 * len(finished)
    assert ratings_recompute(league_id=league["id"]) == []


@pytest.mark.timeout(900)
def test_matches_whose_messages_redis_lost_are_sent_again_and_count_once(backlog_stack):
    """Redis loses the queued messages (as a restart without persistence would): the reaper
    sees queued matches whose message is gone and sends them again; all finish, once each."""
    stack = backlog_stack
    anon = Api(stack.base_url)
    author = login(anon, "author5")
    organiser = login_organiser(anon, "organiser5")
    marker = f"lost-marker-{uuid.uuid4().hex}"
    sleeper = upload_ready(author, "sleeper", "sleeper.py", stubborn_bot(marker, DECIDE_SECONDS))
    league = league_started(
        organiser, author,
        {"name": "lost cup", "mode": "duel", "seats": 2, "format": "round_robin",
         "seeds": 3, "decision_time_limit": 2.0, "time_bank": 30.0},
        [sleeper], [builtin_versions(anon)["random"]],
    )  # fmt: skip
    in_league = Match.objects.filter(league_id=league["id"])
    wait_for(lambda: in_league.filter(status="running").count() == 2, 120, "two matches to run")
    import redis

    client = redis.Redis.from_url(stack.env["CELERY_BROKER_URL"])
    lost = client.delete("matches.background")  # the waiting messages are gone
    lost_at = timezone.now()
    queued = set(in_league.filter(status="queued").values_list("pk", flat=True))
    assert lost == 1 and len(queued) >= 4, (lost, queued)

    def all_started() -> bool:
        return not in_league.filter(pk__in=queued, status="queued").exists()

    wait_for(all_started, 300, "the lost matches to be sent again and started")
    resent = in_league.filter(pk__in=queued).order_by("queued_at").first()
    print(f"\nthe first lost match was sent again "
          f"{(resent.queued_at - lost_at).total_seconds():.1f}s after the loss")  # fmt: skip
    assert all(m.queued_at > lost_at for m in in_league.filter(pk__in=queued))
    league_closed(anon, league["id"], 300)
    matches = list(in_league)
    assert {m.status for m in matches} == {"finished"}
    assert all(m.attempts == 1 for m in matches)  # each played once
    assert RatingChange.objects.filter(league_id=league["id"]).count() == 2 * len(matches)
    assert ratings_recompute(league_id=league["id"]) == []
    assert (
        "queued without a message in the broker; sent again"
        in (stack.log_dir / "beat.log").read_text()
    )
