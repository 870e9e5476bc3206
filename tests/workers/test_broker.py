"""The embedded broker (workers/queueing/broker.py) read by the reaper: `waiting_task_args` lists
the
arguments of the messages still waiting, and a message a worker took is gone from it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from celery import Celery

from workers.queueing.broker import waiting_task_args


def _app(broker_url: str, transport: str | None = None) -> Celery:
    app = Celery("broker-test", set_as_current=False)  # the suite keeps its own current app
    app.conf.update(broker_url=broker_url, task_default_queue="celery")
    if transport:
        app.conf.broker_transport = transport
    return app


def _check(app: Celery) -> None:
    app.send_task("arena.match_play", (7,), queue="celery")
    app.send_task("arena.match_play", (8,), queue="matches.retry")
    app.send_task("arena.ladders_schedule", (), queue="periodic")
    app.send_task("arena.match_play", (9,), queue="matches.duel")  # not a queue asked about
    queues = ["celery", "matches.retry"]
    assert sorted(waiting_task_args(app, "arena.match_play", queues)) == [(7,), (8,)]
    with app.connection_for_read() as conn:  # a worker takes the oldest of "celery"
        message = conn.SimpleQueue("celery", no_ack=True).get(timeout=10)
        assert message.headers["task"] == "arena.match_play"
    assert waiting_task_args(app, "arena.match_play", queues) == [(8,)]


def test_the_embedded_broker_tells_which_matches_wait(tmp_path: Path) -> None:
    _check(_app(f"sqlite:///{tmp_path / 'broker.sqlite3'}", "workers.queueing.broker:Transport"))


@pytest.mark.integration
def test_redis_tells_which_matches_wait() -> None:
    app = _app(os.environ["TEST_REDIS_URL"])
    with app.connection_for_write() as conn:
        for queue in ("celery", "matches.retry", "periodic", "matches.duel"):
            conn.default_channel.client.delete(queue)
    _check(app)
