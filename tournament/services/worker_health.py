"""Workers' heartbeats: each Celery worker stamps its row every WORKER_HEARTBEAT_SECONDS
(tournament/worker_heartbeat.py calls `worker_beat`) with its role and the queues it consumes, so
any process can tell whether some worker is alive to take queued matches: /status, /metrics and
the site's banner read the rows (tournament/selectors/health.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from workers.queueing.worker_queues import WorkerQueues

from ..models import WorkerHeartbeat

# A worker silent this long is forgotten: /metrics stops reporting its age, /status its name.
FORGET_AFTER = timedelta(days=1)


def worker_beat(
    *,
    name: str,
    pid: int,
    started_at: datetime,
    queues: WorkerQueues | None = None,
) -> WorkerHeartbeat:
    """Record that worker ``name`` (Celery's node name) is alive now, with what it consumes
    and what it left to others (``queues``: workers.queueing.worker_queues), and forget
    workers silent for a day (gone for good: a replaced container, a renamed node)."""
    now = timezone.now()
    queues = queues or WorkerQueues(consumed=())
    beat, _ = WorkerHeartbeat.objects.update_or_create(
        name=name[:255],
        defaults={
            "pid": pid, "started_at": started_at, "beat_at": now, "role": queues.role,
            "queues": list(queues.consumed), "refused_queues": list(queues.refused),
            "isolation_missing": list(queues.missing),
        },
    )  # fmt: skip
    WorkerHeartbeat.objects.filter(beat_at__lt=now - FORGET_AFTER).delete()
    return beat
