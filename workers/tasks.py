"""Celery tasks: thin wrappers that call tournament services (no logic here).

`match_play_task` is acks_late with reject_on_worker_lost, so a match whose pool process dies
is delivered again; one whose whole worker dies is re-queued by the reaper when its heartbeat
goes stale. The services make a second delivery harmless (a finished match is skipped).
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

# Every task states both of its time limits. A task given only a hard one would inherit the
# global soft limit (CELERY_TASK_SOFT_TIME_LIMIT, 1700 s by default), and Celery refuses to
# send a task whose soft limit is above its hard one: beat could not send the job at all.
JOB_LIMITS = {"time_limit": 120, "soft_time_limit": 110}  # the periodic jobs
RECORD_LIMITS = {"time_limit": 300, "soft_time_limit": 280}  # a replay upload and a record


@shared_task(
    name="arena.match_play",
    acks_late=True,
    reject_on_worker_lost=True,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
)
def match_play_task(match_id: int) -> str:
    from tournament.services.matches import match_play

    match = match_play(match_id=match_id)
    return match.status if match is not None else "skipped"


@shared_task(
    name="arena.bot_build",
    acks_late=True,
    reject_on_worker_lost=True,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
)
def bot_build_task(version_id: int) -> str:
    from tournament.services.bots import bot_version_build

    return bot_version_build(version_id=version_id).status


@shared_task(name="arena.bot_builds_resend_lost", acks_late=True, **JOB_LIMITS)
def bot_builds_resend_lost_task() -> list[int]:
    from tournament.services.bots import bot_builds_resend_lost

    return bot_builds_resend_lost()


@shared_task(
    name="arena.match_record",
    bind=True,
    acks_late=True,
    max_retries=settings.REPLAY_RECORD_RETRIES,
    **RECORD_LIMITS,
)
def match_record_task(self, match_id: int, played: dict) -> str:
    """A played match whose replay could not be stored at once: store it, then record.
    The payload travels in the broker, so any worker can finish the job."""
    from tournament.services.matches import match_record_deferred
    from tournament.services.replay_upload import ReplayUploadFailed

    try:
        match = match_record_deferred(
            match_id=match_id, payload=played, last=self.request.retries >= self.max_retries
        )
    except ReplayUploadFailed as exc:
        raise self.retry(exc=exc, countdown=settings.REPLAY_RECORD_RETRY_SECONDS) from exc
    return match.status if match is not None else "skipped"


@shared_task(name="arena.ladders_schedule", acks_late=True, **JOB_LIMITS)
def ladders_schedule_task() -> int:
    from tournament.services.leagues import ladders_schedule

    return ladders_schedule()


@shared_task(name="arena.matches_reap_stale", acks_late=True, **JOB_LIMITS)
def matches_reap_stale_task() -> list[int]:
    from tournament.services.matches import matches_reap_stale

    return matches_reap_stale()


@shared_task(name="arena.match_analyse", acks_late=True, reject_on_worker_lost=True,
             time_limit=settings.CELERY_TASK_TIME_LIMIT,
             soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT)
def match_analyse_task(analysis_id: int) -> str:
    """Who was winning a finished match (tournament/services/analysis.py)."""
    from tournament.services.analysis import match_analysis_run

    analysis = match_analysis_run(analysis_id=analysis_id)
    return analysis.status if analysis is not None else "skipped"
