"""The authors' submit CLI (`python -m arena`, a separate process as an author runs it) against
the real stack: gunicorn + a Celery worker on PostgreSQL and Redis (`live_stack`). It logs in,
creates a bot, submits a bundle that a worker validates, requests a challenge that a worker
plays, and downloads and verifies its replay."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]


def test_submit_challenge_and_replay_through_the_stack(live_stack, tmp_path: Path) -> None:  # noqa: ANN001
    base = live_stack.base_url.rstrip("/")
    account = json.dumps(
        {"username": "cli-author", "password": "kitten-boat-42", "email": "c@example.com"}
    ).encode()
    request = urllib.request.Request(
        f"{base}/api/v1/accounts/", data=account, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as made:
        assert made.status == 201
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    env.pop("ISLE_ARENA_TOKEN", None)

    def arena(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "arena", *argv], cwd=REPO, env=env, input=stdin,
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip

    done = arena("login", "--server", base, "--username", "cli-author", "--password-stdin",
                 stdin="kitten-boat-42\n")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert arena("create", "cli-cat").returncode == 0

    bundle = tmp_path / "cat.zip"
    with zipfile.ZipFile(bundle, "w") as archive:
        archive.writestr("bot.json", '{"entrypoint": "main.py", "language": "python3"}')
        archive.write(REPO / "examples" / "bots" / "random_bot.py", "main.py")
    done = arena("submit", str(bundle), "--bot", "cli-cat", "--timeout", "300")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ready: cli-cat v1" in done.stdout

    done = arena("challenge", "--mode", "duel", "cli-cat", "random", "--wait", "--timeout", "300")
    assert done.returncode == 0, done.stdout + done.stderr
    match_id = int(done.stdout.split("challenge match ")[1].split()[0])
    assert f"match {match_id} (duel, challenge): finished" in done.stdout

    target = tmp_path / "challenge.replay"
    done = arena("replay", str(match_id), "-o", str(target))
    assert done.returncode == 0, done.stderr
    assert "sha256 as recorded" in done.stdout and "verified: ok" in done.stdout
    assert arena("verify", str(target)).returncode == 0

    listed = arena("matches", "--mine", "--json")
    assert [m["id"] for m in json.loads(listed.stdout)] == [match_id]
