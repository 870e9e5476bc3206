"""Celery tasks: thin wrappers that call tournament services (no logic here).

The services never import this module: they send a task by its name (``tournament/jobs.py``),
so the arrows point one way, from the tasks down to the services. The worker imports this
module at start (Celery's autodiscovery of installed apps' ``tasks``) and the web process when
the app is ready (``TournamentConfig.ready``).

`match_play_task` is acks_late with reject_on_worker_lost, so a match whose pool process dies
is delivered again; one whose whole worker dies is re-queued by the reaper when its heartbeat
goes stale. The services make a second delivery harmless (a finished match is skipped).
"""

from __future__ import annotations

import os

from celery.signals import worker_ready, worker_shutdown
from django.conf import settings

from workers.queueing.celery_app import app
from workers.queueing.worker_queues import consumer_queues, worker_queues

from . import jobs
from .services.analysis import match_analysis_run, seat_review_run
from .services.bots import bot_builds_resend_lost, bot_version_build
from .services.leagues import ladders_schedule
from .services.matches import match_play, match_record_deferred, matches_reap_stale
from .services.replay_upload import ReplayUploadFailed
from .worker_heartbeat import heartbeat_start, heartbeat_stop

# Every task states both of its time limits. A task given only a hard one would inherit the
# global soft limit (CELERY_TASK_SOFT_TIME_LIMIT, 1700 s by default), and Celery refuses to
# send a task whose soft limit is above its hard one: beat could not send the job at all.
JOB_LIMITS = {"time_limit": 120, "soft_time_limit": 110}  # the periodic jobs
RECORD_LIMITS = {"time_limit": 300, "soft_time_limit": 280}  # a replay upload and a record


@app.task(
    name=jobs.MATCH_PLAY,
    acks_late=True,
    reject_on_worker_lost=True,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
)
def match_play_task(match_id: int) -> str:
    match = match_play(match_id=match_id)
    return match.status if match is not None else "skipped"


@app.task(
    name=jobs.BOT_BUILD,
    acks_late=True,
    reject_on_worker_lost=True,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
)
def bot_build_task(version_id: int) -> str:
    return bot_version_build(version_id=version_id).status


@app.task(name=jobs.BOT_BUILDS_RESEND_LOST, acks_late=True, **JOB_LIMITS)
def bot_builds_resend_lost_task() -> list[int]:

    return bot_builds_resend_lost()


@app.task(
    name=jobs.MATCH_RECORD,
    bind=True,
    acks_late=True,
    max_retries=settings.REPLAY_RECORD_RETRIES,
    **RECORD_LIMITS,
)
def match_record_task(self, match_id: int, played: dict) -> str:
    """A played match whose replay could not be stored at once: store it, then record.
    The payload travels in the broker, so any worker can finish the job."""
    try:
        match = match_record_deferred(
            match_id=match_id, payload=played, last=self.request.retries >= self.max_retries
        )
    except ReplayUploadFailed as exc:
        raise self.retry(exc=exc, countdown=settings.REPLAY_RECORD_RETRY_SECONDS) from exc
    return match.status if match is not None else "skipped"


@app.task(name=jobs.LADDERS_SCHEDULE, acks_late=True, **JOB_LIMITS)
def ladders_schedule_task() -> int:

    return ladders_schedule()


@app.task(name=jobs.MATCHES_REAP_STALE, acks_late=True, **JOB_LIMITS)
def matches_reap_stale_task() -> list[int]:

    return matches_reap_stale()


@app.task(name=jobs.MATCH_ANALYSE, acks_late=True, reject_on_worker_lost=True,
             time_limit=settings.CELERY_TASK_TIME_LIMIT,
             soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT)
def match_analyse_task(analysis_id: int) -> str:
    """Who was winning a finished match (tournament/services/analysis.py)."""

    analysis = match_analysis_run(analysis_id=analysis_id)
    return analysis.status if analysis is not None else "skipped"


@app.task(name=jobs.SEAT_REVIEW, acks_late=True, reject_on_worker_lost=True,
          time_limit=settings.CELERY_TASK_TIME_LIMIT,
          soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT)
def seat_review_task(review_id: int) -> str:
    """Where one seat of a finished match lost (tournament/services/analysis.py)."""
    review = seat_review_run(review_id=review_id)
    return review.status if review is not None else "skipped"


@worker_ready.connect
def _start_heartbeat(sender: object = None, **_: object) -> None:
    """The worker is consuming: from now on its heartbeat says so, and what it consumes
    (tournament/worker_heartbeat.py), for /status, /metrics and the site's banner. Runs in
    the main process only."""
    # the sender is the worker's consumer, named as `celery inspect` names the node
    name = getattr(sender, "hostname", None) or f"celery@{os.uname().nodename}"
    heartbeat_start(name, worker_queues() or consumer_queues(sender))


@worker_shutdown.connect
def _stop_heartbeat(**_: object) -> None:
    heartbeat_stop()
