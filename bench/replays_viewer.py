"""The viewer's two speeds, as a spectator meets them (used by ``bench/replays.py --viewer``).

* **first view**: the server time of the first ``GET /api/v1/matches/{id}/frames`` of a
  finished 4-player standard match, with an empty cache (another web process, a restart),
  measured around Django's test client (URL routing, the view, the storage read);
* **seek**: headless Chromium (Debian's /usr/bin/chromium) opens the viewer page, then seeks
  to random steps; each seek is timed from the call until style and layout are done.

``--root DIR`` measures another checkout of the project (e.g. ``git archive 646f005 | tar -x``,
the code before frames were stored with the replay) with this same procedure, so "before" and
"now" can be measured side by side under the same machine load.

Runs against a throw-away SQLite database and storage under a temporary DATA_DIR; the page's
requests are answered in process by the test client (Playwright's request routing), so no
server or port is needed. Matches are recorded through the same service call the match runner
uses (``tournament.services.replay_upload.replay_upload``), so anything it precomputes is included.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"


def _setup_django(data_dir: str) -> None:
    os.environ["DATA_DIR"] = data_dir
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    os.environ["DEBUG"] = "1"
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "1"  # the test client runs beside Playwright's loop
    os.environ["ALLOWED_HOSTS"] = "testserver,bench.invalid"
    for name in ("DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL"):
        os.environ.pop(name, None)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)


def _stored_match(mode: str, seats: int, seed: int, bots: str) -> Any:
    """A finished match row with its replay stored the way ``match_play`` stores it."""
    from django.contrib.auth import get_user_model

    from replayfile.format import document_from_game, encode
    from replayfile.recording import header_for_bots, play_recorded
    from tournament.models import Bot, BotVersion, Match, MatchSeat
    try:
        from tournament.services.replay_upload import replay_upload
    except ImportError:  # an older checkout: the match service stored replays itself
        from tournament.services.matches import _replay_store

        def replay_upload(*, match_id: int, data: bytes) -> dict[str, Any]:
            return _replay_store(match_id, data)

    owner, _ = get_user_model().objects.get_or_create(username="bench-owner")
    bot, _ = Bot.objects.get_or_create(name=bots, owner=owner, defaults={"is_system": True})
    version, _ = BotVersion.objects.get_or_create(
        bot=bot, number=1, defaults={"builtin": bots, "status": BotVersion.Status.READY})
    game, steps = play_recorded(mode, seats, seed, bots=bots)
    data = encode(document_from_game(game, steps, header_for_bots(seats, bots)))
    result = game.result()
    match = Match.objects.create(kind=Match.Kind.CHALLENGE, mode=mode, seed=seed,
                                 status=Match.Status.FINISHED, result=result)
    for s in range(seats):
        MatchSeat.objects.create(match=match, seat=s, bot_version=version,
                                 score=result["scores"][s], rank=result["ranks"][s])
    replay = replay_upload(match_id=match.pk, data=data)
    Match.objects.filter(pk=match.pk).update(replay_name=replay["name"],
                                             replay_sha256=replay["sha256"],
                                             replay_size=replay["size"])
    match.refresh_from_db()
    return match


def first_view_ms(match_ids: list[int]) -> list[float]:
    """Server time of each match's first frames request, the cache emptied before each."""
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    client = Client()
    out = []
    for match_id in match_ids:
        cache.clear()
        url = reverse("replays:frames", args=[match_id])
        started = time.perf_counter()
        response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        out.append((time.perf_counter() - started) * 1000)
        if response.status_code != 200:
            raise SystemExit(f"frames of match {match_id}: HTTP {response.status_code}")
    return out


def seek_ms(match_id: int, seeks: int = 300) -> list[float]:
    """Times of ``seeks`` random seeks on the viewer page in headless Chromium."""
    from django.test import Client
    from playwright.sync_api import sync_playwright

    client = Client(SERVER_NAME="bench.invalid")
    base = "http://bench.invalid"

    def answer(route: Any) -> None:
        url = route.request.url
        path = url[len(base):] if url.startswith(base) else None
        if path is None:
            route.abort()
            return
        response = client.get(path)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        route.fulfill(status=response.status_code, body=body,
                      headers={k: v for k, v in response.items()
                               if k.lower() not in ("content-length", "content-encoding")})

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.route("**/*", answer)
            page.goto(f"{base}/replays/{match_id}/")
            page.wait_for_function("window.viewer && window.viewer.views.length > 1",
                                   timeout=60_000)
            page.wait_for_timeout(500)  # the page settles, as before a spectator's first seek
            n = page.evaluate("window.viewer.views.length") - 1
            order = [random.Random(seed).randint(0, n) for seed in range(seeks)]
            return page.evaluate("""(order) => {
                const v = window.viewer, out = [];
                for (const i of order) {
                    const t0 = performance.now();
                    v.show(i);
                    void document.body.offsetHeight;
                    out.push(performance.now() - t0);
                }
                return out;
            }""", order)
        finally:
            browser.close()


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def run(games: int = 5, bots: str = "greedy") -> dict[str, Any]:
    """Figures for ``games`` 4-player standard matches (played by ``bots``)."""
    with tempfile.TemporaryDirectory(prefix="bench-viewer-") as data_dir:
        _setup_django(data_dir)
        matches = [_stored_match("standard", 4, seed, bots) for seed in range(games)]
        first = first_view_ms([m.pk for m in matches])
        seeks = seek_ms(matches[0].pk) if Path(CHROMIUM).exists() else []
    return {
        "games": games,
        "first_view_ms_median": round(statistics.median(first), 1),
        "first_view_ms_max": round(max(first), 1),
        "seek_ms_p95": round(p95(seeks), 2) if seeks else None,
        "seek_ms_median": round(statistics.median(seeks), 2) if seeks else None,
    }


if __name__ == "__main__":
    import argparse
    import json

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", help="the checkout to measure (default: this one)")
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    if args.root:
        ROOT = Path(args.root).resolve()
        os.chdir(ROOT)
    print(json.dumps(run(args.games)))
