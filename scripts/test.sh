#!/usr/bin/env bash
# Lint and test in .venv: `scripts/test.sh [--fast] [pytest args...]`. Exits non-zero if ruff
# or pytest fails; pytest's own exit code is kept (5 = no tests collected).
#
# The whole suite, spread over pytest-xdist processes, one per core and one more (the tests
# spend much of their time waiting for live servers, browsers, workers and bots, so a third
# process on two cores keeps them busy; TEST_WORKERS=N to choose, TEST_WORKERS=1 for one
# process), each with its own databases, data folder, Redis database and ports
# (tests/worker_env.py, tests/ports.py). Tests are handed out a module at a time
# (--dist loadscope), so a module's shared live server, demo or browser starts once.
# `--fast` is the tier a developer runs between edits: the engine and the pure competition
# logic, no servers or browsers (about 1.5 minutes on two cores).
# Local PostgreSQL and Redis are found as .ci/run finds them (.ci/check), so the tests that
# need them run here too; where they are missing, pytest's summary says which were skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_venv.sh
ensure_venv requirements-dev.txt

args=("$@")
workers=${TEST_WORKERS:-$(( $(nproc 2>/dev/null || echo 1) + 1 ))}
if [ "${1:-}" = "--fast" ]; then
    args=(tests/engine tests/competition -m "not slow and not browser and not integration"
          "${@:2}")
fi
if [ "$workers" -gt 1 ]; then
    args=(-n "$workers" --dist loadscope "${args[@]}")
fi
if [ -z "${DATABASE_URL:-}" ] && [ -z "${TEST_REDIS_URL:-}" ]; then
    while IFS='=' read -r key value; do
        case "$key" in DATABASE_URL|TEST_REDIS_URL) export "$key=$value" ;; esac
    done < <(CI= bash .ci/check 2>/dev/null || true)
fi

lint=0
"$py" -m ruff check . || lint=$?
status=0
started=$(date +%s)
"$py" -m pytest --durations=25 "${args[@]}" || status=$?
echo "test: pytest took $(( $(date +%s) - started )) s of wall time"
if [ "$status" -ne 0 ]; then
    exit "$status"
fi
if [ "$lint" -ne 0 ]; then
    echo "test: ruff check failed" >&2
    exit "$lint"
fi
