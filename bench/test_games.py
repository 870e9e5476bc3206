"""The workshop's Play, measured: seconds from "Play" to the first move the viewer can show,
on an idle arena and on one whose every slot plays a ladder match with more waiting.

    python bench/test_games.py [--plays 8] [--backlog 3] [--json]

A fresh embedded arena (`runserver` with its embedded workers: two match slots, SQLite, the
SQLite broker; `scripts/embedded_ladder.py`), boss leagues off so that nothing but the bench
and the ladders plays. An author's bot has a draft (the Python starter's random bot,
`examples/bots/random_bot.py`); each play saves nothing new and asks for a test game of the
draft against `random` in the Duel (`POST /api/v1/test-games/` with `draft`, what the
workshop's Play button and `arena test --draft` send), then polls the frames endpoint the
viewer polls (`/api/v1/matches/{id}/frames`, every 50 ms here; the viewer itself polls every
600 ms, `replays/static/replays/viewer/main.js`) until it holds a step after the deal. The
author then waits for the game to end before the next Play (their cap is one running).

* **idle**: no league runs; the test game finds a free slot.
* **busy**: the demo's open ladders (`services.demo`, the search bot among the house bots, tens
  of seconds a match) keep a backlog; before each Play the bench waits until every slot plays
  a ladder match, so the test game waits for the first of them to end: the worst case of the
  workshop lane, which is served ahead of the leagues (`workers/queueing/queues.py`).

Prints each play's seconds, the median and the max per condition, and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.lanes import OPEN_LADDERS, free_port  # noqa: E402
from scripts.embedded_ladder import EmbeddedArena  # noqa: E402

POLL = 0.05


def _running_ladder_matches(arena: EmbeddedArena) -> tuple[int, int]:
    """(league matches queued, league matches running)."""
    counts = []
    for status in ("queued", "running"):
        code, body = arena.request("GET", f"/api/v1/matches/?status={status}&kind=league")
        assert code == 200, body
        counts.append(sum(m["kind"] == "league" for m in body["results"]))
    return counts[0], counts[1]


def _first_move(arena: EmbeddedArena, match_id: int) -> bool:
    """Whether the viewer's poll would now show a move: a live step, or the finished replay."""
    code, body = arena.request("GET", f"/api/v1/matches/{match_id}/frames")
    if code != 200 or not isinstance(body, dict):
        return False
    if body.get("live"):
        return bool(body.get("steps"))
    return True  # the replay is stored: the game has ended and every move shows


def _play(arena: EmbeddedArena, bot_id: int) -> tuple[float, int]:
    started = time.monotonic()
    code, game = arena.request("POST", "/api/v1/test-games/", {
        "draft": bot_id, "opponents": ["random"], "mode": "duel",
    })  # fmt: skip
    assert code == 201, game
    while not _first_move(arena, game["id"]):
        if time.monotonic() - started > 600:
            raise TimeoutError(f"test game {game['id']}: no move in 600 s\n{arena.worker_log()}")
        time.sleep(POLL)
    seconds = time.monotonic() - started
    arena.wait_for(
        lambda: arena.request("GET", f"/api/v1/test-games/{game['id']}/")[1]["status"]
        in ("finished", "failed", "cancelled"),
        600, f"test game {game['id']} to end", poll=0.2,
    )  # fmt: skip
    return seconds, game["id"]


def _author_draft(arena: EmbeddedArena) -> int:
    code, bot = arena.request("POST", "/api/v1/bots/", {"name": "play-bench",
                                                        "description": "bench/test_games.py"})
    assert code == 201, bot
    source = (ROOT / "examples" / "bots" / "random_bot.py").read_text()
    code, draft = arena.request("PUT", f"/api/v1/bots/{bot['id']}/draft/",
                                {"source": source, "filename": "bot.py"})  # fmt: skip
    assert code in (200, 201), draft
    return bot["id"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plays", type=int, default=8, help="plays per condition")
    parser.add_argument("--backlog", type=int, default=3, help="ladder matches queued (busy)")
    parser.add_argument("--slots", type=int, default=2, help="the embedded worker's slots")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    load_before = os.getloadavg()
    rows: dict[str, list[float]] = {"idle": [], "busy": []}
    with tempfile.TemporaryDirectory() as tmp, EmbeddedArena(
        Path(tmp) / "data", free_port(), LADDER_SCHEDULE_SECONDS="5", BOSS_LEAGUES="0",
        TEST_GAMES_PER_DAY=str(4 * args.plays),
    ) as arena:
        for version in arena.versions:  # the starter bots, which the demo's ladders need
            arena.wait_for(lambda v=version: arena.version_status(v) != "pending", 300,
                           f"validation of version {version}")  # fmt: skip
        bot_id = _author_draft(arena)
        for _ in range(args.plays):
            rows["idle"].append(round(_play(arena, bot_id)[0], 2))
            if not args.json:
                print(f"idle  play: {rows['idle'][-1]:6.2f} s", flush=True)
        arena.manage("shell", "-c", OPEN_LADDERS)
        arena.wait_for(lambda: _running_ladder_matches(arena)[0] >= args.backlog, 300,
                       f"{args.backlog} ladder matches queued", poll=1.0)  # fmt: skip
        for _ in range(args.plays):
            arena.wait_for(lambda: _running_ladder_matches(arena)[1] >= args.slots, 300,
                           "every slot playing a ladder match", poll=0.2)  # fmt: skip
            rows["busy"].append(round(_play(arena, bot_id)[0], 2))
            if not args.json:
                print(f"busy  play: {rows['busy'][-1]:6.2f} s", flush=True)
    result = {
        condition: {"seconds": times, "median": round(statistics.median(times), 2),
                    "max": round(max(times), 2)}
        for condition, times in rows.items()
    }  # fmt: skip
    result.update({"cpus": os.cpu_count(), "load_before": [round(x, 2) for x in load_before],
                   "load_after": [round(x, 2) for x in os.getloadavg()]})  # fmt: skip
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for condition in ("idle", "busy"):
            r = result[condition]
            print(f"{condition}: Play to first move median {r['median']:.2f} s, max "
                  f"{r['max']:.2f} s over {len(r['seconds'])} plays")  # fmt: skip
        print(f"load average before {result['load_before']}, after {result['load_after']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
