"""Service benchmark: matches per minute through the whole stack, and ladder latency under load.

    python bench/service.py [--duel 40] [--standard 16] [--workers 1,2] [--seconds 10]
                            [--threads 8] [--json]

Starts the production topology (scripts/stack.py: gunicorn + N Celery workers) on PostgreSQL and
Redis, on a database and Redis db of its own (BENCH_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/arena_bench, recreated; BENCH_REDIS_URL, default
redis://127.0.0.1:6379/14, flushed). For each worker count it requests challenge matches of the
built-in bots over the API (4-player standard, then Duel) and times them until every one is
finished in the database with its replay stored: API -> Redis -> worker -> runner -> replay ->
PostgreSQL, after an untimed warm-up of two matches per worker. Then threads fetch a league
ladder for a fixed time and p50/p99 latencies are printed.
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


def _throughput(base: str, ctx: dict[str, Any], mode: str, count: int) -> dict[str, Any]:
    from tournament.models import Match

    seats = 4 if mode == "standard" else 2
    lineup = [ctx["greedy"] if i % 2 else ctx["random"] for i in range(seats)]
    started = time.monotonic()
    ids = [
        _post(base, "/api/v1/matches/", ctx["token"], {"mode": mode, "bot_versions": lineup})["id"]
        for _ in range(count)
    ]
    submitted = time.monotonic() - started
    while True:
        open_count = Match.objects.filter(pk__in=ids, status__in=["queued", "running"]).count()
        if not open_count:
            break
        if time.monotonic() - started > 900:
            raise RuntimeError(f"{open_count} {mode} matches still open after 900 s")
        time.sleep(0.1)
    elapsed = time.monotonic() - started
    done = Match.objects.filter(pk__in=ids)
    finished = done.filter(status="finished").exclude(replay_name="").count()
    return {
        "mode": mode, "seats": seats, "matches": count, "finished_with_replay": finished,
        "seconds": round(elapsed, 2), "submit_seconds": round(submitted, 2),
        "matches_per_minute": round(finished / elapsed * 60, 1),
    }  # fmt: skip


def _ladder_league(base: str, ctx: dict[str, Any]) -> int:
    """A duel league of the two built-in bots, played, so its ladder has rows and history."""
    from tournament.models import League, Match

    league = _post(base, "/api/v1/leagues/", ctx["token"], {
        "name": "bench ladder", "mode": "duel", "seats": 2, "format": "round_robin", "seeds": 3,
    })  # fmt: skip
    for version in (ctx["random"], ctx["greedy"]):
        _post(base, f"/api/v1/leagues/{league['id']}/entries/", ctx["token"],
              {"bot_version": version})  # fmt: skip
    _post(base, f"/api/v1/leagues/{league['id']}/start/", ctx["token"], {})
    deadline = time.monotonic() + 300
    while League.objects.get(pk=league["id"]).status != "closed":
        if time.monotonic() > deadline:
            raise RuntimeError("the ladder league did not finish")
        time.sleep(0.2)
    assert Match.objects.filter(league_id=league["id"], status="finished").count() == 6
    return league["id"]


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duel", type=int, default=40, help="Duel matches per worker count")
    parser.add_argument("--standard", type=int, default=16, help="4-player standard matches")
    parser.add_argument("--workers", default="1,2", help="worker counts to measure")
    parser.add_argument("--seconds", type=float, default=10.0, help="ladder load duration")
    parser.add_argument("--threads", type=int, default=8, help="ladder load threads")
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
        "THROTTLE_MATCHES": "100000/hour", "LOG_LEVEL": "WARNING", "ALLOWED_HOSTS": "127.0.0.1",
    }  # fmt: skip
    os.environ.update({"DATABASE_URL": db_url, "DJANGO_SETTINGS_MODULE": "tournament.settings"})
    import django

    django.setup()
    from scripts.stack import Stack

    results: dict[str, Any] = {"throughput": [], "ladder": None}
    ctx: dict[str, Any] | None = None
    for workers in [int(w) for w in args.workers.split(",")]:
        stack = Stack(workers=workers, port=_free_port(), env=env, beat=False,
                      state_dir=REPO / "var" / "bench" / "stack")  # fmt: skip
        with stack:
            base = stack.base_url
            if ctx is None:
                ctx = _setup_users(base)
            for mode, count in (("standard", args.standard), ("duel", args.duel)):
                if count:
                    # Untimed warm-up: every worker imports the engine and opens its
                    # connections on its first matches.
                    _throughput(base, ctx, mode, 2 * workers)
                    row = {"workers": workers, **_throughput(base, ctx, mode, count)}
                    results["throughput"].append(row)
                    if not args.json:
                        print(
                            f"{workers} worker(s)  {mode:<8} {row['seats']} seats  "
                            f"{row['finished_with_replay']}/{count} matches in "
                            f"{row['seconds']:6.2f}s = {row['matches_per_minute']:6.1f}/min"
                        )
            if results["ladder"] is None:
                league_id = _ladder_league(base, ctx)
                results["ladder"] = _ladder_latency(base, league_id, args.seconds, args.threads)
                if not args.json:
                    lad = results["ladder"]
                    print(
                        f"ladder endpoint: {lad['threads']} threads x {lad['seconds']:.0f}s: "
                        f"{lad['requests']} requests ({lad['requests_per_second']}/s, "
                        f"{lad['errors']} errors), p50 {lad['p50_ms']} ms, p99 {lad['p99_ms']} ms"
                    )
    if args.json:
        print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
