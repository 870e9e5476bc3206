"""Match lanes in the brokers: a worker that names its queues highest lane first
(workers/queueing/queues.py: worker_queues) is handed the highest lane's oldest message, however
many matches wait in the lanes below it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from celery import Celery
from kombu import Consumer, Queue

from workers.queueing.queues import lane_queue, match_lane, worker_queues


def _app(broker_url: str, transport: str | None = None, **options: object) -> Celery:
    app = Celery("lanes-test", set_as_current=False)  # the suite keeps its own current app
    app.conf.update(broker_url=broker_url, broker_transport_options=options)
    if transport:
        app.conf.broker_transport = transport
    return app


class _Slot:
    """One worker slot: a consumer of worker_queues() (highest lane first) that takes one
    message at a time (prefetch 1, acknowledged before the next) on one connection, so the
    transport's own order between queues (kombu's round robin) would show."""

    def __init__(self, app: Celery) -> None:
        self.app = app

    def __enter__(self) -> _Slot:
        self.conn = self.app.connection_for_read()
        self.taken: list[tuple[str, int]] = []
        queues = [Queue(name, routing_key=name) for name in worker_queues()]
        self.consumer = Consumer(self.conn, queues, callbacks=[self._on_message],
                                 accept=["json"], prefetch_count=1)  # fmt: skip
        self.consumer.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.consumer.__exit__(*exc)
        self.conn.release()

    def _on_message(self, body: object, message: object) -> None:
        self.taken.append((message.delivery_info["routing_key"], body[0][0]))
        message.ack()

    def take(self, count: int) -> list[tuple[str, int]]:
        """(queue, match id) of the next ``count`` messages taken."""
        start = len(self.taken)
        while len(self.taken) < start + count:
            self.conn.drain_events(timeout=10)
        return self.taken[start:]


def _taken_in_order(app: Celery, count: int) -> list[tuple[str, int]]:
    with _Slot(app) as slot:
        return slot.take(count)


def _check_lane_order(app: Celery) -> None:
    background, retry = lane_queue("background"), lane_queue("retry")
    interactive = lane_queue("interactive")
    for match_id in range(1, 21):  # a ladder's backlog
        app.send_task("arena.match_play", (match_id,), queue=background)
    app.send_task("arena.match_play", (100,), queue=retry)  # a lost one, sent again
    app.send_task("arena.match_play", (200,), queue=interactive)  # a validation, sent last
    with _Slot(app) as slot:
        assert slot.take(1) == [(interactive, 200)]
        # The lane just served is not sent to the back (kombu's round robin would): another
        # validation, sent now behind the waiting matches, is still the next one taken.
        app.send_task("arena.match_play", (300,), queue=interactive)
        assert slot.take(1) == [(interactive, 300)]
        assert slot.take(3) == [(retry, 100), (background, 1), (background, 2)]
        app.send_task("arena.match_play", (400,), queue=interactive)
        assert slot.take(2) == [(interactive, 400), (background, 3)]


def test_the_embedded_broker_takes_the_highest_lane_first(tmp_path: Path) -> None:
    app = _app(f"sqlite:///{tmp_path / 'broker.sqlite3'}", "workers.queueing.broker:Transport",
               polling_interval=0.05)  # fmt: skip
    _check_lane_order(app)


def test_the_embedded_broker_keeps_each_lane_in_order(tmp_path: Path) -> None:
    """Within a lane the oldest message goes first, and a lane emptied hands over to the next."""
    app = _app(f"sqlite:///{tmp_path / 'broker.sqlite3'}", "workers.queueing.broker:Transport",
               polling_interval=0.05)  # fmt: skip
    interactive, background = lane_queue("interactive"), lane_queue("background")
    app.send_task("arena.match_play", (1,), queue=background)
    app.send_task("arena.match_play", (2,), queue=interactive)
    app.send_task("arena.match_play", (3,), queue=interactive)
    app.send_task("arena.match_play", (4,), queue=background)
    assert [match_id for _, match_id in _taken_in_order(app, 4)] == [2, 3, 1, 4]


def _check_test_game_first(app: Celery) -> None:
    """An author's test game (kind ``test``, the workshop lane) sent after 20 league matches
    is the next one taken; a validation sent after it still goes first."""
    league, test = lane_queue(match_lane("league")), lane_queue(match_lane("test"))
    validation = lane_queue(match_lane("validation"))
    assert test == lane_queue("workshop")
    for match_id in range(1, 21):  # a ladder's backlog
        app.send_task("arena.match_play", (match_id,), queue=league)
    app.send_task("arena.match_play", (500,), queue=test)
    with _Slot(app) as slot:
        assert slot.take(1) == [(test, 500)]
        app.send_task("arena.match_play", (600,), queue=test)
        app.send_task("arena.match_play", (700,), queue=validation)
        assert slot.take(3) == [(validation, 700), (test, 600), (league, 1)]


def test_the_embedded_broker_takes_a_test_game_before_the_backlog(tmp_path: Path) -> None:
    app = _app(f"sqlite:///{tmp_path / 'broker.sqlite3'}", "workers.queueing.broker:Transport",
               polling_interval=0.05)  # fmt: skip
    _check_test_game_first(app)


@pytest.mark.integration
def test_redis_takes_a_test_game_before_the_backlog() -> None:
    app = _app(os.environ["TEST_REDIS_URL"], queue_order_strategy="priority")
    with app.connection_for_write() as conn:
        for queue in worker_queues():
            conn.default_channel.client.delete(queue)
    _check_test_game_first(app)


@pytest.mark.integration
def test_redis_takes_the_highest_lane_first() -> None:
    """On Redis, with the settings' `queue_order_strategy: priority` (tournament/settings.py),
    BRPOP lists the queues in the consumer's order instead of rotating them."""
    app = _app(os.environ["TEST_REDIS_URL"], queue_order_strategy="priority")
    with app.connection_for_write() as conn:
        for queue in worker_queues():
            conn.default_channel.client.delete(queue)
    _check_lane_order(app)
