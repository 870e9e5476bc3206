"""Validation ahead of a ladder backlog: how long an upload takes to reach "ready" while the
demo's open ladders keep both match slots busy and background matches queued.

    python bench/lanes.py [--uploads 10] [--backlog 4] [--json]

A fresh embedded arena (`runserver` with its embedded workers, SQLite, the SQLite broker, the
ladder beat every 5 s), the demo's bots and its open ladders (`services.demo`: the search bot
among the house bots, tens of seconds a match). Once at least --backlog ladder matches wait,
it uploads --uploads bots one after another over the API, each timed from its upload until its
version is "ready" (its validation match, in the interactive lane, played ahead of the
backlog). Prints each time, the median and the max, the backlog seen at each upload, and the
machine's load average (the figures depend on how busy it is). The target: median under 15 s.

Uploaded one after another, an upload often finds the slot its predecessor's validation just
freed; `--busy` waits before each upload until every slot plays a ladder match, so each
validation waits for the first of them to end: the worst case of the lanes' guarantee.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.embedded_ladder import EmbeddedArena  # noqa: E402

OPEN_LADDERS = """
import engine
from tournament.services.demo import demo_bots, demo_ladders
ladders = demo_ladders(modes=engine.available_modes(), versions=demo_bots())
print(" ".join(str(ladder.pk) for ladder in ladders))
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _backlog(arena: EmbeddedArena) -> tuple[int, int]:
    """(ladder matches queued, matches running)."""
    counts = []
    for status in ("queued", "running"):
        code, body = arena.request("GET", f"/api/v1/matches/?status={status}")
        assert code == 200, body
        counts.append(sum(m["kind"] == "league" or status == "running" for m in body["results"]))
    return counts[0], counts[1]


def _upload(arena: EmbeddedArena, index: int, bundle: bytes) -> float:
    """Seconds from the upload of a new bot's first version until it is ready."""
    code, bot = arena.request("POST", "/api/v1/bots/", {"name": f"lane-bench-{index}",
                                                        "description": "bench/lanes.py"})
    assert code == 201, bot
    started = time.monotonic()
    sent = requests.post(
        f"{arena.base_url}/api/v1/bots/{bot['id']}/versions/", timeout=60,
        headers={"Authorization": f"Token {arena.token}"},
        files={"file": ("bot.py", bundle + f"# bench upload {index}\n".encode())},
    )  # fmt: skip
    assert sent.status_code == 201, sent.text
    version = sent.json()["id"]
    arena.wait_for(lambda: arena.version_status(version) != "pending", 600,
                   f"validation of upload {index}", poll=0.1)  # fmt: skip
    status = arena.version_status(version)
    assert status == "ready", f"upload {index}: {status}"
    return time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uploads", type=int, default=10)
    parser.add_argument("--backlog", type=int, default=3, help="ladder matches queued first")
    parser.add_argument(
        "--busy", action="store_true",
        help="before each upload, wait until every slot plays a ladder match (the worst case: "
             "the validation waits for the first of them to end)",
    )  # fmt: skip
    parser.add_argument("--slots", type=int, default=2, help="the embedded worker's slots")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    load_before = os.getloadavg()
    bundle = (ROOT / "examples" / "bots" / "random_bot.py").read_bytes()
    with tempfile.TemporaryDirectory() as tmp, EmbeddedArena(
        Path(tmp) / "data", free_port(), LADDER_SCHEDULE_SECONDS="5"
    ) as arena:
        for version in arena.versions:  # the starter bots, which the 4-seat ladders need
            arena.wait_for(lambda v=version: arena.version_status(v) != "pending", 300,
                           f"validation of version {version}")  # fmt: skip
        ladders = arena.manage("shell", "-c", OPEN_LADDERS).strip().splitlines()[-1].split()
        arena.wait_for(lambda: _backlog(arena)[0] >= args.backlog, 300,
                       f"{args.backlog} ladder matches queued", poll=1.0)  # fmt: skip
        rows = []
        for index in range(args.uploads):
            if args.busy:
                arena.wait_for(lambda: _backlog(arena)[1] >= args.slots, 300,
                               "every slot busy", poll=0.5)  # fmt: skip
            queued, running = _backlog(arena)
            seconds = _upload(arena, index, bundle)
            rows.append({"seconds": round(seconds, 2), "ladder_queued": queued,
                         "ladder_running": running})  # fmt: skip
    times = [row["seconds"] for row in rows]
    result = {
        "uploads": rows, "median_seconds": round(statistics.median(times), 2),
        "max_seconds": round(max(times), 2), "ladders": len(ladders),
        "cpus": os.cpu_count(), "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }  # fmt: skip
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for i, row in enumerate(rows):
            print(f"upload {i:>2}: ready in {row['seconds']:6.2f} s  (ladder matches queued "
                  f"{row['ladder_queued']}, running {row['ladder_running']})")  # fmt: skip
        print(f"median {result['median_seconds']:.2f} s, max {result['max_seconds']:.2f} s "
              f"({len(times)} uploads, {result['ladders']} open ladders; {result['cpus']} CPUs, "
              f"load average {result['load_before'][0]:.1f} before, "
              f"{result['load_after'][0]:.1f} after)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
