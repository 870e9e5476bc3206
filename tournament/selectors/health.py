"""Reads of the service's health: which workers beat recently and which of them play matches,
how deep the queue is, how old the oldest queued match is, matches by status, match durations
and faults by kind. /status
(tournament/health.py), /metrics (tournament/metrics.py) and the site's banner read these; all
come from the database (and the broker, for its queue depth), so every process gives the same
answer, whichever process ran the matches."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, DurationField, ExpressionWrapper, F, Q, Sum
from django.utils import timezone

from workers.queueing.celery_app import app
from workers.queueing.embedded import supervisor_state
from workers.queueing.queue_depth import broker_queue_depth
from workers.queueing.queues import match_queues
from workers.queueing.worker_queues import MATCH, ROLES

from ..models import League, Match, MatchSeat, WorkerHeartbeat

# The broker is asked at most this often per process: /status is public, and each answer
# would otherwise cost a broker connection.
QUEUE_DEPTH_CACHE_SECONDS = 5
# Upper bounds of the match duration histogram, in seconds (a Duel of fast bots takes a few
# seconds; a 4-player Standard of slow ones, many minutes).
DURATION_BUCKETS = (1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0, 3600.0)


@dataclass(frozen=True)
class WorkerBeat:
    name: str
    pid: int
    age: float  # seconds since its last beat
    up: float  # seconds since it started
    role: str = ""  # "match", "periodic", "other" (workers.queueing.worker_queues); "": unsaid
    queues: tuple[str, ...] = ()
    isolation_missing: tuple[str, ...] = ()  # set when it left the queues of bot work

    @property
    def plays_matches(self) -> bool:
        """A match worker that consumes its queues: what a queued match waits for."""
        return self.role == MATCH and not self.isolation_missing

    @property
    def refuses_matches(self) -> bool:
        """A match worker that left the match queues for want of an isolation layer."""
        return self.role == MATCH and bool(self.isolation_missing)

    @property
    def state(self) -> str:
        """"ok", or why it takes no match: ``isolation: missing <layer>, ...``."""
        if self.isolation_missing:
            return f"isolation: missing {', '.join(self.isolation_missing)}"
        return "ok"


def _age(then: datetime, now: datetime) -> float:
    return max(0.0, (now - then).total_seconds())


def worker_beats(*, now: datetime | None = None) -> list[WorkerBeat]:
    """Every worker remembered (beat within a day), the most recent beat first."""
    now = now or timezone.now()
    return [
        WorkerBeat(
            name=w.name, pid=w.pid, age=_age(w.beat_at, now), up=_age(w.started_at, now),
            role=w.role, queues=tuple(w.queues or ()),
            isolation_missing=tuple(w.isolation_missing or ()),
        )
        for w in WorkerHeartbeat.objects.order_by("-beat_at", "name")
    ]  # fmt: skip


def worker_silence(
    *, now: datetime | None = None, beats: list[WorkerBeat] | None = None
) -> float | None:
    """Seconds since any match worker that plays matches last beat (of ``beats``, read when
    not given); None when none ever did (or none for a day)."""
    beats = worker_beats(now=now) if beats is None else beats
    ages = [w.age for w in beats if w.plays_matches]
    return min(ages) if ages else None


def worker_alarm(*, user: Any, now: datetime | None = None) -> dict[str, Any] | None:
    """What the site's banner says to ``user`` about missing workers: None for everyone but
    organisers and staff, and for them too while some match worker beats; else how long none
    has (``silence``, None for never), how many live match workers lack an isolation layer
    (``refusing``) and whether the worker is the embedded one."""
    if user is None or not user.is_authenticated or settings.CELERY_TASK_ALWAYS_EAGER:
        return None  # (eager tasks need no worker) decided before any query
    if not (user.is_staff or user.has_perm("tournament.organise_leagues")):
        return None
    gave_up = embedded_gave_up()
    beats = worker_beats(now=now)
    stale = settings.WORKER_STALE_SECONDS
    silence = worker_silence(beats=beats)
    if gave_up is None and silence is not None and silence <= stale:
        return None
    refusing = sum(w.refuses_matches and w.age <= stale for w in beats)
    return {
        "silence": silence, "refusing": refusing, "embedded": bool(settings.EMBEDDED_WORKER),
        "gave_up": gave_up,
    }  # fmt: skip


def embedded_supervisor() -> dict[str, Any] | None:
    """The embedded workers' supervisor's last word (workers.queueing.embedded.supervisor_state), or
    None where the workers are a deployment's own."""
    if not settings.EMBEDDED_WORKER:
        return None
    return supervisor_state()


def embedded_gave_up() -> str | None:
    """Why the supervisor stopped restarting an embedded worker that kept dying, or None: the
    banner says it at once, without waiting for the heartbeats to go stale."""
    state = embedded_supervisor()
    return state["message"] if state is not None and state["state"] == "failed" else None


def matches_by_status() -> dict[str, int]:
    """How many matches are in each status (every status named, 0 included)."""
    counts = dict(Match.objects.values_list("status").annotate(n=Count("id")).order_by())
    return {status: counts.get(status, 0) for status in Match.Status.values}


def oldest_queued_age(*, now: datetime | None = None) -> float | None:
    """Seconds since the oldest queued match was created, or None when none is queued.
    Matches of a paused league wait on purpose and are not counted."""
    oldest = (
        Match.objects.filter(status=Match.Status.QUEUED)
        .exclude(league__status=League.Status.PAUSED)
        .order_by("created_at", "id").values_list("created_at", flat=True).first()
    )  # fmt: skip
    return None if oldest is None else _age(oldest, now or timezone.now())


def broker_queues() -> list[str]:
    """The broker queues that carry the arena's tasks: Celery's default queue, the queues
    named by the tasks themselves, the task routes, the beat schedule and CELERY_TASK_QUEUES,
    and one per mode with MATCH_QUEUE_PER_MODE. Read from the configuration, so a queue added
    there (periodic jobs on their own) is counted without a change here."""
    names = [app.conf.task_default_queue or "celery"]
    names += [q.name for q in (app.conf.task_queues or [])]
    for task in app.tasks.values():  # a task may name its queue (`@app.task(queue=...)`)
        if isinstance(queue := getattr(task, "queue", None), str):
            names.append(queue)
    routes = app.conf.task_routes
    for route in routes.values() if isinstance(routes, dict) else []:
        queue = route.get("queue") if isinstance(route, dict) else route
        if isinstance(queue, str):
            names.append(queue)
    for entry in (app.conf.beat_schedule or {}).values():
        queue = (entry.get("options") or {}).get("queue")
        if isinstance(queue, str):
            names.append(queue)
    names += match_queues()  # every lane of every mode, highest first
    return list(dict.fromkeys(names))


def queue_depth() -> dict[str, Any]:
    """The queue's depth: messages waiting in the broker, per queue, when the broker answers
    (``source`` "broker"); otherwise the queued matches in the database (``source``
    "database"), the truth users care about. Cached for QUEUE_DEPTH_CACHE_SECONDS."""
    key = "health:broker-queue-depth"
    queues = cache.get(key)
    if queues is None:
        queues = broker_queue_depth(broker_queues())
        cache.set(key, queues if queues is not None else {}, QUEUE_DEPTH_CACHE_SECONDS)
    if queues:
        return {"depth": sum(queues.values()), "source": "broker", "queues": queues}
    queued = Match.objects.filter(status=Match.Status.QUEUED).count()
    return {"depth": queued, "source": "database", "queues": None}


def match_durations(*, buckets: tuple[float, ...] = DURATION_BUCKETS) -> dict[str, Any]:
    """Durations of the finished matches (from the start of their last play to their
    recorded result): how many took at most each bucket's seconds (cumulative), how many in
    all and their sum, in one query."""
    took = ExpressionWrapper(F("finished_at") - F("started_at"), output_field=DurationField())
    done = Match.objects.filter(
        status=Match.Status.FINISHED, started_at__isnull=False, finished_at__isnull=False
    ).annotate(took=took)
    row = done.aggregate(
        count=Count("id"),
        total=Sum("took"),
        **{f"le{i}": Count("id", filter=Q(took__lte=timedelta(seconds=b)))
           for i, b in enumerate(buckets)},
    )  # fmt: skip
    total = row["total"] or timedelta(0)
    return {
        "buckets": [(b, row[f"le{i}"]) for i, b in enumerate(buckets)],
        "count": row["count"],
        "sum": max(0.0, total.total_seconds()),
    }


def faults_by_kind() -> dict[str, int]:
    """Seats that faulted, by kind of fault (timeout, crash, illegal, ...), over every
    recorded match."""
    rows = (
        MatchSeat.objects.exclude(fault="").values_list("fault")
        .annotate(n=Count("id")).order_by("fault")
    )  # fmt: skip
    return dict(rows)


def health_status(*, now: datetime | None = None, hosts: bool = False) -> dict[str, Any]:
    """The body of /status. ``hosts``: name each worker and its process id (staff only);
    everyone else sees the workers' roles, states and counts."""
    now = now or timezone.now()
    beats = worker_beats(now=now)
    live = [w for w in beats if w.age <= settings.WORKER_STALE_SECONDS]
    silence = worker_silence(beats=beats)
    playing = [w for w in live if w.plays_matches]
    supervisor = embedded_supervisor()
    return {
        "status": _overall(playing, supervisor),
        "workers": [_worker(w, hosts=hosts) for w in live],
        "workers_live": {
            role: sum(w.role == role and (w.plays_matches or role != MATCH) for w in live)
            for role in ROLES
        },
        "workers_refusing": sum(w.refuses_matches for w in live),
        "last_beat_seconds": _round(silence),
        "worker_stale_seconds": settings.WORKER_STALE_SECONDS,
        "queue": queue_depth(),
        "oldest_queued_seconds": _round(oldest_queued_age(now=now)),
        "matches": matches_by_status(),
        "embedded_workers": _embedded_summary(supervisor, hosts=hosts),
    }


def _overall(playing: list[WorkerBeat], supervisor: dict[str, Any] | None) -> str:
    """"ok" while a match worker plays (or tasks run inline, needing none); "worker_gave_up"
    when the embedded ``supervisor`` stopped restarting a worker that kept dying; "no_worker"
    otherwise: queued matches wait for nothing."""
    if supervisor is not None and supervisor["state"] == "failed":
        return "worker_gave_up"
    return "ok" if playing or settings.CELERY_TASK_ALWAYS_EAGER else "no_worker"


def _worker(w: WorkerBeat, *, hosts: bool) -> dict[str, Any]:
    """One live worker as /status shows it: its host name, process id and queues to staff
    only."""
    shown: dict[str, Any] = {"name": w.name, "pid": w.pid} if hosts else {}
    shown.update({
        "role": w.role or "unknown", "state": w.state,
        "last_beat_seconds": round(w.age, 1), "up_seconds": round(w.up),
    })  # fmt: skip
    if hosts:
        shown["queues"] = list(w.queues)
    return shown


# What others than staff read of a supervisor that gave up: the reasons quote the worker's log,
# which may name hosts and paths.
GAVE_UP = (
    "An embedded worker died too often and is not restarted any more. Matches will not run "
    "until the server is restarted."
)


def _embedded_summary(state: dict[str, Any] | None, *, hosts: bool) -> dict[str, Any] | None:
    """The embedded supervisor's state and sentence (no pids or paths; the last death's reason
    to staff only), None in a deployment."""
    if state is None:
        return None
    message = state["message"] if hosts or state["state"] != "failed" else GAVE_UP
    return {"state": state["state"], "message": message}


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)
