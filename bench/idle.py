"""What an idle demo costs: the CPU time of the demo's whole process tree over idle minutes.

    python bench/idle.py [--data-dir DIR] [--mode M ...] [--minutes 10] [--reload] [--json]

As scripts/demo.sh runs it: on a fresh DATA_DIR (or the one given, already set up), `manage.py
migrate` and `manage.py demo --no-serve` (the round-robin leagues played, the open ladders
opened), then `manage.py demo` serving the site with its embedded workers (the matches worker,
and the periodic worker with beat, which plays the open ladders); `--reload` serves with
`manage.py runserver` and Django's autoreloader instead. The bench waits until every open
ladder is at rest (tournament/ladder_rest.py) and no match is queued or running, then samples
the CPU time (user + system, from /proc, children that exited included) of the server and every
process below it for `--minutes`, and prints it as CPU seconds and as a share of one core, per
process kind. Speed is not asserted anywhere: this prints figures (docs/performance.md).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.embedded_ladder import embedded_env  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
POLL_SECONDS = 5.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _stat(pid: int) -> tuple[int, float, str] | None:
    """(parent pid, CPU seconds of the process and its reaped children, command) or None."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2 :].split()
    ppid = int(fields[1])
    utime, stime, cutime, cstime = (int(f) for f in fields[11:15])
    return ppid, (utime + stime + cutime + cstime) / TICKS, cmdline.strip()


def tree(root: int) -> dict[int, tuple[float, str]]:
    """Every live process at or below `root`: pid -> (CPU seconds, command line)."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None:
                stats[int(entry.name)] = stat
    members, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, _, _) in stats.items():
            if ppid == parent and pid not in members:
                members.add(pid)
                frontier.append(pid)
    return {pid: (stats[pid][1], stats[pid][2]) for pid in members if pid in stats}


def kind(cmdline: str) -> str:
    if "workers.queueing.embedded" in cmdline:
        role = "periodic" if "periodic" in cmdline else "matches"
        return f"embedded {role} worker"
    if "runserver" in cmdline or "manage.py demo" in cmdline:
        return "server"
    if "celery" in cmdline:
        return "celery (pool)"
    return cmdline.split(" ")[0].rsplit("/", 1)[-1] or "other"


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def wait_for_rest(base: str, timeout: float) -> tuple[float, list[dict[str, Any]]]:
    """Seconds until every running ladder rests with no match queued or running."""
    started = time.monotonic()
    while True:
        try:
            leagues = get(f"{base}/api/v1/leagues/?page_size=200")["results"]
            ladders = [x for x in leagues if x["format"] == "ladder" and x["status"] == "running"]
            # the match list is never counted (it pages newest first): any row means busy
            busy = any(get(f"{base}/api/v1/matches/?status={s}")["results"]
                       for s in ("queued", "running"))  # fmt: skip
            if ladders and not busy and all((x["rest"] or {}).get("resting") for x in ladders):
                return time.monotonic() - started, ladders
        except OSError:
            pass  # the server is still starting
        if time.monotonic() - started > timeout:
            raise SystemExit(f"idle: the ladders did not rest within {timeout:.0f} s")
        time.sleep(POLL_SECONDS)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, help="an existing demo DATA_DIR (else fresh)")
    parser.add_argument("--mode", action="append", help="demo modes (default: every mode)")
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--rest-timeout", type=float, default=3600.0)
    parser.add_argument("--reload", action="store_true",
                        help="serve with runserver and Django's autoreloader (demo.sh does not)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    port = args.port or free_port()
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="idle-demo-"))
    env = embedded_env(data_dir, PORT=str(port))
    print(f"idle: DATA_DIR {data_dir}, port {port}", flush=True)
    manage = [sys.executable, "manage.py"]
    setup_started = time.monotonic()
    if args.data_dir is None:
        subprocess.run([*manage, "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                       capture_output=True)  # fmt: skip
        modes = [a for m in (args.mode or []) for a in ("--mode", m)]
        subprocess.run([*manage, "demo", "--port", str(port), "--no-serve", *modes], cwd=ROOT,
                       env=env, check=True, capture_output=True)  # fmt: skip
    demo_seconds = time.monotonic() - setup_started
    # As scripts/demo.sh serves it (the demo command, which keeps what it made before), or
    # with runserver's autoreloader.
    serve = ([*manage, "runserver", f"127.0.0.1:{port}"] if args.reload
             else [*manage, "demo", "--port", str(port)])  # fmt: skip
    server = subprocess.Popen(serve, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    # Stopped early (kill PID): the finally below still stops the server and its workers.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(f"idle: stopped; {data_dir} kept"))
    try:
        rest_seconds, ladders = wait_for_rest(base, args.rest_timeout)
        before = tree(server.pid)
        wall0 = time.monotonic()
        time.sleep(args.minutes * 60)
        wall = time.monotonic() - wall0
        after = tree(server.pid)
        if get(f"{base}/api/v1/matches/?status=running")["results"]:
            print("idle: a match ran during the window: the figure is not an idle one")
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
    per_kind: dict[str, float] = defaultdict(float)
    for pid, (cpu, cmdline) in after.items():
        per_kind[kind(cmdline)] += cpu - before.get(pid, (0.0, ""))[0]
    total = sum(per_kind.values())
    report = {
        "data_dir": str(data_dir), "demo_setup_seconds": round(demo_seconds, 1),
        "seconds_to_rest": round(rest_seconds, 1),
        "ladders": {x["name"]: x["rest"]["reason"] for x in ladders},
        "window_seconds": round(wall, 1), "processes": len(after),
        "cpu_seconds": round(total, 2), "core_share_percent": round(100 * total / wall, 2),
        "per_kind_cpu_seconds": {k: round(v, 2) for k, v in sorted(per_kind.items())},
    }  # fmt: skip
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"idle demo ({data_dir}): set up in {demo_seconds:.0f} s, ladders at rest"
          f" {rest_seconds:.0f} s after the server started")  # fmt: skip
    for name, reason in report["ladders"].items():
        print(f"  {name}: {reason}")
    print(f"over {wall:.0f} s idle, {len(after)} processes used {total:.2f} CPU s"
          f" = {report['core_share_percent']:.2f} % of one core")  # fmt: skip
    for name, cpu in report["per_kind_cpu_seconds"].items():
        print(f"  {name:<26} {cpu:8.2f} CPU s  {100 * cpu / wall:6.2f} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
