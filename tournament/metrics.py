"""Prometheus metrics at /metrics (prometheus_client's text format).

One custom collector reads everything from the database (and the broker's queue depth) at
scrape time, through tournament/selectors/health.py: the web process that answers a scrape
never ran a match itself (Celery workers did, possibly on other machines), so in-process
counters would see nothing; the rows are what every process shares. The match duration
histogram is built from the recorded matches (the result's time minus the start of the play
that produced it), so it counts each match once, when its result is recorded.

With DEBUG off, only staff (a session) and scrapers that send `Authorization: Bearer
<METRICS_TOKEN>` may read it: it names the workers and shows the load.
"""

from __future__ import annotations

import hmac
from collections import Counter
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

from .selectors import health


class ArenaCollector(Collector):
    """Matches by status, match duration, faults by kind, queue depth and worker heartbeats,
    read when scraped."""

    def collect(self) -> Iterator[Metric]:
        matches = GaugeMetricFamily("arena_matches", "Matches in each status.", labels=["status"])
        for status, count in health.matches_by_status().items():
            matches.add_metric([status], count)
        yield matches

        durations = health.match_durations()
        yield HistogramMetricFamily(
            "arena_match_duration_seconds",
            "Time from the start of a match's play to its recorded result (finished matches).",
            buckets=[(floatToGoString(b), n) for b, n in durations["buckets"]]
            + [("+Inf", durations["count"])],
            sum_value=durations["sum"],
        )

        faults = CounterMetricFamily(
            "arena_match_faults", "Seats that faulted in recorded matches, by kind of fault.",
            labels=["kind"],
        )  # fmt: skip
        for kind, count in health.faults_by_kind().items():
            faults.add_metric([kind], count)
        yield faults

        depth = health.queue_depth()
        queued = GaugeMetricFamily(
            "arena_queue_depth",
            "Tasks waiting for a worker: broker messages when the broker answers, else queued "
            "matches (label source).",
            labels=["source"],
        )
        queued.add_metric([depth["source"]], depth["depth"])
        yield queued
        if depth["queues"] is not None:
            per_queue = GaugeMetricFamily(
                "arena_broker_queue_messages", "Messages waiting in each broker queue.",
                labels=["queue"],
            )  # fmt: skip
            for queue, count in depth["queues"].items():
                per_queue.add_metric([queue], count)
            yield per_queue
        yield GaugeMetricFamily(
            "arena_oldest_queued_match_age_seconds",
            "Age of the oldest queued match (0 when none waits; paused leagues not counted).",
            value=health.oldest_queued_age() or 0.0,
        )

        beats = health.worker_beats()
        stale = settings.WORKER_STALE_SECONDS
        live = [w for w in beats if w.age <= stale]
        yield GaugeMetricFamily(
            "arena_workers_live",
            f"Match workers that beat within WORKER_STALE_SECONDS ({stale:g}) and consume the "
            "match queues (beat, periodic workers and workers lacking isolation not counted).",
            value=sum(w.plays_matches for w in live),
        )
        by_state = GaugeMetricFamily(
            "arena_workers_live_by_state",
            f"Workers that beat within WORKER_STALE_SECONDS ({stale:g}), by role and state.",
            labels=["role", "state"],
        )  # fmt: skip
        counts = Counter((w.role or "unknown", w.state) for w in live)
        for (role, state), count in sorted(counts.items()):
            by_state.add_metric([role, state], count)
        yield by_state
        info = GaugeMetricFamily(
            "arena_worker_info", "Each remembered worker's role and state (value 1).",
            labels=["worker", "role", "state"],
        )  # fmt: skip
        for w in beats:
            info.add_metric([w.name, w.role or "unknown", w.state], 1)
        yield info
        ages = GaugeMetricFamily(
            "arena_worker_last_beat_age_seconds",
            "Seconds since each worker's last heartbeat (workers silent for a day are dropped).",
            labels=["worker"],
        )  # fmt: skip
        for w in beats:
            ages.add_metric([w.name], w.age)
        yield ages


REGISTRY = CollectorRegistry(auto_describe=False)
REGISTRY.register(ArenaCollector())


def _access(request: HttpRequest) -> tuple[int, str] | None:
    """None when the request may read the metrics, else (status, message)."""
    if settings.DEBUG:
        return None
    token = settings.METRICS_TOKEN
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        given = header.removeprefix("Bearer ").strip()
        if token and hmac.compare_digest(given.encode(), token.encode()):
            return None
        return 401, "The bearer token is not the metrics token (METRICS_TOKEN)."
    user: Any = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return None if user.is_staff else (403, "Metrics are shown to staff only.")
    return 401, "Metrics need a staff login or `Authorization: Bearer <METRICS_TOKEN>`."


def metrics(request: HttpRequest) -> HttpResponse:
    """GET /metrics: the arena's metrics for Prometheus (see the module docstring)."""
    refused = _access(request)
    if refused is not None:
        status, message = refused
        response = HttpResponse(message + "\n", status=status, content_type="text/plain")
        if status == 401:
            response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    response = HttpResponse(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)
    response["Cache-Control"] = "no-store"
    return response
