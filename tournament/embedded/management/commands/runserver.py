"""`runserver` that also runs and supervises the embedded background workers when no broker is
configured (workers/queueing/embedded.py: one that dies is restarted, with the reason on this
console).

The workers are started once, by the process that stays alive: the autoreloader's parent (the
child that serves, marked by DJANGO_AUTORELOAD_ENV, restarts on every code change and must not
start another), or the only process with --noreload. They stop when that process exits and, if
that process is killed, on their own (each watches its parent).
"""

from __future__ import annotations

import atexit
import os
from typing import Any

from django.utils.autoreload import DJANGO_AUTORELOAD_ENV
from whitenoise.runserver_nostatic.management.commands.runserver import (
    Command as RunserverCommand,
)

from workers.queueing.embedded import EmbeddedWorker, embedded_worker_wanted


class Command(RunserverCommand):
    help = RunserverCommand.help + " Starts the embedded background workers without a broker."

    def run(self, **options: Any) -> None:
        if embedded_worker_wanted() and os.environ.get(DJANGO_AUTORELOAD_ENV) != "true":
            worker = EmbeddedWorker()
            worker.start()
            atexit.register(worker.stop)
            pids = ", ".join(f"{role} pid {pid}" for role, pid in worker.pids().items())
            self.stdout.write(f"Embedded workers started ({pids}; logs under {worker.data_dir}).")
        super().run(**options)
