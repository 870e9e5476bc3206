#!/usr/bin/env bash
# One command from a fresh clone to a running arena at http://127.0.0.1:8000 (embedded mode:
# SQLite under var/, Celery tasks run in-process). DEMO_NO_SERVE=1 stops before serving.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_venv.sh
ensure_venv requirements.txt

"$py" manage.py migrate --noinput
if "$py" manage.py help demo >/dev/null 2>&1; then
    "$py" manage.py demo
else
    echo "demo: no 'demo' management command yet; skipping demo data"
fi

if [ "${DEMO_NO_SERVE:-0}" = "1" ]; then
    echo "demo: DEMO_NO_SERVE=1, not serving"
    exit 0
fi
echo "demo: serving http://127.0.0.1:8000 (Ctrl-C to stop)"
exec "$py" manage.py runserver 127.0.0.1:8000
