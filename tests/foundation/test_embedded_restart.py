"""The embedded matches worker killed outright (SIGKILL of its process group) while a ladder
plays on a real `runserver`: runserver starts it again at once, with the reason in
its log; the periodic worker, untouched, re-queues the killed match when its heartbeat goes stale
(within MATCH_HEARTBEAT_STALE_SECONDS + REAPER_SECONDS), and sends again any queued match whose
message died with the worker (REAPER_QUEUED_AGE_SECONDS); every match finishes, and counts
exactly once. The times from the kill to the new worker's start and to its readiness are
printed, not asserted."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from scripts.embedded_ladder import EmbeddedArena
from workers.queueing.embedded import supervisor_state

pytestmark = pytest.mark.slow


def _db(arena: EmbeddedArena, sql: str, *args: object) -> list[tuple]:
    db = sqlite3.connect(f"file:{arena.data_dir / 'arena.sqlite3'}?mode=ro", uri=True, timeout=60)
    try:
        return db.execute(sql, args).fetchall()
    finally:
        db.close()


def _ready_lines(arena: EmbeddedArena) -> int:
    text = (arena.data_dir / "embedded-worker.log").read_text(errors="replace")
    return len(re.findall(r"embedded@\S+ ready\.", text))


@pytest.mark.timeout(1500)
def test_a_killed_embedded_worker_is_back_at_once_and_every_match_counts_once(
    tmp_path: Path, free_port: int
) -> None:
    # Beats, staleness and the reaper three to five times as often as by default: the same
    # events (beat, stale, re-queued; message lost, sent again) in a fraction of the waiting.
    fast_reaper = {"MATCH_HEARTBEAT_SECONDS": "1", "MATCH_HEARTBEAT_STALE_SECONDS": "6",
                   "REAPER_SECONDS": "2", "REAPER_QUEUED_AGE_SECONDS": "6"}
    with EmbeddedArena(tmp_path / "data", free_port, LADDER_SCHEDULE_SECONDS="2",
                       **fast_reaper) as arena:  # fmt: skip
        league_id = arena.ladder_league()
        status, league = arena.request("POST", f"/api/v1/leagues/{league_id}/start/")
        assert status == 200, league
        running = arena.wait_for(
            lambda: [m["id"] for m in arena.matches(league_id) if m["status"] == "running"],
            300, "a running ladder match",
        )  # fmt: skip
        before = supervisor_state(arena.data_dir)["roles"]["matches"]
        ready_before = _ready_lines(arena)
        os.killpg(before["pid"], signal.SIGKILL)
        killed_at = time.monotonic()
        killed_clock = datetime.now(UTC)

        def restarted() -> dict | None:
            role = supervisor_state(arena.data_dir)["roles"]["matches"]
            return role if role["pid"] not in (None, before["pid"]) else None

        after = arena.wait_for(restarted, 60, "the killed worker to be started again", poll=0.05)
        started_after = time.monotonic() - killed_at
        arena.wait_for(
            lambda: _ready_lines(arena) > ready_before, 120, "the new worker to be ready", 0.05
        )
        ready_after = time.monotonic() - killed_at
        print(f"\nkilled worker started again after {started_after:.2f}s, "
              f"ready after {ready_after:.2f}s")  # fmt: skip
        assert after["restarts"] == before["restarts"] + 1
        assert after["deaths"][-1]["reason"].startswith("killed by SIGKILL")
        assert supervisor_state(arena.data_dir)["state"] == "running"
        log = (arena.data_dir / "embedded-worker.log").read_text(errors="replace")
        assert f"(pid {before['pid']}) died: killed by SIGKILL" in log

        # The killed matches are played again and finish.
        def killed_done() -> bool:
            states = {m["id"]: m["status"] for m in arena.matches(league_id)}
            return all(states[i] in ("finished", "failed") for i in running)

        arena.wait_for(killed_done, 300, "the killed matches to be played again")
        marks = ",".join("?" * len(running))
        restarts = _db(
            arena, f"SELECT started_at FROM tournament_match WHERE id IN ({marks})", *running
        )  # fmt: skip
        again = max(datetime.fromisoformat(at).replace(tzinfo=UTC) for (at,) in restarts)
        print(f"the killed matches ran again within {(again - killed_clock).total_seconds():.1f}s")
        status, _ = arena.request("POST", f"/api/v1/leagues/{league_id}/pause/")
        assert status == 200
        arena.wait_for(
            lambda: all(m["status"] != "running" for m in arena.matches(league_id)),
            300, "running matches to end after the pause",
        )  # fmt: skip

    matches = _db(
        arena, "SELECT id, status, attempts FROM tournament_match WHERE league_id = ?", league_id
    )
    statuses = {status for _, status, _ in matches}
    assert statuses <= {"finished", "queued"}, matches  # queued: waiting for the resume
    for match_id in running:
        match_status, attempts = next((s, a) for i, s, a in matches if i == match_id)
        assert (match_status, attempts) == ("finished", 2), (match_id, match_status, attempts)
    finished = [i for i, status, _ in matches if status == "finished"]
    assert len(finished) >= len(running)
    # Exactly once: one rating change per seat of each finished match, and per entry as many
    # games as rating changes.
    changes = dict(
        _db(arena, "SELECT match_id, count(*) FROM tournament_ratingchange "
                   "WHERE league_id = ? GROUP BY match_id", league_id)
    )  # fmt: skip
    seats = dict(
        _db(arena, "SELECT match_id, count(*) FROM tournament_matchseat GROUP BY match_id")
    )
    assert changes == {i: seats[i] for i in finished}
    games = _db(arena, "SELECT sum(games) FROM tournament_leagueentry WHERE league_id = ?",
                league_id)[0][0]  # fmt: skip
    assert games == sum(changes.values())
