"""Lost C++ builds: a version whose build task never ran is sent again by the beat job and
becomes ready; a fresh or running build is left alone; a build that finished is never built or
changed again, and of two builds racing only the first result is kept.

The compiler is replaced by a fake `build_bundle` that counts its calls (the real compile is
tested in test_compiled_bots.py); matches are played by the scripted runner."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from tests.workers.starters import zip_bundle
from tournament.models import Bot, BotVersion, Match
from tournament.services import bots as bot_services
from tournament.services.bots import (
    bot_builds_resend_lost,
    bot_version_build,
    build_stale_seconds,
    builtin_bots_register,
)
from workers.sandbox.build import BuildResult

pytestmark = pytest.mark.django_db

SOURCE = b"int main() { return 0; }\n"
BUILT = b"PK-the-built-bundle"  # never unpacked: the scripted runner plays no game
BUILT_SHA = hashlib.sha256(BUILT).hexdigest()


class FakeCompiler:
    """Stands in for `workers.sandbox.build.build_bundle`: a successful build of fixed bytes."""

    def __init__(self) -> None:
        self.calls = 0
        self.during: Any = None  # called while "compiling" (another worker's turn)

    def __call__(self, data: bytes, filename: str, **_: Any) -> BuildResult:
        self.calls += 1
        if self.during is not None:
            self.during()
        return BuildResult(
            ok=True, log="$ g++ main.cpp\nbuilt", reason="", language="cpp", seconds=0.1,
            source_sha256=hashlib.sha256(data).hexdigest(), bundle=BUILT,
            filename=f"{BUILT_SHA[:16]}.zip", sha256=BUILT_SHA,
        )  # fmt: skip


@pytest.fixture
def compiler(monkeypatch: pytest.MonkeyPatch) -> FakeCompiler:
    fake = FakeCompiler()
    monkeypatch.setattr("workers.sandbox.build.build_bundle", fake)
    return fake


@pytest.fixture
def upload_lost(author, tmp_path: Path, django_capture_on_commit_callbacks):
    """Upload a C++ bundle whose build message the broker loses (never executed)."""
    builtin_bots_register()

    def _upload(name: str = "cats-in-cpp") -> BotVersion:
        bot = Bot.objects.create(name=name, owner=author)
        manifest = {"entrypoint": "main.cpp", "language": "cpp"}
        data = zip_bundle(tmp_path / f"{name}.zip", manifest, {"main.cpp": SOURCE}).read_bytes()
        with django_capture_on_commit_callbacks(execute=False) as lost:
            version = bot_services.bot_version_upload(
                bot=bot, user=author, filename="main.zip", data=data
            )
        assert len(lost) == 1  # the build task, never sent
        return version

    return _upload


def age(version: BotVersion, seconds: float, field: str = "build_queued_at") -> None:
    when = timezone.now() - timedelta(seconds=seconds)
    BotVersion.objects.filter(pk=version.pk).update(**{field: when})


def test_a_lost_build_is_sent_again_and_the_version_becomes_ready(
    upload_lost, compiler, runner, django_capture_on_commit_callbacks
) -> None:
    from tournament.tasks import bot_build_task, bot_builds_resend_lost_task

    version = upload_lost()
    assert version.status == "pending" and version.build_queued_at is not None
    assert bot_builds_resend_lost() == []  # just queued: not lost yet
    age(version, build_stale_seconds() + 1)
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert bot_builds_resend_lost_task.apply().get() == [version.pk]
    assert len(sent) >= 1 and compiler.calls == 1
    version.refresh_from_db()
    assert version.status == BotVersion.Status.READY, version.failure_reason
    assert (version.built_sha256, version.build_log) == (BUILT_SHA, "$ g++ main.cpp\nbuilt")
    validation = Match.objects.get(kind=Match.Kind.VALIDATION, seats__bot_version=version)
    assert validation.status == Match.Status.FINISHED
    # the first message was only slow after all: it arrives, compiles nothing, changes nothing
    assert bot_build_task.apply(args=[version.pk]).get() == "ready"
    assert compiler.calls == 1 and bot_builds_resend_lost() == []
    assert Match.objects.filter(seats__bot_version=version).count() == 1


def test_fresh_or_running_builds_are_not_sent_again(upload_lost, compiler) -> None:
    fresh, running, dead = upload_lost("fresh"), upload_lost("running"), upload_lost("dead")
    stale = build_stale_seconds() + 1
    age(fresh, stale - 30)  # waiting, but not long enough
    for version in (running, dead):
        age(version, stale)
    age(running, 10, "build_started_at")  # a worker began compiling it 10 s ago
    age(dead, stale, "build_started_at")  # its worker died long ago
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("tournament.services.bots._queue_build", lambda version: None)
        assert bot_builds_resend_lost() == [dead.pk]
        # two beat runs racing: the second finds it sent just now and leaves it alone
        assert bot_builds_resend_lost() == []
    # a duplicate delivery while a worker holds the build compiles nothing
    assert bot_version_build(version_id=running.pk).status == "pending"
    assert compiler.calls == 0


def test_a_finished_build_is_never_sent_or_built_again(upload_lost, compiler) -> None:
    ready, failed, validating = upload_lost("ready"), upload_lost("failed"), upload_lost("val")
    BotVersion.objects.filter(pk=ready.pk).update(
        status="ready", built_sha256=BUILT_SHA, built_bundle_name="built/x.zip", build_log="ok"
    )
    BotVersion.objects.filter(pk=failed.pk).update(
        status="failed", failure_reason="build failed: main.cpp:1: error", build_log="no"
    )
    # built, its validation match not played yet: pending, but not waiting for a build
    BotVersion.objects.filter(pk=validating.pk).update(
        built_sha256=BUILT_SHA, built_bundle_name="built/x.zip", build_log="ok"
    )
    versions = (ready, failed, validating)
    for version in versions:
        age(version, build_stale_seconds() + 1)
    fields = ["status", "failure_reason", "build_log", "built_sha256", "built_bundle_name",
              "build_queued_at", "build_started_at"]  # fmt: skip
    before = list(BotVersion.objects.filter(pk__in=[v.pk for v in versions]).values(*fields))
    assert bot_builds_resend_lost(now=timezone.now() + timedelta(days=1)) == []
    for version in versions:
        bot_version_build(version_id=version.pk)
    assert compiler.calls == 0
    assert list(BotVersion.objects.filter(pk__in=[v.pk for v in versions]).values(*fields)) == (
        before
    )
    assert not Match.objects.filter(seats__bot_version__in=versions).exists()


def test_of_two_builds_racing_the_first_result_is_kept(upload_lost, compiler) -> None:
    """A worker that took over a build it thought lost finishes second: its result is
    dropped, and the first worker's result and validation match stand."""
    version = upload_lost()

    def the_other_worker_finishes_first() -> None:
        BotVersion.objects.filter(pk=version.pk).update(
            built_sha256="b" * 64, built_bundle_name=f"built/{'b' * 64}.zip", build_log="theirs"
        )

    compiler.during = the_other_worker_finishes_first
    bot_version_build(version_id=version.pk)
    assert compiler.calls == 1
    version.refresh_from_db()
    assert (version.built_sha256, version.build_log) == ("b" * 64, "theirs")
    assert version.status == "pending"  # waiting for the validation the other worker queued
    assert not Match.objects.filter(seats__bot_version=version).exists()  # none queued by us
