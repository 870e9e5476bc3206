"""Fail closed: where the deployment requires isolation layers
(SANDBOX_REQUIRED_ISOLATION, every layer in production) a match whose worker lacks one starts
no bot. With tasks run inline (no other worker could play it) it fails with the reason on the
match, on its page and in the log; on a real worker it goes back to the queue for another
worker. The embedded default runs with fewer layers and says so on the match. Real runner,
real bots."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.workers.conftest import EXAMPLES
from tournament.models import BotVersion, Match
from tournament.services.bots import bot_create, bot_version_upload, builtin_bots_register
from workers.queueing.queues import lane_queue, match_lane
from workers.sandbox import bot_process as sandbox
from workers.sandbox.isolation import LAYERS, Isolation

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

REPO = Path(__file__).resolve().parents[2]
NONE = Isolation(notes=("test: this worker has no layer",))


@pytest.fixture
def bare_worker(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """A worker with no isolation layer at all; returns the bot sandboxes it opens."""
    opened: list[object] = []
    original = sandbox.BotSandbox.__init__

    def recording(self: sandbox.BotSandbox, *args: object, **kwargs: object) -> None:
        opened.append(self)
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sandbox.BotSandbox, "__init__", recording)
    monkeypatch.setattr("workers.runner.detect_isolation", lambda: NONE)
    return opened


def upload_random_bot(author, capture) -> BotVersion:
    builtin_bots_register()
    bot = bot_create(owner=author, name="plain")
    data = (EXAMPLES / "random_bot.py").read_bytes()
    with capture(execute=True):
        version = bot_version_upload(bot=bot, user=author, filename="bot.py", data=data)
    version.refresh_from_db()
    return version


def test_a_required_layer_missing_fails_the_match_before_any_bot_starts(
    author, client, settings, bare_worker, caplog, django_capture_on_commit_callbacks
) -> None:
    settings.SANDBOX_REQUIRED_ISOLATION = list(LAYERS)
    with caplog.at_level(logging.ERROR, logger="tournament.services.matches"):
        version = upload_random_bot(author, django_capture_on_commit_callbacks)
    match = Match.objects.get(kind=Match.Kind.VALIDATION, seats__bot_version=version)
    assert match.status == Match.Status.FAILED
    assert bare_worker == []  # not one bot was given a sandbox
    assert all(seat.score is None for seat in match.seats.all())
    expected = "refusing to run bots: this worker has no uid, no network, no filesystem, no pid"
    assert expected in match.error and "SANDBOX_REQUIRED_ISOLATION" in match.error
    assert expected in version.failure_reason
    # in the worker's log, and on the match page
    assert any(expected in r.getMessage() and r.levelno == logging.ERROR for r in caplog.records)
    client.force_login(author)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "refusing to run bots: this worker has no uid" in page


def test_a_required_layer_that_is_there_lets_the_match_run(
    author, settings, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    settings.SANDBOX_REQUIRED_ISOLATION = ["network"]
    monkeypatch.setattr("workers.runner.detect_isolation", lambda: Isolation(network=True))
    version = upload_random_bot(author, django_capture_on_commit_callbacks)
    assert version.status == BotVersion.Status.READY, version.failure_reason
    match = Match.objects.get(kind=Match.Kind.VALIDATION, seats__bot_version=version)
    assert match.result["isolation"] == (
        "bot isolation incomplete: no uid, no filesystem, no pid, no memory isolation"
    )


def test_the_embedded_default_runs_with_fewer_layers_and_says_so(
    author, client, settings, bare_worker, django_capture_on_commit_callbacks
) -> None:
    settings.SANDBOX_REQUIRED_ISOLATION = []
    version = upload_random_bot(author, django_capture_on_commit_callbacks)
    assert version.status == BotVersion.Status.READY, version.failure_reason
    match = Match.objects.get(kind=Match.Kind.VALIDATION, seats__bot_version=version)
    assert match.status == Match.Status.FINISHED and len(bare_worker) == 1
    note = (
        "bot isolation incomplete: no uid, no network, no filesystem, no pid, no memory isolation"
    )
    assert match.result["isolation"] == note
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f"Sandbox: {note}" in page
    api = client.get(f"/api/v1/matches/{match.pk}/").json()
    assert api["result"]["isolation"] == note


def _required(env: dict[str, str]) -> str:
    """SANDBOX_REQUIRED_ISOLATION as the settings read it from a fresh environment."""
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
    code = "from django.conf import settings; print(','.join(settings.SANDBOX_REQUIRED_ISOLATION))"
    done = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        env={**keep, "DJANGO_SETTINGS_MODULE": "tournament.settings", "PYTHONPATH": str(REPO),
             **env},  # fmt: skip
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0 or not done.stdout, done.stderr
    return done.stdout.strip() if done.returncode == 0 else done.stderr.strip().splitlines()[-1]


def test_production_requires_every_layer_and_the_embedded_default_none() -> None:
    every = ",".join(LAYERS)
    production = {"DJANGO_ENV": "production", "SECRET_KEY": "x" * 50}
    assert _required(production) == every
    with_broker = {"DEBUG": "0", "SECRET_KEY": "x" * 50, "CELERY_BROKER_URL": "redis://h:1/0"}
    assert _required(with_broker) == every
    assert _required({}) == ""  # the embedded default, DEBUG on
    assert _required({"DEBUG": "0", "SECRET_KEY": "x" * 50}) == ""  # embedded, DEBUG off
    assert _required({**production, "SANDBOX_REQUIRED_ISOLATION": "none"}) == ""
    assert _required({**production, "SANDBOX_REQUIRED_ISOLATION": "network,pid"}) == "network,pid"
    bad = _required({**production, "SANDBOX_REQUIRED_ISOLATION": "network,chroot"})
    assert "unknown layer 'chroot'" in bad


@pytest.mark.parametrize(
    ("required", "level", "words"),
    [
        (list(LAYERS), logging.ERROR, "so this worker takes no match and no build"),
        ([], logging.WARNING, "so matches run and their records say so"),
    ],
)
def test_the_worker_says_at_start_what_its_bots_lack(
    settings, monkeypatch, caplog, required: list[str], level: int, words: str
) -> None:
    from workers.queueing import celery_app

    settings.SANDBOX_REQUIRED_ISOLATION = required
    monkeypatch.setattr(celery_app, "detect_isolation", lambda: NONE)
    with caplog.at_level(logging.INFO, logger="workers.sandbox.isolation"):
        celery_app._say_isolation()
    [record] = [r for r in caplog.records if r.name == "workers.sandbox.isolation"]
    assert record.levelno == level
    message = record.getMessage()
    assert message.startswith("bot isolation incomplete: no uid, no network") and words in message
    assert "test: this worker has no layer" in message


def test_a_match_refused_for_the_workers_lack_goes_back_to_the_queue(
    settings, monkeypatch, caplog, django_capture_on_commit_callbacks
) -> None:
    """Not the match's fault: it is queued again for another worker (in its lane, or the
    retry lane where that is higher), not failed, with its attempt given back and no error."""
    from tournament.jobs import MATCH_PLAY, job
    from tournament.services.matches import match_play
    from workers.sandbox.isolation import IsolationMissing

    settings.CELERY_TASK_ALWAYS_EAGER = False
    builtin_bots_register()
    versions = list(BotVersion.objects.filter(builtin__in=["random", "greedy"]))
    match = Match.objects.create(kind=Match.Kind.CHALLENGE, mode="duel", seed=3)
    for seat, version in enumerate(versions):
        match.seats.create(seat=seat, bot_version=version)
    sent: list[tuple] = []
    monkeypatch.setattr(job(MATCH_PLAY), "apply_async", lambda *a, **k: sent.append((a, k)))

    def refuse(spec, **_):
        raise IsolationMissing("refusing to run bots: this worker has no pid isolation")

    monkeypatch.setattr("workers.runner.run_match", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        returned = match_play(match_id=match.pk)
    match.refresh_from_db()
    assert returned is not None and match.status == Match.Status.QUEUED
    assert match.attempts == 0 and match.error == ""
    # a challenge sent again keeps its lane, which is above the retry lane
    again = lane_queue(match_lane(match.kind, again=True), match.mode)
    assert again == "matches.interactive"
    assert [(a[0], k["queue"]) for a, k in sent] == [((match.pk,), again)]
