"""Service benchmark: matches per minute through the whole stack with 1..N workers (N = cores),
the ratio to one worker, the per-match costs that docs/scaling.md builds on, and ladder latency.

    python bench/service.py [--workers 1..N] [--duel 40] [--standard 16] [--bots 20]
                            [--seconds 10] [--threads 8] [--disk] [--json]

Starts the production topology (scripts/stack.py: gunicorn + N Celery workers, one slot each)
on PostgreSQL and Redis, on a database and Redis db of its own (BENCH_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/arena_bench, recreated; BENCH_REDIS_URL, default
redis://127.0.0.1:6379/14, flushed), with bundles and replays in an S3 server (moto, started
here; --disk keeps them on the local disk). For each worker count it requests challenge
matches over the API and times them until every one is finished in the database with its
replay stored: API -> Redis -> worker -> runner -> replay upload -> PostgreSQL, after an
untimed warm-up of two matches per worker. Lineups: built-in bots (in-process; 4-player
standard, then Duel) and the two uploaded starter bots (subprocesses in the sandbox, Duel).

Per match it also measures, from the servers' own counters over the timed runs: PostgreSQL
transactions and rows inserted/updated (pg_stat_database), Redis commands and bytes received
(INFO), replay bytes (the matches' replay_size) and the worker-seconds a match occupies.
Then threads fetch a league ladder for a fixed time and p50/p99 latencies are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/arena_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/14"


def _recreate_database(url: str) -> None:
    import psycopg
    from psycopg import sql

    base, name = url.rsplit("/", 1)
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def _flush_redis(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _post(base: str, path: str, token: str | None, data: dict[str, Any]) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    request = urllib.request.Request(
        base + path, data=json.dumps(data).encode(), headers=headers, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def _setup_users(base: str) -> dict[str, Any]:
    """An organiser with a token, the built-in bots and a played ladder league."""
    from django.contrib.auth import get_user_model

    from tournament.services.accounts import organiser_grant
    from tournament.services.bots import builtin_bots_register

    login = {"username": "bench", "password": "bench-kitten-42"}
    _post(base, "/api/v1/accounts/", None, {**login, "email": "bench@example.com"})
    token = _post(base, "/api/v1/auth/token/", None, login)["token"]
    organiser_grant(user=get_user_model().objects.get(username="bench"))
    versions = builtin_bots_register()
    return {"token": token, "random": versions["random"].pk, "greedy": versions["greedy"].pk}


def _upload_starters(base: str, ctx: dict[str, Any]) -> None:
    """Upload the two starter bots over the API and wait for their validation matches."""
    from tournament.models import BotVersion
    from tournament.services.demo import STARTER_BOTS

    ids = []
    for name, filename in STARTER_BOTS.items():
        bot = _post(base, "/api/v1/bots/", ctx["token"], {"name": f"bench-{name}"})
        data = (REPO / "examples" / "bots" / filename).read_bytes()
        ids.append(_upload(base, ctx["token"], bot["id"], filename, data)["id"])
    deadline = time.monotonic() + 300
    while BotVersion.objects.filter(pk__in=ids, status="pending").exists():
        if time.monotonic() > deadline:
            raise RuntimeError("the starter bots were not validated in 300 s")
        time.sleep(0.2)
    statuses = list(BotVersion.objects.filter(pk__in=ids).values_list("status", flat=True))
    if statuses != ["ready", "ready"]:
        raise RuntimeError(f"starter bots not ready: {statuses}")
    ctx["starters"] = ids


def _upload(base: str, token: str, bot_id: int, filename: str, data: bytes) -> dict[str, Any]:
    boundary = "bench-boundary-7f3a"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode() + data + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(
        f"{base}/api/v1/bots/{bot_id}/versions/", data=body, method="POST",
        headers={"Authorization": f"Token {token}",
                 "Content-Type": f"multipart/form-data; boundary={boundary}"},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


class RedisMonitor:
    """Counts the commands sent to one Redis database (MONITOR, in a thread): the server's own
    totals would also count other users of a shared Redis."""

    def __init__(self, redis_url: str) -> None:
        import redis

        self.client = redis.Redis.from_url(redis_url, socket_timeout=None)
        self.db = self.client.connection_pool.connection_kwargs.get("db", 0)
        self.commands = 0
        self.bytes = 0
        threading.Thread(target=self._listen, daemon=True).start()

    def _listen(self) -> None:
        import redis

        while True:  # a dropped connection is opened again; the counts go on
            try:
                with self.client.monitor() as monitor:
                    for event in monitor.listen():
                        if event.get("db") == self.db:
                            self.commands += 1
                            self.bytes += len(event.get("command", ""))
            except redis.RedisError:
                time.sleep(0.1)


class Counters:
    """PostgreSQL, Redis and process CPU counters, read before and after a timed run."""

    def __init__(self, db_name: str, redis_url: str) -> None:
        self.db_name = db_name
        self.monitor = RedisMonitor(redis_url)
        self.stack: Any = None  # the running Stack, for its processes' CPU time

    def read(self) -> dict[str, float]:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT xact_commit, tup_inserted, tup_updated, tup_deleted "
                "FROM pg_stat_database WHERE datname = %s",
                [self.db_name],
            )
            commits, inserted, updated, deleted = cursor.fetchone()
        groups = self.stack.status() if self.stack is not None else {}
        return {
            "pg_transactions": commits, "pg_rows_inserted": inserted,
            "pg_rows_updated": updated, "pg_rows_deleted": deleted,
            "redis_commands": self.monitor.commands, "redis_command_bytes": self.monitor.bytes,
            "worker_cpu_seconds": sum(
                _group_cpu(pid) for name, pid in groups.items() if pid and name.startswith("w")
            ),
            "web_cpu_seconds": _group_cpu(groups["web"]) if groups.get("web") else 0.0,
        }  # fmt: skip


def _group_cpu(pgid: int) -> float:
    """CPU seconds of a process group's live members and of the children they reaped (the
    pool processes reap the bots, so a bot's time counts once it has ended)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:
            total += sum(int(v) for v in fields[11:15])  # utime stime cutime cstime
    return total / tick


def _per_match(before: dict[str, float], after: dict[str, float], n: int) -> dict[str, float]:
    return {key: round((after[key] - before[key]) / n, 3) for key in before}


def _throughput(
    base: str, ctx: dict[str, Any], lineup_name: str, count: int, counters: Counters | None
) -> dict[str, Any]:
    from tournament.models import Match

    mode, lineup = LINEUPS[lineup_name](ctx)
    seats = len(lineup)
    # pg_stat_database is updated when a backend's transaction ends, and not more often than
    # every PGSTAT_MIN_INTERVAL (1 s): settle before reading it.
    time.sleep(1.2)
    before = counters.read() if counters else None
    started = time.monotonic()
    # Requested from 8 threads: one after another, the requests alone would pace the
    # fastest lineups and hide what more workers add.
    with ThreadPoolExecutor(8) as pool:
        ids = list(pool.map(
            lambda _: _post(base, "/api/v1/matches/", ctx["token"],
                            {"mode": mode, "bot_versions": lineup})["id"],
            range(count),
        ))  # fmt: skip
    submitted = time.monotonic() - started
    polls = 0  # each poll is one transaction of this process: not a cost of the matches
    while True:
        open_count = Match.objects.filter(pk__in=ids, status__in=["queued", "running"]).count()
        polls += 1
        if not open_count:
            break
        if time.monotonic() - started > 900:
            raise RuntimeError(f"{open_count} {mode} matches still open after 900 s")
        time.sleep(0.1)
    elapsed = time.monotonic() - started
    done = Match.objects.filter(pk__in=ids)
    finished = done.filter(status="finished").exclude(replay_name="")
    sizes = list(finished.values_list("replay_size", flat=True))
    row = {
        "lineup": lineup_name, "mode": mode, "seats": seats, "matches": count,
        "finished_with_replay": len(sizes), "seconds": round(elapsed, 2),
        "submit_seconds": round(submitted, 2),
        "matches_per_minute": round(len(sizes) / elapsed * 60, 1),
        "replay_bytes_mean": round(sum(sizes) / len(sizes)) if sizes else 0,
    }  # fmt: skip
    if counters is not None and before is not None:
        time.sleep(1.2)
        after = counters.read()
        after["pg_transactions"] -= polls + 3  # the polls, the replay sizes and reading stats
        row["per_match"] = _per_match(before, after, count)
    return row


def _builtin_lineup(mode: str, seats: int):  # noqa: ANN202 - a lineup factory
    return lambda ctx: (mode, [ctx["greedy"] if i % 2 else ctx["random"] for i in range(seats)])


LINEUPS = {
    "standard-builtin": _builtin_lineup("standard", 4),
    "duel-builtin": _builtin_lineup("duel", 2),
    "duel-starters": lambda ctx: ("duel", list(ctx["starters"])),
}


def _ladder_league(
    base: str, ctx: dict[str, Any], counters: Counters
) -> tuple[int, dict[str, float]]:
    """A duel league of the two built-in bots, played, so its ladder has rows and history;
    with the per-match costs of its 6 rated matches (ratings, standings, league progress)."""
    from tournament.models import League, Match

    league = _post(base, "/api/v1/leagues/", ctx["token"], {
        "name": "bench ladder", "mode": "duel", "seats": 2, "format": "round_robin", "seeds": 3,
    })  # fmt: skip
    for version in (ctx["random"], ctx["greedy"]):
        _post(base, f"/api/v1/leagues/{league['id']}/entries/", ctx["token"],
              {"bot_version": version})  # fmt: skip
    time.sleep(1.2)  # let the statistics settle (see _throughput)
    before = counters.read()
    _post(base, f"/api/v1/leagues/{league['id']}/start/", ctx["token"], {})
    deadline = time.monotonic() + 300
    polls = 0
    while League.objects.get(pk=league["id"]).status != "closed":
        polls += 1
        if time.monotonic() > deadline:
            raise RuntimeError("the ladder league did not finish")
        time.sleep(0.2)
    time.sleep(1.2)
    after = counters.read()
    after["pg_transactions"] -= polls + 2
    assert Match.objects.filter(league_id=league["id"], status="finished").count() == 6
    return league["id"], _per_match(before, after, 6)


def _ladder_latency(base: str, league_id: int, seconds: float, threads: int) -> dict[str, Any]:
    url = f"{base}/api/v1/leagues/{league_id}/ladder/"
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def hammer() -> None:
        mine, bad = [], 0
        while time.monotonic() < stop_at:
            t0 = time.perf_counter()
            try:
                with urllib.request.urlopen(url, timeout=10) as response:
                    response.read()
                    ok = response.status == 200
            except OSError:
                ok = False
            mine.append(time.perf_counter() - t0)
            bad += not ok
        with lock:
            latencies.extend(mine)
            errors[0] += bad

    pool = [threading.Thread(target=hammer) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    latencies.sort()
    q = statistics.quantiles(latencies, n=100)
    return {
        "threads": threads, "seconds": seconds, "requests": len(latencies), "errors": errors[0],
        "requests_per_second": round(len(latencies) / seconds, 1),
        "p50_ms": round(q[49] * 1000, 1), "p99_ms": round(q[98] * 1000, 1),
    }  # fmt: skip


def _worker_counts(text: str) -> list[int]:
    """"1..N" (N = this machine's cores), "1..4", or "1,2,4"."""
    if ".." in text:
        low, high = text.split("..")
        top = os.cpu_count() or 1 if high in ("", "N") else int(high)
        return list(range(int(low), top + 1))
    return [int(w) for w in text.split(",")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duel", type=int, default=40, help="Duel matches of built-in bots")
    parser.add_argument("--standard", type=int, default=16, help="4-player standard matches")
    parser.add_argument("--bots", type=int, default=20, help="Duel matches of starter bots")
    parser.add_argument("--workers", default="1..N", help="worker counts: 1..N (cores) or 1,2")
    parser.add_argument("--seconds", type=float, default=10.0, help="ladder load duration")
    parser.add_argument("--threads", type=int, default=8, help="ladder load threads")
    parser.add_argument("--disk", action="store_true", help="files on disk, not in S3 (moto)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)

    db_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    redis_url = os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS)
    _recreate_database(db_url)
    _flush_redis(redis_url)
    env = {
        "DATABASE_URL": db_url, "CELERY_BROKER_URL": redis_url, "DEBUG": "0",
        "SECRET_KEY": "bench-only-not-secret", "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0", "DATA_DIR": str(REPO / "var" / "bench"),
        "THROTTLE_MATCHES": "100000/hour", "THROTTLE_UPLOADS": "100000/hour",
        "CHALLENGES_PER_HOUR": "100000", "CHALLENGES_ACTIVE_MAX": "100000",
        "LOG_LEVEL": "WARNING", "ALLOWED_HOSTS": "127.0.0.1",
    }  # fmt: skip
    s3 = None
    if not args.disk:
        from scripts.s3server import S3Server

        s3 = S3Server().start()
        s3.create_bucket("bench")
        env["STORAGE_URL"] = s3.storage_url("bench")
    os.environ.update({
        "DATABASE_URL": db_url, "DJANGO_SETTINGS_MODULE": "tournament.settings",
        "CHALLENGES_PER_HOUR": "100000", "CHALLENGES_ACTIVE_MAX": "100000",
    })  # fmt: skip
    import django

    django.setup()
    from scripts.stack import Stack

    counts = [("standard-builtin", args.standard), ("duel-builtin", args.duel),
              ("duel-starters", args.bots)]  # fmt: skip
    results: dict[str, Any] = {
        "cores": os.cpu_count(), "storage": "disk" if args.disk else "s3 (moto)",
        "load_before": os.getloadavg()[0], "throughput": [], "ladder": None,
    }  # fmt: skip
    ctx: dict[str, Any] | None = None
    counters = Counters(db_url.rsplit("/", 1)[1], redis_url)
    one_worker: dict[str, float] = {}
    try:
        for workers in _worker_counts(args.workers):
            stack = Stack(workers=workers, port=_free_port(), env=env, beat=False,
                          state_dir=REPO / "var" / "bench" / "stack")  # fmt: skip
            with stack:
                counters.stack = stack
                base = stack.base_url
                if ctx is None:
                    ctx = _setup_users(base)
                    if args.bots:
                        _upload_starters(base, ctx)
                for lineup, count in counts:
                    if not count:
                        continue
                    # Untimed warm-up: every worker imports the engine and opens its
                    # connections (and fills its bundle cache) on its first matches.
                    _throughput(base, ctx, lineup, 2 * workers, None)
                    row = {"workers": workers, **_throughput(base, ctx, lineup, count, counters)}
                    rate = row["matches_per_minute"]
                    one_worker.setdefault(lineup, rate)
                    row["ratio_to_one_worker"] = round(rate / one_worker[lineup], 2)
                    row["worker_seconds_per_match"] = round(60 * workers / rate, 3)
                    results["throughput"].append(row)
                    if not args.json:
                        _print_row(row)
                if results["ladder"] is None:
                    league_id, league_costs = _ladder_league(base, ctx, counters)
                    results["league_match"] = league_costs
                    if not args.json:
                        print(
                            "league (rated) Duel match, per match: "
                            f"{league_costs['pg_transactions']} PostgreSQL transactions, "
                            f"{league_costs['pg_rows_inserted']} rows inserted, "
                            f"{league_costs['pg_rows_updated']} updated, "
                            f"{league_costs['redis_commands']} Redis commands, "
                            f"worker CPU {league_costs['worker_cpu_seconds']} s"
                        )
                    results["ladder"] = _ladder_latency(base, league_id, args.seconds, args.threads)
                    if not args.json:
                        lad = results["ladder"]
                        print(
                            f"ladder endpoint: {lad['threads']} threads x {lad['seconds']:.0f}s: "
                            f"{lad['requests']} requests ({lad['requests_per_second']}/s, "
                            f"{lad['errors']} errors), p50 {lad['p50_ms']} ms, "
                            f"p99 {lad['p99_ms']} ms"
                        )
    finally:
        if s3 is not None:
            s3.stop()
    results["load_after"] = os.getloadavg()[0]
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(f"machine: {os.cpu_count()} cores, 1-minute load {results['load_before']:.1f} "
              f"before and {results['load_after']:.1f} after")  # fmt: skip
    return 0


def _print_row(row: dict[str, Any]) -> None:
    print(
        f"{row['workers']} worker(s)  {row['lineup']:<16} {row['seats']} seats  "
        f"{row['finished_with_replay']}/{row['matches']} matches in {row['seconds']:6.2f}s = "
        f"{row['matches_per_minute']:6.1f}/min  x{row['ratio_to_one_worker']:.2f} of 1 worker  "
        f"{row['worker_seconds_per_match']:.2f} worker-s/match  "
        f"replay {row['replay_bytes_mean']} B  (requests sent in {row['submit_seconds']:.1f}s)"
    )
    per = row.get("per_match")
    if per:
        print(
            "    per match: "
            f"{per['pg_transactions']} PostgreSQL transactions, "
            f"{per['pg_rows_inserted']} rows inserted, {per['pg_rows_updated']} updated, "
            f"{per['redis_commands']} Redis commands ({per['redis_command_bytes']} B), "
            f"worker CPU {per['worker_cpu_seconds']} s, web CPU {per['web_cpu_seconds']} s"
        )


if __name__ == "__main__":
    sys.exit(main())
