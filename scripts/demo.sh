#!/usr/bin/env bash
# One command from a fresh clone to a running arena at http://127.0.0.1:8000 (embedded mode:
# SQLite and a file-based task queue under var/, matches played by the embedded worker that
# `manage.py demo` and `runserver` start). `--port N` (or PORT=N) serves on another port, and
# the printed links use it. DEMO_NO_SERVE=1 stops before serving.
set -euo pipefail
cd "$(dirname "$0")/.."

port="${PORT:-8000}"
while [ $# -gt 0 ]; do
    case "$1" in
        --port) port="${2:?--port needs a number}"; shift 2 ;;
        --port=*) port="${1#--port=}"; shift ;;
        *) echo "usage: scripts/demo.sh [--port N]" >&2; exit 2 ;;
    esac
done
case "$port" in
    ''|*[!0-9]*) echo "demo: port '$port' is not a number" >&2; exit 2 ;;
esac

source scripts/_venv.sh
ensure_venv requirements.txt

"$py" manage.py migrate --noinput
if "$py" manage.py help demo >/dev/null 2>&1; then
    "$py" manage.py demo --port "$port"
else
    echo "demo: no 'demo' management command yet; skipping demo data"
fi

if [ "${DEMO_NO_SERVE:-0}" = "1" ]; then
    echo "demo: DEMO_NO_SERVE=1, not serving"
    exit 0
fi
echo "demo: serving http://127.0.0.1:$port (Ctrl-C to stop)"
# Without the autoreloader, which stats every source file each second: half of what an idle
# demo costs (docs/performance.md, "An idle demo"). The embedded workers start all the same.
exec "$py" manage.py runserver --noreload "127.0.0.1:$port"
