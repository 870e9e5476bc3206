#!/usr/bin/env bash
# One command from a fresh clone to a running arena at http://127.0.0.1:8000 (embedded mode:
# SQLite and an SQLite task queue under var/, matches played by the embedded workers that
# `manage.py demo` starts): it serves as soon as the bots are registered and plays the demo's
# leagues beside it. `--port N` (or PORT=N) serves on another port, and the printed links use
# it. DEMO_NO_SERVE=1 plays the leagues, prints the summary and exits without serving.
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
if [ "${DEMO_NO_SERVE:-0}" = "1" ]; then
    exec "$py" manage.py demo --port "$port" --no-serve
fi
# The demo serves the site at once (without runserver's autoreloader, which stats every source
# file each second) and plays its leagues beside it with the embedded workers, until Ctrl-C.
exec "$py" manage.py demo --port "$port"
