"""scripts/stack.py brings up web + workers + beat on PostgreSQL and Redis, and tears it down.

Integration test: needs DATABASE_URL (PostgreSQL) and TEST_REDIS_URL; skipped otherwise.
"""

import json
import os
import time
import urllib.request

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_stack_serves_and_workers_answer_ping(live_stack) -> None:
    from celery import Celery

    with urllib.request.urlopen(live_stack.base_url + "/healthz", timeout=5) as response:
        assert json.loads(response.read()) == {"status": "ok"}

    # set_as_current=False: a second app made current would capture every shared_task
    # later in this process and send it to Redis instead of running it eagerly.
    probe = Celery("probe", broker=os.environ["TEST_REDIS_URL"], set_as_current=False)
    try:
        replies = probe.control.ping(timeout=5.0)
    finally:
        probe.close()
    names = {name for reply in replies for name in reply}
    assert any(name.startswith("w1@") for name in names), replies

    pids = [pid for pid in live_stack.status().values()]
    assert len(pids) == 3 and all(pids)
    live_stack.stop()
    assert live_stack.status() == {}
    # Every process is gone. A child that beat's worker left (celery --beat forks one) may
    # stay a zombie for a moment after its parent died, until init reaps it: wait for that.
    deadline = time.monotonic() + 30
    for pid in pids:
        while True:
            try:
                os.killpg(pid, 0)
            except ProcessLookupError:
                break
            assert time.monotonic() < deadline, f"process group {pid} outlived the stack"
            time.sleep(0.1)
