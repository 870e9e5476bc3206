"""The match pictures and the win-chance analysis, as a spectator and a worker meet them
(used by ``bench/replays.py``; ``--images`` and ``--analysis`` there).

* **pictures**: ``GET /matches/N/step/K.png`` and ``GET /matches/N/summary.gif`` of finished
  4-player standard matches (greedy bots), through Django's test client (routing, the view,
  the storage read): *cold* with the cache emptied and the stored pictures deleted (drawn by
  the request), *cached* the same request again (a cache hit). Bytes are the response's.
* **analysis**: ``match_analysis_run`` (the worker task's service) on one such match at
  ``ANALYSIS_PLAYOUTS`` playouts per point: wall clock and the process's CPU time.

Runs against a throw-away SQLite database and storage under a temporary DATA_DIR, with the
matches stored through the service the match runner uses (bench/replays_viewer.py).
"""

from __future__ import annotations

import importlib.util
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from PIL import Image

HERE = Path(__file__).resolve().parent


def _viewer_module() -> Any:
    spec = importlib.util.spec_from_file_location("replays_viewer", HERE / "replays_viewer.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


CPU: list[float] = []  # the process's CPU time of each timed request, in ms (the machine may
# be shared: the wall clock then counts the others' work too)


def _timed_get(client: Any, url: str) -> tuple[float, Any]:
    cpu = time.process_time()
    started = time.perf_counter()
    response = client.get(url)
    elapsed = (time.perf_counter() - started) * 1000
    CPU.append((time.process_time() - cpu) * 1000)
    if response.status_code != 200:
        raise SystemExit(f"{url}: HTTP {response.status_code}")
    return elapsed, response


def _cold(client: Any, url: str, replay_storage: Path) -> tuple[float, Any]:
    from django.core.cache import cache

    cache.clear()
    for stored in replay_storage.rglob("*.image-*"):
        stored.unlink()
    elapsed, response = _timed_get(client, url)
    assert response["X-Image-Cache"] == "miss", url
    return elapsed, response


def pictures(matches: list[Any], replay_storage: Path, repeats: int = 5) -> dict[str, Any]:
    from django.test import Client

    from replayfile.format import decode
    from replays.storage import open_replay

    client = Client()
    rows: dict[str, list[float]] = {k: [] for k in (
        "png_cold_ms", "png_cold_cpu_ms", "png_cached_ms", "png_bytes", "gif_cold_ms",
        "gif_cold_cpu_ms", "gif_cached_ms", "gif_bytes", "gif_frames", "steps")}
    for match in matches:
        steps = len(decode(open_replay(match.replay_name))["steps"])
        rows["steps"].append(steps)
        for k in range(repeats):
            url = f"/matches/{match.pk}/step/{(k + 1) * steps // (repeats + 1)}.png"
            cold, response = _cold(client, url, replay_storage)
            rows["png_cold_ms"].append(cold)
            rows["png_cold_cpu_ms"].append(CPU[-1])
            rows["png_bytes"].append(len(response.content))
            cached, again = _timed_get(client, url)
            assert again["X-Image-Cache"] == "hit"
            rows["png_cached_ms"].append(cached)
        url = f"/matches/{match.pk}/summary.gif"
        cold, response = _cold(client, url, replay_storage)
        rows["gif_cold_ms"].append(cold)
        rows["gif_cold_cpu_ms"].append(CPU[-1])
        rows["gif_bytes"].append(len(response.content))
        rows["gif_frames"].append(Image.open(io.BytesIO(response.content)).n_frames)
        for _ in range(repeats):
            cached, _again = _timed_get(client, url)
            rows["gif_cached_ms"].append(cached)
    return {key: round(statistics.median(values), 2) for key, values in rows.items()} | {
        "png_cold_ms_max": round(max(rows["png_cold_ms"]), 1),
        "gif_cold_ms_max": round(max(rows["gif_cold_ms"]), 1),
        "matches": len(matches), "pngs": len(rows["png_cold_ms"])}


def analysis(match: Any, playouts: int) -> dict[str, Any]:
    from django.conf import settings

    from tournament.models import MatchAnalysis
    from tournament.services.analysis import match_analysis_run

    settings.ANALYSIS_PLAYOUTS = playouts
    row = MatchAnalysis.objects.create(match=match, playouts=playouts)
    cpu = time.process_time()
    wall = time.perf_counter()
    done = match_analysis_run(analysis_id=row.pk)
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    if done is None or done.status != "done":
        raise SystemExit(f"analysis failed: {done and done.error}")
    points = done.result["points"]
    return {"playouts_per_point": playouts, "points": len(points),
            "playouts": playouts * (len(points) - 1), "wall_s": round(wall, 2),
            "cpu_s": round(cpu, 2), "steps": done.result["frames"]}


def run(games: int = 2, playouts: int = 400, with_pictures: bool = True,
        with_analysis: bool = True) -> dict[str, Any]:
    viewer = _viewer_module()
    with tempfile.TemporaryDirectory(prefix="bench-images-") as data_dir:
        viewer._setup_django(data_dir)
        from django.conf import settings
        from django.core.files.storage import storages

        matches = [viewer._stored_match("standard", 4, seed, "greedy") for seed in range(games)]
        out: dict[str, Any] = {"games": games}
        location = Path(storages["replays"].location) if hasattr(
            storages["replays"], "location") else Path(settings.DATA_DIR)
        if with_pictures:
            out["pictures"] = pictures(matches, location)
        if with_analysis:
            out["analysis"] = analysis(matches[0], playouts)
    return out


if __name__ == "__main__":
    import json

    sys.path.insert(0, str(HERE.parent))
    print(json.dumps(run()))
