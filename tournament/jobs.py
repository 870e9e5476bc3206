"""The background jobs that the services send, each named once, and how to send one.

A task (``tournament/tasks.py``) calls a service; a service that starts a job sends the task
by its name here instead of importing the task, so no service imports the tasks that import
the services. ``job(name)`` is the registered task itself, so ``apply_async``/``delay`` keep
Celery's own behaviour (inline under ``CELERY_TASK_ALWAYS_EAGER``, queues, time limits). The
tasks are registered when the app is ready (``TournamentConfig.ready``) and when a worker
starts (Celery's autodiscovery).
"""

from __future__ import annotations

from celery import Task

from workers.queueing.celery_app import app

MATCH_PLAY = "arena.match_play"
MATCH_RECORD = "arena.match_record"
MATCH_ANALYSE = "arena.match_analyse"
SEAT_REVIEW = "arena.seat_review"
MATCHES_REAP_STALE = "arena.matches_reap_stale"
BOT_BUILD = "arena.bot_build"
BOT_BUILDS_RESEND_LOST = "arena.bot_builds_resend_lost"
LADDERS_SCHEDULE = "arena.ladders_schedule"


def job(name: str) -> Task:
    """The registered task called ``name`` (one of the names above)."""
    return app.tasks[name]
