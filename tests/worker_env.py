"""Each pytest-xdist worker's own data folder and Redis database, set before Django's settings.

Loaded by ``-p tests.worker_env`` (pyproject.toml's addopts), so it runs while pytest reads
its options, before pytest-django imports the settings (which read ``DATA_DIR`` then). Under
pytest-xdist each worker is its own process with its own test databases (pytest-django adds
the worker's name to them); what the settings keep on disk (``DATA_DIR``: the live matches'
files, bundle and build caches, the embedded broker) and the integration tests' Redis database
would be shared instead, and a match of one worker's database would show in another's live
log. Here worker ``gwN`` gets ``DATA_DIR/tests-gwN`` and Redis database 15 - N. A run without
xdist is left as it is.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parent.parent


def _apply(worker: str) -> None:
    index = int(worker.removeprefix("gw") or 0)
    base = Path(os.environ.get("DATA_DIR") or REPO / "var")
    os.environ["DATA_DIR"] = str(base / f"tests-{worker}")
    redis = os.environ.get("TEST_REDIS_URL")
    if redis:
        parts = urlsplit(redis)
        database = int(parts.path.strip("/") or 0)
        os.environ["TEST_REDIS_URL"] = urlunsplit(parts._replace(path=f"/{database - index}"))


if os.environ.get("PYTEST_XDIST_WORKER"):
    _apply(os.environ["PYTEST_XDIST_WORKER"])
