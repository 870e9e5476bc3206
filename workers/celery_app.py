"""The Celery application (`celery -A workers.celery_app worker|beat`).

Configuration comes from Django settings under the CELERY_ prefix, so one place
(tournament/settings.py) decides between the embedded SQLite broker (workers/broker.py;
workers/embedded.py runs its workers) and a real one.
"""

import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

app = Celery("isle_arena")
app.config_from_object("django.conf:settings", namespace="CELERY")
# tasks.py of every installed app, plus workers/tasks.py (workers is not a Django app).
app.autodiscover_tasks()
app.autodiscover_tasks(["workers"])


@worker_process_init.connect
def _sweep_dead_predecessors(**_: object) -> None:
    """A pool process that starts cleans up what a killed predecessor left: its bots' uids
    (their processes) and folders. Bots die with their worker (workers.isolation); this
    catches what a machine without those layers, or a crash mid-start, leaves behind."""
    from .forkserver import prestart
    from .sandbox import sweep_leftovers

    sweep_leftovers()
    prestart()  # the Python bots' fork server, ready before the first match
