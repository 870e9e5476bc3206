"""The Celery application (`celery -A workers.celery_app worker|beat`).

Configuration comes from Django settings under the CELERY_ prefix, so one place
(tournament/settings.py) decides between the embedded SQLite broker (workers/broker.py;
workers/embedded.py runs its workers) and a real one.
"""

import logging
import os

from celery import Celery
from celery.signals import worker_process_init, worker_ready, worker_shutdown

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


@worker_ready.connect
def _start_heartbeat(sender: object = None, **_: object) -> None:
    """The worker is consuming: from now on its heartbeat says so (workers/heartbeat.py),
    for /status, /metrics and the site's banner. Runs in the main process only."""
    from .heartbeat import heartbeat_start

    # the sender is the worker's consumer, named as `celery inspect` names the node
    heartbeat_start(getattr(sender, "hostname", None) or f"celery@{os.uname().nodename}")


@worker_shutdown.connect
def _stop_heartbeat(**_: object) -> None:
    from .heartbeat import heartbeat_stop

    heartbeat_stop()


@worker_ready.connect
def _say_isolation(**_: object) -> None:
    """One line in the worker's log on its bots' isolation, once at start: an error when a
    layer the deployment requires is missing (every match it takes then fails closed), a
    warning when the embedded default runs bots with fewer layers."""
    from django.conf import settings

    from .isolation import detect_isolation

    log = logging.getLogger("workers.isolation")
    iso = detect_isolation()
    missing = iso.missing(settings.SANDBOX_REQUIRED_ISOLATION)
    why = "; ".join(iso.notes)
    if missing:
        log.error("%s; SANDBOX_REQUIRED_ISOLATION requires it, so this worker refuses every "
                  "match (%s)", iso.summary(), why)  # fmt: skip
    elif iso.summary():
        log.warning("%s; no layer is required here (SANDBOX_REQUIRED_ISOLATION), so matches "
                    "run and their records say so (%s)", iso.summary(), why)  # fmt: skip
    else:
        log.info("bot isolation: every layer (uid, network, filesystem, pid)")
