#!/usr/bin/env bash
# Lint and test in .venv: `scripts/test.sh [pytest args...]`. Exits non-zero if ruff or pytest
# fails; pytest's own exit code is kept (5 = no tests collected).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_venv.sh
ensure_venv requirements-dev.txt

lint=0
"$py" -m ruff check . || lint=$?
status=0
"$py" -m pytest "$@" || status=$?
if [ "$status" -ne 0 ]; then
    exit "$status"
fi
if [ "$lint" -ne 0 ]; then
    echo "test: ruff check failed" >&2
    exit "$lint"
fi
