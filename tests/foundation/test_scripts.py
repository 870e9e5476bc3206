"""The entry-point scripts parse, are executable, and the embedded default really serves pages.

Running scripts/demo.sh itself would build a virtualenv (minutes), so it is exercised by hand and
by .ci/run's caller; here a server is started the way demo.sh starts it, on a free port.
"""

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = ["scripts/demo.sh", "scripts/test.sh", "scripts/stack.sh", ".ci/run", ".ci/check"]


def test_sourced_helper_parses() -> None:
    done = subprocess.run(["bash", "-n", str(REPO / "scripts/_venv.sh")], capture_output=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_is_executable_bash(script: str) -> None:
    path = REPO / script
    assert os.access(path, os.X_OK), f"{script} is not executable (git update-index --chmod=+x)"
    assert path.read_text().startswith("#!/usr/bin/env bash\n")
    done = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_stack_cli_help() -> None:
    done = subprocess.run(
        [sys.executable, "scripts/stack.py", "--help"], cwd=REPO, capture_output=True, text=True
    )
    assert done.returncode == 0 and "start" in done.stdout


def embedded_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    env.update(DATA_DIR=str(tmp_path / "data"), DEBUG="1", PYTHONUNBUFFERED="1")
    return env


def fetch(url: str, timeout: float = 60.0) -> tuple[int, str]:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.status, response.read().decode()
        except (urllib.error.URLError, OSError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@pytest.mark.slow
def test_runserver_serves_admin_login_with_embedded_defaults(
    tmp_path: Path, free_port: int
) -> None:
    env = embedded_env(tmp_path)
    manage = [sys.executable, "manage.py"]
    migrated = subprocess.run(
        [*manage, "migrate", "--noinput"], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert migrated.returncode == 0, migrated.stderr
    assert (tmp_path / "data" / "arena.sqlite3").is_file()
    server = subprocess.Popen(
        [*manage, "runserver", "--noreload", f"127.0.0.1:{free_port}"],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        status, body = fetch(f"http://127.0.0.1:{free_port}/admin/login/")
        assert status == 200 and "csrfmiddlewaretoken" in body
        status, body = fetch(f"http://127.0.0.1:{free_port}/healthz")
        assert status == 200 and '"ok"' in body
    finally:
        server.terminate()
        server.wait(timeout=20)
