"""The Celery tasks can be sent. Celery refuses to send a task whose soft time limit is above
its hard one, and a task that states only a hard limit inherits the global soft limit
(CELERY_TASK_SOFT_TIME_LIMIT, 1700 s by default): beat then logged "Couldn't apply scheduled
task" at every tick, and no reaper, ladder top-up or lost-build resend ever ran."""

from __future__ import annotations

import inspect

import pytest
from celery.beat import ScheduleEntry, Scheduler
from django.conf import settings

from tournament import tasks  # noqa: F401 - registers the tasks
from workers.queueing.celery_app import app


@pytest.mark.django_db
def test_beat_sends_every_periodic_job():
    """As beat does (eager here, so each job also runs, on an empty database)."""
    scheduler = Scheduler(app, lazy=True)
    results = {}
    for name, spec in settings.CELERY_BEAT_SCHEDULE.items():
        entry = ScheduleEntry(name=name, task=spec["task"], schedule=spec["schedule"], app=app)
        results[spec["task"]] = scheduler.apply_async(entry, advance=False).get()
    assert results == {
        "arena.ladders_schedule": 0,
        "arena.matches_reap_stale": [],
        "arena.bot_builds_resend_lost": [],
    }


def test_every_task_of_ours_can_be_sent(monkeypatch):
    """Sending checks the limits before anything is queued; what would run is not run."""
    sent = []
    ours = sorted(name for name in app.tasks if name.startswith("arena."))
    assert len(ours) >= 6
    for name in ours:
        task = app.tasks[name]
        monkeypatch.setattr(task, "apply", lambda *a, _name=name, **kw: sent.append(_name))
        task.apply_async((1,) * len(inspect.signature(task.run).parameters))
    assert sent == ours
