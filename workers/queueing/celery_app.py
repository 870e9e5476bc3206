"""The Celery application (`celery -A workers.queueing.celery_app worker|beat`).

Configuration comes from Django settings under the CELERY_ prefix, so one place
(tournament/settings.py) decides between the embedded SQLite broker (workers/queueing/broker.py;
workers/queueing/embedded.py runs its workers) and a real one.
"""

import logging
import os

from celery import Celery
from celery.signals import worker_process_init, worker_ready
from django.conf import settings

from ..sandbox.bot_process import sweep_leftovers
from ..sandbox.forkserver import prestart
from ..sandbox.isolation import detect_isolation
from .worker_queues import worker_queues

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

app = Celery("isle_arena")
app.config_from_object("django.conf:settings", namespace="CELERY")
# tasks.py of every installed app (tournament/tasks.py), imported when a worker starts.
app.autodiscover_tasks()


@worker_process_init.connect
def _sweep_dead_predecessors(**_: object) -> None:
    """A pool process that starts cleans up what a killed predecessor left: its bots' uids
    (their processes) and folders. Bots die with their worker (workers.sandbox.isolation); this
    catches what a machine without those layers, or a crash mid-start, leaves behind."""
    sweep_leftovers()
    prestart()  # the Python bots' fork server, ready before the first match


@worker_ready.connect
def _say_isolation(**_: object) -> None:
    """One line in the worker's log on its bots' isolation, once at start: an error when a
    layer the deployment requires is missing (the worker then consumes no queue of bot work:
    workers/queueing/worker_queues.py), a warning when the embedded default runs bots with
    fewer layers."""
    log = logging.getLogger("workers.sandbox.isolation")
    iso = detect_isolation()
    missing = iso.missing(settings.SANDBOX_REQUIRED_ISOLATION)
    why = "; ".join(iso.notes)
    split = worker_queues()
    if missing and (split is None or split.refused):
        log.error("%s; SANDBOX_REQUIRED_ISOLATION requires it, so this worker takes no match "
                  "and no build: it leaves their queues to other workers (%s)",
                  iso.summary(), why)  # fmt: skip
    elif missing:
        log.info("%s; this worker consumes no queue of bot work, so it needs no layer (%s)",
                 iso.summary(), why)  # fmt: skip
    elif iso.summary():
        log.warning("%s; no layer is required here (SANDBOX_REQUIRED_ISOLATION), so matches "
                    "run and their records say so (%s)", iso.summary(), why)  # fmt: skip
    else:
        log.info("bot isolation: every layer (uid, network, filesystem, pid)")
