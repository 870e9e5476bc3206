#!/usr/bin/env bash
# Start/stop/inspect web + Celery workers + beat without Docker (see scripts/stack.py).
#   scripts/stack.sh start [--workers N] [--port 8001] [--hosts [--s3]]   |   stop | status
# Needs DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis) in the environment; --hosts runs
# every process as a separate host (own network namespace and DATA_DIR, docs/scaling.md) and
# needs STORAGE_URL, or --s3 to start a moto S3 server with the stack.
set -euo pipefail
cd "$(dirname "$0")/.."
python=python3
if [ -x .venv/bin/python ]; then python=.venv/bin/python; fi
exec "$python" scripts/stack.py "$@"
