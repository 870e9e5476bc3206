"""The embedded default under load: a ladder league of four bots on `runserver` with its
embedded worker (no broker, SQLite, nothing installed), driven over HTTP.

    python bench/embedded.py [--mode duel] [--seats 2] [--window 60] [--json]

Prints how long `POST /api/v1/leagues/{id}/start/` took to answer, how many matches were still
open when it answered, how many finished and failed within the window after the start, and
whether a pause stopped the ladder (no new match within three beat periods once the running
ones ended). The target: the start answers within 2 s, at least 8 matches finish within
60 s and none fails.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.embedded_ladder import EmbeddedArena  # noqa: E402


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", default="duel")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--window", type=float, default=60.0, help="seconds after the start")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    beat = 2.0
    with tempfile.TemporaryDirectory() as tmp, EmbeddedArena(
        Path(tmp) / "data", free_port(), LADDER_SCHEDULE_SECONDS=str(beat)
    ) as arena:
        league = arena.ladder_league(mode=args.mode, seats=args.seats)
        started = time.monotonic()
        status, _ = arena.request("POST", f"/api/v1/leagues/{league}/start/")
        start_seconds = time.monotonic() - started
        assert status == 200
        open_at_answer = sum(m["status"] in ("queued", "running") for m in arena.matches(league))
        time.sleep(max(0.0, args.window - (time.monotonic() - started)))
        matches = arena.matches(league)
        finished = sum(m["status"] == "finished" for m in matches)
        failed = sum(m["status"] == "failed" for m in matches)
        arena.request("POST", f"/api/v1/leagues/{league}/pause/")
        at_pause = {m["id"] for m in arena.matches(league)}
        arena.wait_for(
            lambda: all(m["status"] != "running" for m in arena.matches(league)), 600, "drain"
        )
        time.sleep(3 * beat)
        after = arena.matches(league)
        figures = {
            "mode": args.mode, "seats": args.seats, "entrants": len(arena.versions),
            "start_seconds": round(start_seconds, 3), "open_at_answer": open_at_answer,
            "window_seconds": args.window, "finished_in_window": finished,
            "failed_in_window": failed,
            "matches_per_minute": round(finished * 60.0 / args.window, 1),
            "new_matches_after_pause": len({m["id"] for m in after} - at_pause),
        }  # fmt: skip
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>24}: {value}")
        ok = start_seconds < 2.0 and finished >= 8 and not failed
        print(f"{'target':>24}: {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
