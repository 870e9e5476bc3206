"""Drive a ladder league on a real embedded arena: `runserver` on a fresh DATA_DIR (SQLite and
the SQLite broker), its embedded workers (matches; beat with the periodic jobs), and four bots
(the two built-ins and two uploaded starter bots, validated by those workers).

Used by tests/foundation/test_embedded_worker.py (behaviour) and bench/embedded.py (figures).
Talks to the arena only through `manage.py` and HTTP, as a user would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent

SETUP = """
import json
from rest_framework.authtoken.models import Token
from django.contrib.auth import get_user_model
from django.conf import settings
from tournament.services.accounts import organiser_grant
from tournament.services.bots import bot_create, bot_version_upload, builtin_bots_register

user = get_user_model().objects.create_user("organiser", password="organiser-pass-1")
organiser_grant(user=user)
# The quick built-ins only: the search bots spend up to a second of CPU a decision, and what is
# tried here is the stack (workers, reaper, restarts), not the bots.
versions = [v.pk for name, v in builtin_bots_register().items() if name in ("random", "greedy")]
for name in ("random_bot.py", "heuristic_bot.py"):
    data = (settings.BASE_DIR / "examples" / "bots" / name).read_bytes()
    bot = bot_create(owner=user, name="starter-" + name[:-3].replace("_", "-"), description="")
    versions.append(bot_version_upload(bot=bot, user=user, filename=name, data=data).pk)
print(json.dumps({"token": Token.objects.create(user=user).key, "versions": versions}))
"""


def embedded_env(data_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of a fresh embedded arena: no broker, no PostgreSQL, nothing eager."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "DATABASE_URL"))}
    env.update({"DATA_DIR": str(data_dir), "DJANGO_SETTINGS_MODULE": "tournament.settings"})
    env.pop("DJANGO_ENV", None)
    # No boss league promotion runs behind the seeded uploads: what runs here is what the
    # caller drives (bench/bosses.py turns them on)
    env["BOSS_LEAGUES"] = "0"
    env.update(extra)
    return env


class EmbeddedArena:
    """`with EmbeddedArena(tmp, port) as arena:` a migrated, seeded arena served on `port`."""

    def __init__(self, data_dir: Path, port: int, **env: str) -> None:
        self.data_dir = data_dir
        self.base_url = f"http://127.0.0.1:{port}"
        self.port = port
        self.env = embedded_env(data_dir, **env)
        self.server: subprocess.Popen[str] | None = None
        self.token = ""
        self.versions: list[int] = []

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=REPO, env=self.env,
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"manage.py {args[0]} failed:\n{done.stderr[-3000:]}")
        return done.stdout

    def __enter__(self) -> EmbeddedArena:
        self.manage("migrate", "--noinput")
        seeded = json.loads(self.manage("shell", "-c", SETUP).strip().splitlines()[-1])
        self.token, self.versions = seeded["token"], seeded["versions"]
        self.server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{self.port}"],
            cwd=REPO, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        self.wait_for(lambda: self.request("GET", "/healthz")[0] == 200, 60, "the server")
        return self

    def __exit__(self, *exc: object) -> None:
        if self.server is not None and self.server.poll() is None:
            self.server.terminate()
            self.server.wait(timeout=30)

    def worker_log(self) -> str:
        path = self.data_dir / "embedded-worker.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base_url + path, data=data, method=method)
        req.add_header("Authorization", f"Token {self.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=60) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")
        except (urllib.error.URLError, ConnectionError):
            return 0, None

    def wait_for(self, check: Any, timeout: float, what: str, poll: float = 0.25) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = check()
            if value:
                return value
            time.sleep(poll)
        raise TimeoutError(f"{what}: not within {timeout:.0f}s\n{self.worker_log()}")

    def version_status(self, version_id: int) -> str:
        return self.request("GET", f"/api/v1/bot-versions/{version_id}/")[1]["status"]

    def ladder_league(self, *, mode: str = "duel", seats: int = 2) -> int:
        """A ladder league of the four bots (waits for the starter bots' validation)."""
        for version in self.versions:
            self.wait_for(
                lambda v=version: self.version_status(v) not in ("pending", "validating"),
                240, f"validation of bot version {version}",
            )  # fmt: skip
            assert self.version_status(version) == "ready", self.version_status(version)
        status, league = self.request("POST", "/api/v1/leagues/", {
            "name": "Embedded ladder", "mode": mode, "seats": seats, "format": "ladder",
        })  # fmt: skip
        assert status == 201, league
        for version in self.versions:
            status, body = self.request(
                "POST", f"/api/v1/leagues/{league['id']}/entries/", {"bot_version": version}
            )
            assert status == 201, body
        return league["id"]

    def matches(self, league_id: int) -> list[dict[str, Any]]:
        """Every match of the league (all pages), oldest first."""
        out: list[dict[str, Any]] = []
        page = 1
        while True:
            status, body = self.request("GET", f"/api/v1/matches/?league={league_id}&page={page}")
            assert status == 200, body
            out.extend(body["results"])
            if not body.get("next"):
                return sorted(out, key=lambda m: m["id"])
            page += 1
