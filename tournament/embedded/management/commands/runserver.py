"""`runserver` that also runs the embedded background worker when no broker is configured.

The worker is started once, by the process that stays alive: the autoreloader's parent (the
child that serves, marked by DJANGO_AUTORELOAD_ENV, restarts on every code change and must not
start another), or the only process with --noreload. It stops when that process exits and, if
that process is killed, on its own (workers/embedded.py watches its parent).
"""

from __future__ import annotations

import atexit
import os
from typing import Any

from django.utils.autoreload import DJANGO_AUTORELOAD_ENV
from whitenoise.runserver_nostatic.management.commands.runserver import (
    Command as RunserverCommand,
)

from workers.embedded import EmbeddedWorker, embedded_worker_wanted


class Command(RunserverCommand):
    help = RunserverCommand.help + " Starts the embedded background worker without a broker."

    def run(self, **options: Any) -> None:
        if embedded_worker_wanted() and os.environ.get(DJANGO_AUTORELOAD_ENV) != "true":
            worker = EmbeddedWorker()
            worker.start()
            atexit.register(worker.stop)
            self.stdout.write(
                f"Embedded worker started (pid {worker.pid}, log {worker.log_path})."
            )
        super().run(**options)
