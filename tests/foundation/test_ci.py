"""CI cannot pass with a piece missing: under CI=true `.ci/check` (and so `.ci/run`)
fails with one line per missing service, browser, npm or isolation layer, and a test that
would skip for want of one fails instead (tests/conftest.py). The shared Redis is never
stopped here: the checks are pointed at a closed port (CI_REDIS_PORT)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("CI", "TEST_REDIS_URL", "DATABASE_URL", "PYTEST_ADDOPTS")}  # fmt: skip
    return {**env, **extra}


def _run(argv: list[str], env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)  # fmt: skip


def test_check_fails_under_ci_when_redis_is_not_there(free_port: int) -> None:
    done = _run(["bash", ".ci/check"], _env(CI="true", CI_REDIS_PORT=str(free_port)))
    assert done.returncode == 1, done.stderr
    why = f"Redis is not reachable at 127.0.0.1:{free_port} (integration tests need it)"
    assert f"ci: FAILED: {why}" in done.stderr.splitlines()
    assert "TEST_REDIS_URL" not in done.stdout


def test_check_only_warns_outside_ci(free_port: int) -> None:
    done = _run(["bash", ".ci/check"], _env(CI_REDIS_PORT=str(free_port)))
    assert done.returncode == 0, done.stderr
    assert f"WARNING: Redis is not reachable at 127.0.0.1:{free_port}" in done.stderr
    assert "FAILED" not in done.stderr


def test_ci_run_stops_before_the_tests_when_redis_is_not_there(free_port: int) -> None:
    """`.ci/run` itself, under CI=true with Redis at a closed port: it fails and says why.
    (Were the check to pass, the collect-only run below would exit 0 and fail this test.)"""
    env = _env(CI="true", CI_REDIS_PORT=str(free_port),
               PYTEST_ADDOPTS="--collect-only -q tests/foundation/test_ci.py")  # fmt: skip
    done = _run(["bash", ".ci/run"], env)
    assert done.returncode != 0, done.stdout + done.stderr
    assert f"ci: FAILED: Redis is not reachable at 127.0.0.1:{free_port}" in done.stderr
    assert "ci: passed" not in done.stdout


def test_check_fails_under_ci_without_every_isolation_layer() -> None:
    """As an unprivileged user (nobody) the sandbox has no uid, filesystem, pid or memory
    layer (no cgroup of its own to limit a bot's memory)."""
    argv = ["bash", ".ci/check"]
    if os.geteuid() == 0:
        argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *argv]
    done = _run(argv, _env(CI="true", HOME="/tmp"))
    assert done.returncode == 1, done.stderr
    failed = [line for line in done.stderr.splitlines() if line.startswith("ci: FAILED: bot")]
    assert len(failed) == 1 and "bot isolation incomplete: no uid" in failed[0], done.stderr
    assert "no pid, no memory isolation" in failed[0], done.stderr


def test_a_skipped_integration_test_fails_under_ci() -> None:
    """The Redis log test skips without TEST_REDIS_URL; under CI=true that skip is a failure."""
    target = ["-m", "pytest", "-q", "-p", "no:cacheprovider",
              "tests/replays/test_live_and_stored_frames.py", "-k", "redis_log"]  # fmt: skip
    python = str(REPO / ".venv" / "bin" / "python")
    strict = _run([python, *target], _env(CI="true"))
    assert strict.returncode == 1, strict.stdout
    assert "CI=true: an integration test may not skip" in strict.stdout
    relaxed = _run([python, *target], _env())
    assert relaxed.returncode == 0 and "1 skipped" in relaxed.stdout, relaxed.stdout
