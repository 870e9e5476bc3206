"""A worker whose sandbox lacks a layer the deployment requires consumes no queue of bot work:
at start (Celery's ``celeryd_after_setup``, before it consumes) it drops the match and default
queues, keeps the others, says why in its log, and remembers the split for its heartbeat. A
match it held all the same goes back to the queue, neither failed nor counted as an attempt.
The real worker processes are in tests/integration/test_isolation_stack.py."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest
from celery import Celery
from django.conf import settings
from kombu import Queue

from workers.queueing import worker_queues as wq
from workers.sandbox.isolation import LAYERS, Isolation

NO_PID = Isolation(uid=True, network=True, filesystem=True, memory=True,
                   notes=("pid: not on this test",))


def _worker(queues: list[str]) -> SimpleNamespace:
    """What the signal hands over: a worker whose app selected ``queues`` (its ``-Q``)."""
    app = Celery("isolation-test", set_as_current=False)
    names = [settings.CELERY_TASK_DEFAULT_QUEUE, settings.MATCH_RETRY_QUEUE,
             settings.PERIODIC_QUEUE]  # fmt: skip
    app.conf.task_queues = [Queue(name, routing_key=name) for name in names]
    app.amqp.queues.select(queues)
    return SimpleNamespace(app=app)


@pytest.fixture
def required_every_layer(settings, monkeypatch):
    settings.SANDBOX_REQUIRED_ISOLATION = list(LAYERS)
    monkeypatch.setattr(wq, "_current", None)
    monkeypatch.setattr(wq, "detect_isolation", lambda: NO_PID)
    # import-linter's run (tests/foundation/test_layers.py) configures logging with
    # disable_existing_loggers, which silences this logger for the rest of the session
    monkeypatch.setattr(wq.log, "disabled", False)


def test_a_worker_lacking_a_required_layer_consumes_no_queue_of_bot_work(
    required_every_layer, caplog
) -> None:
    worker = _worker(["celery", "matches.retry", "periodic"])
    with caplog.at_level(logging.ERROR, logger="workers.sandbox.isolation"):
        wq._leave_bot_work_to_isolated_workers(instance=worker)
    assert list(worker.app.amqp.queues.consume_from) == ["periodic"]
    split = wq.worker_queues()
    assert split == wq.WorkerQueues(consumed=("periodic",), refused=("celery", "matches.retry"),
                                    missing=("pid",))  # fmt: skip
    assert split.role == "match" and split.state == "isolation: missing pid"
    [record] = caplog.records
    assert record.getMessage().startswith("isolation: missing pid: this worker takes no match")
    assert "celery, matches.retry" in record.getMessage()


def test_a_match_worker_with_every_layer_and_a_periodic_worker_keep_their_queues(
    required_every_layer, monkeypatch, caplog
) -> None:
    periodic = _worker(["periodic"])  # beat's worker runs no bot: it needs no layer
    wq._leave_bot_work_to_isolated_workers(instance=periodic)
    assert list(periodic.app.amqp.queues.consume_from) == ["periodic"]
    assert wq.worker_queues().role == "periodic" and wq.worker_queues().state == "ok"

    monkeypatch.setattr(wq, "detect_isolation", lambda: Isolation(True, True, True, True, True))
    matches = _worker(["celery", "matches.retry"])
    with caplog.at_level(logging.ERROR, logger="workers.sandbox.isolation"):
        wq._leave_bot_work_to_isolated_workers(instance=matches)
    assert list(matches.app.amqp.queues.consume_from) == ["celery", "matches.retry"]
    assert wq.worker_queues() == wq.WorkerQueues(consumed=("celery", "matches.retry"))
    assert wq.worker_queues().role == "match" and caplog.records == []


def test_nothing_required_nothing_refused(settings) -> None:
    settings.SANDBOX_REQUIRED_ISOLATION = []
    split = wq.queues_split(["celery", "matches.retry"], missing=[])
    assert split.consumed == ("celery", "matches.retry") and split.refused == ()


def test_the_split_follows_the_match_queues_per_mode(settings) -> None:
    settings.MATCH_QUEUE_PER_MODE = True
    split = wq.queues_split(["matches.duel", "matches.duel.retry", "periodic"], ["uid"])
    assert split.refused == ("matches.duel", "matches.duel.retry")
    assert split.consumed == ("periodic",) and split.role == "match"
    assert wq.queues_split(["celery"], []).role == "other"  # builds and records only


def test_a_consumer_started_without_the_worker_program_says_what_it_reads() -> None:
    consumer = SimpleNamespace(task_consumer=SimpleNamespace(queues=[Queue("periodic")]))
    assert wq.consumer_queues(consumer) == wq.WorkerQueues(consumed=("periodic",))
    assert wq.consumer_queues(consumer).role == "periodic"
    assert wq.consumer_queues(None) == wq.WorkerQueues(consumed=())
