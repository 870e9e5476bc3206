"""/status and /metrics on the production stack: gunicorn and Celery workers on
PostgreSQL and Redis (scripts/stack.py). The worker's heartbeat reaches the web through the
database; with the worker killed, matches wait in Redis and both endpoints show the depth
that Redis reports, the silence, and the queued matches; a new worker plays them and both
endpoints see it beat and the matches recorded."""

from __future__ import annotations

import pytest
from prometheus_client.parser import text_string_to_metric_families

from scripts.stack import Stack
from tests.ports import free_port

from .stack_api import (
    Api,
    builtin_versions,
    league_closed,
    league_started,
    login_organiser,
    wait_for,
)

pytestmark = [pytest.mark.integration, pytest.mark.slow]

STALE_SECONDS = 3.0


@pytest.fixture
def health_stack(stack_env, tmp_path):
    env = {
        **stack_env,
        "DATA_DIR": str(tmp_path / "data"),
        "DEBUG": "1",  # /metrics open; its access rules are tested in tests/website
        "WORKER_HEARTBEAT_SECONDS": "0.5",
        "WORKER_STALE_SECONDS": str(STALE_SECONDS),
    }
    stack = Stack(workers=1, port=free_port(), env=env, state_dir=tmp_path / "stack",
                  beat=False, web_workers=1)  # fmt: skip
    with stack:
        yield stack


def _metrics(api: Api) -> dict[str, list]:
    text = api.call("GET", "/metrics").decode()
    return {f.name: f.samples for f in text_string_to_metric_families(text)}


def _sample(samples: list, name: str, **labels: str) -> float:
    return next(s.value for s in samples if s.name == name and s.labels == labels)


def _match_queues_empty(status: dict) -> bool:
    """Whether /status reads every broker queue but the beat's periodic one as empty."""
    queues = status["queue"]["queues"] or {}
    return status["queue"]["source"] == "broker" and not any(
        depth for name, depth in queues.items() if name != "periodic"
    )

def test_status_and_metrics_on_postgres_and_redis(health_stack):
    stack = health_stack
    anon = Api(stack.base_url)
    body = wait_for(lambda: (b := anon.call("GET", "/status"))["workers"] and b, 60, "a beat")
    assert [(w["role"], w["state"]) for w in body["workers"]] == [("match", "ok")]
    assert "name" not in body["workers"][0]  # host names are for staff (tests/website)
    assert body["status"] == "ok" and body["queue"]["source"] == "broker"

    stack.kill("w1")
    silent = wait_for(
        lambda: (b := anon.call("GET", "/status"))["status"] == "no_worker" and b, 60, "silence"
    )
    # (the status is decided on the exact age; the body rounds it to a tenth)
    assert silent["workers"] == [] and silent["last_beat_seconds"] >= STALE_SECONDS

    from tournament.services.bots import builtin_bots_register

    builtin_bots_register()  # as `manage.py register_builtin_bots` does on a new deployment
    organiser = login_organiser(anon, "olwen")
    builtin = builtin_versions(anon)
    league = league_started(
        organiser, organiser,
        {"name": "health cup", "mode": "duel", "seats": 2, "format": "round_robin", "seeds": 1},
        [], [builtin["random"], builtin["greedy"]],
    )  # fmt: skip
    queued = wait_for(  # the broker's depth is read at most every 5 s: wait for it as well
        lambda: (b := anon.call("GET", "/status"))["matches"]["queued"] >= 2
        and (b["queue"]["queues"] or {}).get("matches.background", 0) >= 2 and b, 60, "queued",
    )  # fmt: skip
    depth = queued["queue"]
    assert depth["source"] == "broker" and depth["queues"]["matches.background"] >= 2
    assert depth["depth"] == sum(depth["queues"].values())
    assert queued["oldest_queued_seconds"] >= 0
    families = _metrics(anon)
    assert _sample(families["arena_queue_depth"], "arena_queue_depth", source="broker") >= 2
    messages = families["arena_broker_queue_messages"]
    assert _sample(messages, "arena_broker_queue_messages", queue="matches.background") >= 2
    assert _sample(families["arena_matches"], "arena_matches", status="queued") >= 2
    assert _sample(families["arena_workers_live"], "arena_workers_live") == 0
    [silent_age] = [s for s in families["arena_worker_last_beat_age_seconds"]]
    assert silent_age.labels["worker"].startswith("w1@") and silent_age.value > STALE_SECONDS

    stack.add_worker()  # w2 takes the waiting matches
    league_closed(anon, league["id"], 300)
    # the match queues drain; the periodic queue (the beat's jobs, one at a time on its solo
    # pool) may hold the next job at any moment on a loaded machine, so it is left out
    after = wait_for(
        lambda: _match_queues_empty(b := anon.call("GET", "/status")) and b, 120, "empty"
    )
    assert after["workers_live"]["match"] == 1 and len(after["workers"]) == 1
    assert after["matches"]["queued"] == 0 and after["matches"]["finished"] >= 2
    assert after["oldest_queued_seconds"] is None
    families = _metrics(anon)
    histogram = families["arena_match_duration_seconds"]
    assert _sample(histogram, "arena_match_duration_seconds_count") >= 2
    assert _sample(families["arena_workers_live"], "arena_workers_live") == 1
    [w2] = [s for s in families["arena_worker_info"] if s.labels["worker"].startswith("w2@")]
    assert w2.labels["role"] == "match" and w2.labels["state"] == "ok"
