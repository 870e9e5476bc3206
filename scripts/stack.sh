#!/usr/bin/env bash
# Start/stop/inspect web + Celery workers + beat without Docker (see scripts/stack.py).
#   scripts/stack.sh start [--workers N] [--port 8001]   |   scripts/stack.sh stop | status
# Needs DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis) in the environment.
set -euo pipefail
cd "$(dirname "$0")/.."
python=python3
if [ -x .venv/bin/python ]; then python=.venv/bin/python; fi
exec "$python" scripts/stack.py "$@"
