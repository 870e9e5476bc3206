"""A match whose worker died, run again with the default heartbeat, staleness and reaper
settings: how long after the crash.

    python bench/requeue.py [--kills 3] [--json]

A fresh embedded arena (`runserver` with its embedded workers, SQLite, the SQLite broker) plays
a Duel ladder of four quick bots (scripts/embedded_ladder.py) with the product's settings for
MATCH_HEARTBEAT_SECONDS, MATCH_HEARTBEAT_STALE_SECONDS and REAPER_SECONDS. --kills times, it
waits for a running ladder match and SIGKILLs the matches worker's whole process group (its
pool, fork server and bots with it, as a crash of its host would), then reads the database
until the killed match has started again. For each kill it prints the seconds from the kill
to the reaper's re-queue and to the match's second start, beside the bound the settings give
(MATCH_HEARTBEAT_STALE_SECONDS + REAPER_SECONDS, 30 s by default, plus the match worker's
restart); at the end the worst of them. The target: every match runs again within 30 s of the
crash plus the worker's restart. The tests (tests/integration/test_heartbeat_requeue.py,
test_backlog_requeue.py, tests/foundation/test_embedded_restart.py) check the same path with
short settings.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import sqlite3
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.embedded_ladder import EmbeddedArena  # noqa: E402
from workers.queueing.embedded import supervisor_state  # noqa: E402

# The settings the arena runs with (REAPER_SECONDS is the reaper's beat period).
READ_SETTINGS = """
import json
from django.conf import settings
print(json.dumps({
    "MATCH_HEARTBEAT_SECONDS": settings.MATCH_HEARTBEAT_SECONDS,
    "MATCH_HEARTBEAT_STALE_SECONDS": settings.MATCH_HEARTBEAT_STALE_SECONDS,
    "REAPER_SECONDS": settings.CELERY_BEAT_SCHEDULE["matches-reap-stale"]["schedule"],
}))
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def match_row(arena: EmbeddedArena, match_id: int) -> tuple[str, int, datetime, datetime]:
    """(status, attempts, queued_at, started_at) of one match, read from the arena's database."""
    db = sqlite3.connect(f"file:{arena.data_dir / 'arena.sqlite3'}?mode=ro", uri=True, timeout=60)
    try:
        status, attempts, queued, started = db.execute(
            "SELECT status, attempts, queued_at, started_at FROM tournament_match WHERE id = ?",
            (match_id,),
        ).fetchone()
    finally:
        db.close()
    return (
        status,
        attempts,
        datetime.fromisoformat(queued).replace(tzinfo=UTC),
        datetime.fromisoformat(started).replace(tzinfo=UTC),
    )


def kill_once(arena: EmbeddedArena, league_id: int, killed: set[int]) -> dict[str, float]:
    """Kill the matches worker while a ladder match runs that no kill has hit before (each
    match is run at most three times); the times until that match runs again."""
    running = arena.wait_for(
        lambda: [
            m["id"] for m in arena.matches(league_id)
            if m["status"] == "running" and m["id"] not in killed
        ],
        300, "a running ladder match", poll=0.1,
    )  # fmt: skip
    match_id = running[0]
    killed.add(match_id)
    _, attempts, _, _ = match_row(arena, match_id)
    worker = supervisor_state(arena.data_dir)["roles"]["matches"]
    os.killpg(worker["pid"], signal.SIGKILL)
    killed_at = datetime.now(UTC)

    def again() -> tuple[str, int, datetime, datetime] | None:
        row = match_row(arena, match_id)
        return row if row[1] > attempts else None

    _, _, queued_at, started_at = arena.wait_for(again, 300, "the killed match to run again", 0.1)
    return {
        "match": match_id,
        "requeued_after": (queued_at - killed_at).total_seconds(),
        "started_after": (started_at - killed_at).total_seconds(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=3, help="kills, one after another")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as tmp,
        EmbeddedArena(Path(tmp) / "data", free_port(), LADDER_SCHEDULE_SECONDS="2") as arena,
    ):
        settings = json.loads(arena.manage("shell", "-c", READ_SETTINGS).strip().splitlines()[-1])
        bound = settings["MATCH_HEARTBEAT_STALE_SECONDS"] + settings["REAPER_SECONDS"]
        league_id = arena.ladder_league()
        status, body = arena.request("POST", f"/api/v1/leagues/{league_id}/start/")
        assert status == 200, body
        runs: list[dict[str, float]] = []
        killed: set[int] = set()
        for _ in range(args.kills):
            run = kill_once(arena, league_id, killed)
            runs.append(run)
            if not args.json:
                print(f"match {run['match']}: re-queued {run['requeued_after']:.1f}s after the "
                      f"kill, running again after {run['started_after']:.1f}s "
                      f"(stale + reaper = {bound:g}s)", flush=True)  # fmt: skip
    result = {
        "settings": settings,
        "bound_seconds": bound,
        "runs": runs,
        "worst_requeued_after": max(r["requeued_after"] for r in runs),
        "worst_started_after": max(r["started_after"] for r in runs),
        "load_average": os.getloadavg()[0],
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"worst: re-queued after {result['worst_requeued_after']:.1f}s, running again "
              f"after {result['worst_started_after']:.1f}s; load average "
              f"{result['load_average']:.1f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
