"""Speed of the pages people wait for, on a database of realistic size.

    python bench/web.py [--matches 20000] [--leagues 20] [--seconds 5] [--rounds 5] [--json]
                        [--refill]
    python bench/web.py --misses [--repeat 20] [--json]

1. Fills a PostgreSQL database (DATABASE_URL, default
   postgres://postgres@127.0.0.1:5432/h_perf_bench, created when missing) with finished
   matches of 2-4 seats in `--leagues` ladder leagues of ten entrants each, written with
   COPY (bench/web_fill.py: a million matches in minutes; the fill time and the database
   size are printed, and kept in var/bench-web/fill.json for later runs), with their
   rating history (Elo and OpenSkill, computed in match order like the ratings service
   does), standings, chart points and head-to-head records. Result blobs and replays are
   those of real games: a few games of each seat count are played in process with the
   random bot, their replays are stored in the replays storage, and every match of that
   seat count carries one of them. A filled database is reused (the bench leaves a marker
   league); `--refill` starts again. The fill ends with VACUUM ANALYZE, as autovacuum would
   run on a live database. Then, in a step of its own (so a database filled before it gets
   it without a refill), a double-elimination bracket of 64 of those bots is played to its
   champion through the services, as workers play it (bench/web_fill.py: `fill_bracket`).
2. Starts gunicorn (scripts/stack.py, 2 web workers, no Celery; the page cache on CACHE_URL,
   else on a local Redis if one answers, as in a deployment) on a free loopback port and,
   with wrk at 8 connections, measures p50 and p99 of each page for `--seconds`:
   the API and HTML match lists (first and a deep page), the ladder, the league page (first
   and a deep page of its matches), the leagues and bots lists, the bracket (API and HTML),
   a bot page, the replay download and /healthz. The seconds are cut into `--rounds` slices
   measured in turn (page after page, then again), and each page's slices are merged into
   one latency distribution, /healthz's too: on a shared machine a burst of other work then
   weighs on every page alike (`--rounds 1`: each page in one go, /healthz first and last).
   Each p99 is printed as a ratio to /healthz's p99.

`--json` prints {"pages": {NAME: {"p50_ms", "p99_ms", "p99_ratio_to_healthz"}}, ...}.

`--misses` measures instead what each page costs when the page cache cannot answer it (the
first read after a write): in this process, with Django's test client and the cache off, the
best of `--repeat` requests and the number of SQL queries, beside /healthz. `--json` prints
{"misses": {NAME: {"ms", "queries", "bytes"}}}.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/h_perf_bench"
# The deployment shares a Redis cache between web processes (.env.example sets CACHE_URL), which
# turns the page cache on; without CACHE_URL the bench uses a local Redis the same way.
DEFAULT_CACHE = "redis://127.0.0.1:6379/13"
MARKER = "bench-web-marker"
BRACKET_MARKER = "bench-web-bracket"  # the bracket league, filled by a step of its own
TARGET_RATIO = 3.0
CONNECTIONS = 8
SAMPLE_GAMES = 4  # real games per seat count whose result and replay the matches carry
WRK = shutil.which("wrk") or "/usr/bin/wrk"
FILL_FIGURES = ROOT / "var" / "bench-web" / "fill.json"  # the last fill's time and size


def ensure_database(url: str) -> None:
    """Create the database named in `url` when it does not exist yet."""
    import psycopg

    base, _, name = url.rpartition("/")
    name = name.split("?")[0]
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def setup_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def sample_games() -> dict[int, list[dict[str, Any]]]:
    """A few real random games of each seat count: their result blobs and replay bytes."""
    from tournament.services.outcome import outcome_from_runner
    from workers.runner import MatchSpec, SeatSpec, run_match

    games: dict[int, list[dict[str, Any]]] = {}
    for seats in (2, 3, 4):
        for i in range(SAMPLE_GAMES):
            spec = MatchSpec(mode="standard", seats=tuple(SeatSpec(builtin="random")
                             for _ in range(seats)), seed=1000 * seats + i)  # fmt: skip
            played = outcome_from_runner(run_match(spec))
            games.setdefault(seats, []).append({"played": played})
    return games


def _web_fill() -> Any:
    """bench/web_fill.py, loaded by path: bench/ holds a module named engine.py, so it cannot
    go on sys.path."""
    import importlib.util

    if "web_fill" not in sys.modules:
        spec = importlib.util.spec_from_file_location("web_fill", ROOT / "bench" / "web_fill.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules["web_fill"] = module
    return sys.modules["web_fill"]


def fill(matches: int, leagues: int) -> dict[str, Any]:
    """Real sample games and their replays, then users, bots, leagues, entries, finished
    matches, seats, rating changes, standings, charts and head-to-head records: the rows of
    matches by COPY (bench/web_fill.py). Returns the fill's figures (kept in FILL_FIGURES)."""
    from replays.storage import save_replay

    web_fill = _web_fill()
    print("playing sample games ...", file=sys.stderr)
    samples = sample_games()
    for seats, games in samples.items():
        for i, game in enumerate(games):
            stored = save_replay(match_id=900_000_000 + seats * 100 + i,
                                 data=game["played"].replay)  # fmt: skip
            game["replay"] = stored
    print(f"writing {matches} matches by COPY ...", file=sys.stderr)
    figures = web_fill.fill(matches, leagues, samples, MARKER)
    FILL_FIGURES.parent.mkdir(parents=True, exist_ok=True)
    FILL_FIGURES.write_text(json.dumps(figures))
    return figures


def filled(marker: str = MARKER) -> bool:
    from tournament.models import League

    return League.objects.filter(name=marker).exists()


def fill_bracket() -> dict[str, Any]:
    """The bracket league (bench/web_fill.py: `fill_bracket`), on a database filled before
    it or after; its figures are added to FILL_FIGURES."""
    web_fill = _web_fill()
    print(f"playing a bracket of {web_fill.BRACKET_ENTRANTS} ...", file=sys.stderr)
    figures = web_fill.fill_bracket(BRACKET_MARKER)
    kept = json.loads(FILL_FIGURES.read_text()) if FILL_FIGURES.exists() else {}
    kept["bracket"] = figures
    FILL_FIGURES.parent.mkdir(parents=True, exist_ok=True)
    FILL_FIGURES.write_text(json.dumps(kept))
    return figures


def empty_database() -> None:
    from django.core.management import call_command

    call_command("flush", interactive=False, verbosity=0)


def targets() -> dict[str, str]:
    """The pages to measure (paths), chosen from the filled data."""
    from tournament.models import Bot, League, Match

    league = League.objects.get(name=MARKER)
    bracket = League.objects.get(name=BRACKET_MARKER)
    newest = Match.objects.order_by("-created_at", "-id").values_list("pk", flat=True)
    total = Match.objects.count()
    deep = newest[total // 2]
    deep_page = total // 2 // 50 + 1
    ids = [newest[0]]
    bot = Bot.objects.filter(name__startswith="bench-bot-").order_by("pk").first()
    return {
        "healthz": "/healthz",
        "api_matches": "/api/v1/matches/",
        "api_matches_deep": f"/api/v1/matches/?before={deep}",
        "api_matches_deep_page": f"/api/v1/matches/?page={deep_page}",
        "html_matches": "/matches/",
        "html_matches_deep": f"/matches/?page={deep_page}",
        "api_ladder": f"/api/v1/leagues/{league.pk}/ladder/",
        "html_bracket": f"/leagues/{bracket.pk}/bracket/",
        "api_bracket": f"/api/v1/leagues/{bracket.pk}/bracket/",
        "html_league": f"/leagues/{league.pk}/",
        "html_league_matches_deep": f"/leagues/{league.pk}/?page={deep_page // 20 + 1}",
        "api_leagues": "/api/v1/leagues/",
        "html_leagues": "/leagues/",
        "api_bots": "/api/v1/bots/",
        "html_bots": "/bots/",
        "api_bot": f"/api/v1/bots/{bot.pk}/",
        "html_bot": f"/bots/{bot.pk}/",
        "replay_download": f"/api/v1/matches/{ids[0]}/replay",
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# wrk's done() hook prints 1000 evenly spaced quantiles of the latency (the 0.05th, 0.15th,
# ... 99.95th percentile), each standing for a thousandth of the requests: the slices of one
# page measured in several rounds are merged from these into one distribution.
QUANTILES = 1000
QUANTILE_SCRIPT = """
done = function(summary, latency, requests)
  io.write(string.format("requests %d errors %d\\n", summary.requests, summary.errors.status))
  for i = 0, 999 do
    io.write(string.format("q %d\\n", latency:percentile((i + 0.5) / 10)))
  end
end
"""


def port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return True
    except OSError:
        return False


def wrk(url: str, seconds: int, script: Path) -> list[tuple[float, float]]:
    """(latency in ms, weight in requests) of `url` under wrk at CONNECTIONS connections
    for `seconds`."""
    out = subprocess.run(
        [WRK, "-t", "2", "-c", str(CONNECTIONS), "-d", f"{seconds}s", "--timeout", "30s",
         "-s", str(script), url],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    found = re.search(r"^requests (\d+) errors (\d+)$", out, re.M)
    if found is None or int(found.group(2)):
        raise SystemExit(f"{url}: {found.group(2) if found else 'no'} error responses")
    weight = int(found.group(1)) / QUANTILES
    return [(int(us) / 1000, weight) for us in re.findall(r"^q (\d+)$", out, re.M)]


def percentile(samples: list[tuple[float, float]], pct: float) -> float:
    """The latency (ms) below which `pct` percent of the requests fall."""
    ordered = sorted(samples)
    wanted = pct / 100 * sum(w for _, w in ordered)
    seen = 0.0
    for value, weight in ordered:
        seen += weight
        if seen >= wanted:
            return round(value, 2)
    return round(ordered[-1][0], 2) if ordered else 0.0


def measure(
    paths: dict[str, str], env: dict[str, str], seconds: float, rounds: int
) -> dict[str, Any]:
    """Every page (/healthz among them) for `seconds` in all, in `rounds` interleaved slices:
    round 1 measures each page in turn, then round 2, ... Each page's slices are merged, so
    every page and /healthz sample the same stretch of time, and a burst of other work on
    the machine falls on all of them alike rather than on whichever page was measured then."""
    from scripts.stack import Stack

    port = free_port()
    state = Path(tempfile.mkdtemp(prefix="bench-web-"))
    script = state / "quantiles.lua"
    script.write_text(QUANTILE_SCRIPT)
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in paths}
    slice_seconds = max(1, round(seconds / rounds))
    try:
        with Stack(workers=0, beat=False, port=port, env=env, state_dir=state) as stack:
            base = stack.base_url
            for path in paths.values():  # warm each page once (and check it answers)
                with urllib.request.urlopen(base + path, timeout=60) as response:
                    response.read()
            for _ in range(rounds):
                for name, path in paths.items():
                    samples[name] += wrk(base + path, slice_seconds, script)
            if rounds == 1:  # in one go, /healthz is measured first and last
                samples["healthz"] += wrk(base + paths["healthz"], slice_seconds, script)
    finally:
        shutil.rmtree(state, ignore_errors=True)
    pages = {
        name: {"p50_ms": percentile(found, 50), "p99_ms": percentile(found, 99),
               "requests": round(sum(w for _, w in found))}
        for name, found in samples.items()
    }  # fmt: skip
    healthz_p99 = pages["healthz"]["p99_ms"]
    for page in pages.values():
        page["p99_ratio_to_healthz"] = round(page["p99_ms"] / healthz_p99, 2)
    return {"pages": pages, "healthz_p99_ms": healthz_p99, "connections": CONNECTIONS,
            "seconds": rounds * slice_seconds, "rounds": rounds,
            "target_ratio": TARGET_RATIO}  # fmt: skip


def misses(paths: dict[str, str], repeat: int) -> dict[str, Any]:
    """Each page's cost with the page cache off, in this process: best of `repeat`."""
    import time

    from django.db import connection, reset_queries
    from django.test import Client, override_settings
    from django.test.utils import CaptureQueriesContext

    out: dict[str, Any] = {}
    with override_settings(PAGE_CACHE_SECONDS=0, ALLOWED_HOSTS=["testserver"]):
        client = Client()
        for name, path in paths.items():
            reset_queries()
            with CaptureQueriesContext(connection) as queries:
                body = _get(client, path)
            count = len(queries.captured_queries)
            best = float("inf")
            for _ in range(repeat):
                start = time.perf_counter()
                _get(client, path)
                best = min(best, time.perf_counter() - start)
            out[name] = {"ms": round(best * 1000, 2), "queries": count, "bytes": len(body)}
    return {"misses": out, "repeat": repeat}


def _get(client: Any, path: str) -> bytes:
    response = client.get(path)
    if response.status_code != 200:
        raise SystemExit(f"{path}: answered {response.status_code}")
    return b"".join(response.streaming_content) if response.streaming else response.content


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument("--leagues", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=5.0, help="per page, in all")
    parser.add_argument("--rounds", type=int, default=5,
                        help="interleaved slices per page (1: each page in one go)")
    parser.add_argument("--refill", action="store_true", help="empty the database and fill again")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--misses", action="store_true",
                        help="measure each page's cache miss in process instead of wrk")
    parser.add_argument("--repeat", type=int, default=20, help="--misses: requests per page")
    args = parser.parse_args(argv)
    if not args.misses and shutil.which(WRK) is None:
        parser.exit(2, f"bench/web.py: the load generator wrk is not installed ({WRK}); "
                       "install it (Debian: apt-get install wrk) or use --misses\n")
    db = os.environ.get("DATABASE_URL") or DEFAULT_DB
    ensure_database(db)
    data_dir = ROOT / "var" / "bench-web"
    env = {
        "DATABASE_URL": db, "DATA_DIR": str(data_dir), "DEBUG": "0",
        "SECRET_KEY": "bench-web-only", "SECURE_SSL_REDIRECT": "0", "SECURE_COOKIES": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost", "WEB_CONCURRENCY": "2",
    }  # fmt: skip
    for key in ("CACHE_URL", "STORAGE_URL"):
        if os.environ.get(key):
            env[key] = os.environ[key]
    if "CACHE_URL" not in env and port_open("127.0.0.1", 6379):
        env["CACHE_URL"] = DEFAULT_CACHE
    if "CACHE_URL" not in env and not args.misses:
        print("bench/web.py: no CACHE_URL and no Redis on 127.0.0.1:6379, so the page cache is "
              "off (a deployment has it on: .env.example)", file=sys.stderr)  # fmt: skip
    setup_django(env)
    if args.refill and filled():
        empty_database()
    if not filled():
        fill(args.matches, args.leagues)
    if not filled(BRACKET_MARKER):
        fill_bracket()
    from tournament.models import Match

    count = Match.objects.count()
    fill_figures = json.loads(FILL_FIGURES.read_text()) if FILL_FIGURES.exists() else None
    if args.misses:
        result = misses(targets(), args.repeat)
        result["matches"] = count
        result["fill"] = fill_figures
        if args.json:
            print(json.dumps(result, indent=2))
            return 0
        print(f"{count} matches; each page's cache miss in process, best of {args.repeat}")
        print(f"{'page':24} {'ms':>8} {'queries':>8} {'bytes':>8}")
        for name, page in result["misses"].items():
            print(f"{name:24} {page['ms']:8.2f} {page['queries']:8d} {page['bytes']:8d}")
        return 0
    result = measure(targets(), env, args.seconds, max(1, args.rounds))
    result["matches"] = count
    result["fill"] = fill_figures
    result["page_cache"] = env.get("CACHE_URL") or "off"
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{count} matches; wrk, {CONNECTIONS} connections, {result['seconds']} s per page in "
          f"{result['rounds']} rounds; page cache {result['page_cache']}; "
          f"/healthz p99 {result['healthz_p99_ms']:.1f} ms")  # fmt: skip
    if fill_figures:
        print(f"fill: {fill_figures['matches']} matches, {fill_figures['seats']} seats by COPY in "
              f"{fill_figures['seconds']} s; database {fill_figures['database_bytes'] / 2**30:.2f}"
              " GiB")  # fmt: skip
    print(f"{'page':24} {'p50 ms':>8} {'p99 ms':>8} {'p99 / healthz':>14}")
    for name, page in result["pages"].items():
        flag = "" if page["p99_ratio_to_healthz"] <= TARGET_RATIO else "  over target"
        print(f"{name:24} {page['p50_ms']:8.1f} {page['p99_ms']:8.1f} "
              f"{page['p99_ratio_to_healthz']:14.2f}{flag}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
