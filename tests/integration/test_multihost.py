"""The service across hosts that share nothing but PostgreSQL, Redis and an object store.

Web, two Celery workers and beat run as four hosts (scripts/stack.py `hosts=True`): each in a
network namespace of its own that holds only a loopback interface, into which a gateway
forwards exactly PostgreSQL, Redis and the S3 server (moto in server mode, its own process),
and each with a private DATA_DIR. Where namespaces cannot be made (not root) they still run as
separate processes with private folders. The starter bots are uploaded over HTTP, a Duel
league of 12 matches runs to the end (both workers play), and every replay opens in the web's
viewer, streams from the object store and verifies against the engine.
"""

from __future__ import annotations

import hashlib
import json
import socket
import subprocess
from pathlib import Path

import pytest

from replayfile.format import decode
from replayfile.verify import verify_document
from scripts.hosts import namespaces_possible
from scripts.stack import Stack
from tests.ports import free_port
from tournament.models import BotVersion, Match
from tournament.services.demo import STARTER_BOTS

from .stack_api import Api, builtin_versions, league_played, login, login_organiser, upload_ready

pytestmark = [pytest.mark.integration, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
SEEDS = 1  # 4 bots: 6 pairs x 2 seat orders = 12 matches, shared by the two workers


@pytest.fixture
def hosts_stack(stack_env, tmp_path, s3_server, s3_bucket):
    env = {
        **stack_env,
        "STORAGE_URL": s3_server.storage_url(s3_bucket),
        "DEBUG": "1",
        "LOG_LEVEL": "INFO",
    }
    stack = Stack(
        workers=2, port=free_port(), env=env, state_dir=tmp_path / "stack", hosts=True,
        web_workers=1,
    )  # fmt: skip
    stack.start(timeout=180)
    try:
        yield stack
    finally:
        stack.stop()


def _run_in(stack: Stack, name: str, code: str) -> str:
    """Run Python on one host (inside its namespace) and return what it prints."""
    argv = stack.network.wrap(name, [stack.python, "-c", code])
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=True).stdout


def test_a_league_across_hosts_that_share_no_disk(hosts_stack, s3_server, s3_bucket):
    stack = hosts_stack
    if namespaces_possible() is None:  # root: the namespaces must really be there
        assert stack.network.available, stack.network.reason
        _check_isolation(stack)

    anon = Api(stack.base_url)
    author = login(anon, "far-author")
    organiser = login_organiser(anon, "far-organiser")
    uploaded = [
        upload_ready(author, name, filename, (REPO / "examples/bots" / filename).read_bytes())
        for name, filename in STARTER_BOTS.items()
    ]
    league = league_played(
        organiser, author,
        {"name": "far cup", "mode": "duel", "seats": 2, "format": "round_robin",
         "seeds": SEEDS, "decision_time_limit": 5.0, "time_bank": 60.0},
        uploaded, [v for k, v in builtin_versions(anon).items() if k in ("random", "greedy")],
        timeout=600,
    )  # fmt: skip

    matches = list(Match.objects.filter(league_id=league["id"]).order_by("pk"))
    assert len(matches) == 6 * 2 * SEEDS
    assert {m.status for m in matches} == {"finished"}, [(m.pk, m.error) for m in matches]
    for match in matches:
        _check_replay_through_the_web(anon, match)

    # Files: bundles and replays only in the bucket; the web's disk holds none of them; the
    # workers started bots from their own caches, filled from the bucket by sha256.
    keys = set(s3_server.keys(s3_bucket))
    assert {f"replays/{m.replay_name}" for m in matches} <= keys
    bundles = BotVersion.objects.filter(pk__in=[v["id"] for v in uploaded])
    assert {f"bots/{v.bundle_name}" for v in bundles} <= keys
    web_files = [p for p in stack.host_data_dir("web").rglob("*") if p.is_file()]
    assert not [p for p in web_files if p.suffix in {".replay", ".py", ".zip"}], web_files
    shas = {v.sha256 for v in bundles}
    played = {}
    for name in stack.worker_names():
        cached = list((stack.host_data_dir(name) / "bundle-cache").glob("??/*.py"))
        assert {p.stem for p in cached} <= shas, cached
        played[name] = _read(stack.log_dir / f"{name}.log").count("arena.match_play[")
    assert all(count > 0 for count in played.values()), played


def _check_replay_through_the_web(anon: Api, match: Match) -> None:
    page = anon.call("GET", f"/replays/{match.pk}/")
    assert f"/api/v1/matches/{match.pk}/frames".encode() in page
    frames = anon.call("GET", f"/api/v1/matches/{match.pk}/frames?seat=spectator")
    assert frames["result"]["scores"] == match.result["scores"]
    data = anon.call("GET", f"/api/v1/matches/{match.pk}/replay")
    assert hashlib.sha256(data).hexdigest() == match.replay_sha256
    verdict = verify_document(decode(data))
    assert verdict.ok, f"match {match.pk}: {verdict.message}"


def _check_isolation(stack: Stack) -> None:
    """Each host sees only a loopback interface and, on it, only the forwarded services."""
    with socket.socket() as outside:  # a service of the machine that is not forwarded
        outside.bind(("127.0.0.1", 0))
        outside.listen()
        port = outside.getsockname()[1]
        allowed = sorted({p for _, p in stack.network.services.values()})
        code = (
            "import json, socket\n"
            "def reach(p):\n"
            "    try:\n"
            "        socket.create_connection(('127.0.0.1', p), timeout=2).close()\n"
            "        return True\n"
            "    except OSError:\n"
            "        return False\n"
            f"print(json.dumps({{'links': sorted(n for _, n in socket.if_nameindex()),"
            f" 'allowed': [reach(p) for p in {allowed}], 'other': reach({port})}}))"
        )
        for name in stack.host_names:
            seen = json.loads(_run_in(stack, name, code))
            assert seen == {"links": ["lo"], "allowed": [True] * len(allowed), "other": False}


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except FileNotFoundError:
        return ""


def test_the_stack_refuses_hosts_without_an_object_store(tmp_path):
    from scripts.stack import StackError

    stack = Stack(workers=1, env={"CELERY_BROKER_URL": "redis://127.0.0.1:6379/15",
                                  "STORAGE_URL": "", "AWS_STORAGE_BUCKET_NAME": ""},
                  state_dir=tmp_path, hosts=True)  # fmt: skip
    with pytest.raises(StackError, match="hosts share no disk"):
        stack.start()

