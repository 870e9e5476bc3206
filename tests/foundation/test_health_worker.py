"""/status and /metrics with a real worker: the embedded default's Celery worker,
started by `runserver` on a fresh DATA_DIR, beats; /status lists it as the match worker beside
the periodic one, /metrics counts it and the validation matches it plays. Frozen (SIGSTOP:
alive to its parent, but doing nothing), it stops beating and /status says "no_worker" once
WORKER_STALE_SECONDS pass; thawed, it is back.
"""

from __future__ import annotations

import os
import signal
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from scripts.embedded_ladder import EmbeddedArena
from workers.queueing.embedded import supervisor_state

pytestmark = pytest.mark.slow

STALE_SECONDS = 3  # WORKER_STALE_SECONDS of the arena: six missed beats of half a second


def _metrics(arena: EmbeddedArena) -> dict[str, list]:
    with urllib.request.urlopen(arena.base_url + "/metrics", timeout=60) as response:
        text = response.read().decode()
    return {f.name: f.samples for f in text_string_to_metric_families(text)}


def _sample(samples: list, name: str, **labels: str) -> float:
    return next(s.value for s in samples if s.name == name and s.labels == labels)


@pytest.mark.timeout(900)  # real processes on a machine that may be busy
def test_status_and_metrics_see_the_embedded_worker_beat_and_go_silent(
    tmp_path: Path, free_port: int
) -> None:
    env = {"WORKER_HEARTBEAT_SECONDS": "0.5", "WORKER_STALE_SECONDS": str(STALE_SECONDS),
           "DEBUG": "1"}  # /metrics open (its access rules are tested in tests/website)
    with EmbeddedArena(tmp_path / "data", free_port, **env) as arena:

        def status() -> dict:
            code, body = arena.request("GET", "/status")
            assert code == 200, body
            return body

        # both embedded workers beat: the matches worker and the periodic one (with beat)
        body = arena.wait_for(lambda: len((b := status())["workers"]) == 2 and b, 120,
                              "both workers' beats")  # fmt: skip
        assert body["status"] == "ok"
        assert sorted(w["role"] for w in body["workers"]) == ["match", "periodic"]
        assert body["workers_live"] == {"match": 1, "periodic": 1, "other": 0}
        for worker in body["workers"]:
            assert "pid" not in worker and 0 <= worker["last_beat_seconds"] <= STALE_SECONDS
        assert set(body["matches"]) == {"queued", "running", "finished", "failed", "cancelled"}
        assert body["queue"]["source"] in ("broker", "database")

        # The two starter bots' validation matches, played by that worker, are in /metrics.
        arena.wait_for(lambda: status()["matches"]["finished"] >= 2, 300, "validations")
        families = _metrics(arena)  # DEBUG is on in the embedded default: open
        assert _sample(families["arena_matches"], "arena_matches", status="finished") >= 2
        histogram = families["arena_match_duration_seconds"]
        assert _sample(histogram, "arena_match_duration_seconds_count") >= 2
        assert _sample(histogram, "arena_match_duration_seconds_sum") > 0
        # the periodic worker (with beat) is no match worker: one of the two is counted
        assert _sample(families["arena_workers_live"], "arena_workers_live") == 1
        info = {s.labels["worker"].split("@")[0]: s.labels for s in families["arena_worker_info"]}
        assert info["embedded"]["role"] == "match" and info["embedded"]["state"] == "ok"
        assert info["embedded-periodic"]["role"] == "periodic"
        ages = families["arena_worker_last_beat_age_seconds"]
        assert sorted(s.labels["worker"].split("@")[0] for s in ages) == sorted(info)

        # pids are for staff on /status: the supervisor's own record names them
        roles = supervisor_state(arena.data_dir)["roles"]
        pids = sorted(roles[role]["pid"] for role in ("matches", "periodic"))
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)  # alive, but no longer beating
        try:
            silent = arena.wait_for(
                lambda: (b := status())["status"] == "no_worker" and b, 60, "the silence"
            )
            # no match worker beats (the periodic one may still, for its last seconds)
            assert [w for w in silent["workers"] if w["role"] == "match"] == []
            assert silent["last_beat_seconds"] >= STALE_SECONDS
            families = _metrics(arena)
            assert _sample(families["arena_workers_live"], "arena_workers_live") == 0
        finally:
            for pid in pids:
                os.kill(pid, signal.SIGCONT)
        back = arena.wait_for(lambda: len((b := status())["workers"]) == 2 and b, 60,
                              "the beats again")  # fmt: skip
        assert back["status"] == "ok" and back["workers_live"]["match"] == 1
