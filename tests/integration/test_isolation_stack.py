"""A match worker started without CAP_SYS_ADMIN beside a healthy one, on the production stack
(gunicorn, two Celery match workers and beat with the periodic queue's worker, on PostgreSQL and
Redis: scripts/stack.py), where every isolation layer is required.

The second worker runs under ``setpriv --bounding-set -sys_admin``, a real loss of the
capability its sandbox needs for its network, filesystem and pid layers. It consumes no match
queue, so all 12 matches of a league of uploaded bots finish on the healthy worker, each at its
first attempt; /status shows the other as ``isolation: missing ...`` and does not count it. Then
the healthy worker is killed: with beat and the refusing worker still beating, /status says
``no_worker`` once the last match worker's beat is stale."""

from __future__ import annotations

import re

import pytest
from prometheus_client.parser import text_string_to_metric_families

from scripts.stack import Stack
from tests.ports import free_port
from tests.workers.conftest import EXAMPLES
from tournament.models import Match

from .stack_api import (
    Api,
    builtin_versions,
    league_closed,
    league_started,
    login,
    login_organiser,
    upload_ready,
    wait_for,
)

pytestmark = [pytest.mark.integration, pytest.mark.slow]

STALE_SECONDS = 3.0
DROP_SYS_ADMIN = ["setpriv", "--bounding-set", "-sys_admin"]
MISSING = "isolation: missing network, filesystem, pid"  # the layers that need the capability


@pytest.fixture
def isolation_stack(stack_env, tmp_path):
    env = {
        **stack_env,
        "DATA_DIR": str(tmp_path / "data"),
        "DEBUG": "1",  # /metrics open; its access rules are tested in tests/website
        "SANDBOX_REQUIRED_ISOLATION": "uid,network,filesystem,pid",  # as production requires
        "WORKER_HEARTBEAT_SECONDS": "0.5",
        "WORKER_STALE_SECONDS": str(STALE_SECONDS),
    }
    stack = Stack(workers=2, port=free_port(), env=env, state_dir=tmp_path / "stack",
                  web_workers=1, wrappers={"w2": DROP_SYS_ADMIN})  # fmt: skip
    with stack:
        yield stack


def _metrics(api: Api) -> dict[str, list]:
    text = api.call("GET", "/metrics").decode()
    return {f.name: f.samples for f in text_string_to_metric_families(text)}


def _played(log: str) -> int:
    """How many match plays a worker's log says it finished."""
    return len(re.findall(r"Task arena\.match_play\[[^\]]+\] succeeded", log))


@pytest.mark.timeout(1200)
def test_a_worker_lacking_a_layer_takes_no_match_and_status_says_why(isolation_stack):
    stack = isolation_stack
    anon = Api(stack.base_url)
    body = wait_for(lambda: len((b := anon.call("GET", "/status"))["workers"]) == 3 and b, 60,
                    "three workers' beats")  # fmt: skip
    states = sorted((w["role"], w["state"]) for w in body["workers"])
    assert states == [("match", MISSING), ("match", "ok"), ("periodic", "ok")]
    assert body["status"] == "ok" and body["workers_refusing"] == 1
    assert body["workers_live"] == {"match": 1, "periodic": 1, "other": 0}
    assert all("name" not in w and "pid" not in w for w in body["workers"])  # not staff
    families = _metrics(anon)
    assert next(s.value for s in families["arena_workers_live"]) == 1
    refusing = [s.labels for s in families["arena_worker_info"] if s.labels["state"] != "ok"]
    assert [(r["worker"].split("@")[0], r["role"], r["state"]) for r in refusing] == [
        ("w2", "match", MISSING)
    ]
    bad_log = (stack.log_dir / "w2.log").read_text()
    assert f"{MISSING}: this worker takes no match and no build" in bad_log

    author = login(anon, "isolde")
    organiser = login_organiser(anon, "orla")
    bot = upload_ready(author, "plain", "bot.py", (EXAMPLES / "random_bot.py").read_bytes())
    league = league_started(
        organiser, author,
        {"name": "isolation cup", "mode": "duel", "seats": 2, "format": "round_robin",
         "seeds": 6},
        [bot], [builtin_versions(anon)["random"]],
    )  # fmt: skip
    league_closed(anon, league["id"], 600)
    matches = Match.objects.filter(league_id=league["id"])
    assert matches.count() == 12
    assert set(matches.values_list("status", "attempts")) == {("finished", 1)}
    assert _played((stack.log_dir / "w2.log").read_text()) == 0
    assert "Task arena.match_play[" not in (stack.log_dir / "w2.log").read_text()  # none received
    assert _played((stack.log_dir / "w1.log").read_text()) == 13  # and the upload's validation

    stack.kill("w1")  # the last match worker dies; beat and w2 beat on
    silent = wait_for(
        lambda: (b := anon.call("GET", "/status"))["status"] == "no_worker" and b, 60, "silence"
    )
    assert silent["workers_live"] == {"match": 0, "periodic": 1, "other": 0}
    assert sorted(w["state"] for w in silent["workers"]) == [MISSING, "ok"]
    assert silent["last_beat_seconds"] >= STALE_SECONDS
    assert next(s.value for s in _metrics(anon)["arena_workers_live"]) == 0
