#!/usr/bin/env bash
# Lint and test in .venv: `scripts/test.sh [pytest args...]`. Exits non-zero if ruff or pytest
# fails; pytest's own exit code is kept (5 = no tests collected).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .venv/bin/python ]; then
    python=$(command -v python3.11 || command -v python3) || {
        echo "test: Python 3.11+ is required (python3.11 or python3 on PATH)" >&2
        exit 1
    }
    "$python" -m venv .venv
fi
py=.venv/bin/python
"$py" -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt

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
