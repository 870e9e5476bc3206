"""Files through Django's storages API only: STORAGE_URL selects an S3-compatible store (moto
in server mode, its own process, stands in for MinIO); workers copy bundles into their cache by
sha256; a replay is stored before its result is recorded, and a failing store never loses the
result."""

from __future__ import annotations

import hashlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.files.storage import storages

from tournament.models import Match
from tournament.services import matches as ms
from tournament.services.bots import bot_create, bot_version_upload, builtin_bots_register
from tournament.services.bundle_files import BundleFetchError
from tournament.services.challenges import challenge_create
from tournament.services.outcome import PlayedMatch, SeatOutcome
from tournament.services.replay_upload import played_from_json, played_to_json
from tournament.storage_config import (
    DISK_BACKEND,
    S3_BACKEND,
    StorageConfigError,
    file_storages,
    s3_options_from_url,
)

from .flaky_storage import FlakyStorage

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[2]
ROOTS = {"bots": Path("/d/bots"), "replays": Path("/d/replays")}


# --- configuration -------------------------------------------------------------------------


def test_without_an_object_store_the_files_stay_on_disk():
    assert file_storages(storage_url="", aws_bucket="", roots=ROOTS) == {
        "bots": {"BACKEND": DISK_BACKEND, "OPTIONS": {"location": "/d/bots"}},
        "replays": {"BACKEND": DISK_BACKEND, "OPTIONS": {"location": "/d/replays"}},
    }


def test_storage_url_gives_one_prefix_per_storage_in_one_bucket():
    url = "s3://key:s%2Fcret@arena/prod?endpoint_url=http://minio:9000&region_name=eu-west-1"
    out = file_storages(storage_url=url, aws_bucket="", roots=ROOTS)
    assert {alias: entry["BACKEND"] for alias, entry in out.items()} == {
        "bots": S3_BACKEND, "replays": S3_BACKEND,
    }  # fmt: skip
    bots = out["bots"]["OPTIONS"]
    assert bots == {
        "bucket_name": "arena", "access_key": "key", "secret_key": "s/cret",
        "endpoint_url": "http://minio:9000", "region_name": "eu-west-1",
        "addressing_style": "path", "querystring_auth": False, "file_overwrite": True,
        "location": "prod/bots",
    }  # fmt: skip
    assert out["replays"]["OPTIONS"]["location"] == "prod/replays"


def test_aws_settings_alone_select_s3_with_prefixes():
    out = file_storages(storage_url="", aws_bucket="arena", roots=ROOTS, aws_location="/x/")
    assert out["bots"] == {
        "BACKEND": S3_BACKEND, "OPTIONS": {"location": "x/bots", "file_overwrite": True},
    }  # fmt: skip


@pytest.mark.parametrize(
    "url, message",
    [
        ("http://arena", "must start with s3://"),
        ("s3:///?endpoint_url=x", "names no bucket"),
        ("s3://arena?endpoint=x", "unknown option 'endpoint'"),
        ("s3://arena?use_ssl=maybe", "use_ssl='maybe' is not a boolean"),
    ],
)
def test_a_bad_storage_url_says_what_is_wrong(url, message):
    with pytest.raises(StorageConfigError, match=message):
        s3_options_from_url(url)


def test_a_bad_storage_url_stops_django_with_one_line():
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=REPO, capture_output=True, text=True,
        env={"STORAGE_URL": "s3://arena?nope=1", "DJANGO_SETTINGS_MODULE": "tournament.settings",
             "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode != 0
    assert "ImproperlyConfigured: STORAGE_URL: unknown option 'nope'" in done.stderr


def test_no_code_asks_a_storage_for_a_local_path():
    """A storage on another host has no path: nothing may call .path() on one
    (``storage.path(``, ``storages["bots"].path(``, ``self.storage.path(`` ...)."""
    call = re.compile(r"storages?(\[[^\]]*\])?\.path\(")
    offenders = []
    folders = [p for p in REPO.iterdir() if p.is_dir() and p.name not in {".venv", "var", "tests"}]
    for folder in folders:
        for path in folder.rglob("*.py"):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if call.search(line):
                    offenders.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert offenders == []
    assert call.search('storages["bots"].path(name)') and call.search("self.storage.path(x)")


# --- on the S3 server ----------------------------------------------------------------------


def test_bundles_and_replays_live_in_the_object_store(
    s3_storages, s3_server, author, runner, tmp_path, django_capture_on_commit_callbacks
):
    assert storages["bots"].bucket_name == s3_storages  # the S3 backend, not a folder
    builtin_bots_register()
    bot = bot_create(owner=author, name="clouds")
    data = b"# a bot that lives in a bucket\n"
    with django_capture_on_commit_callbacks(execute=True):
        version = bot_version_upload(bot=bot, user=author, filename="bot.py", data=data)
    keys = s3_server.keys(s3_storages)
    assert f"bots/{version.bundle_name}" in keys
    # The validation match ran (scripted runner): its bundle came through the local cache.
    validation = Match.objects.get(kind=Match.Kind.VALIDATION, seats__bot_version=version)
    assert validation.status == Match.Status.FINISHED
    seat = next(s for s in runner.specs[-1]["seats"] if s["bot_version_id"] == version.pk)
    local = Path(seat["bundle_path"])
    assert local.is_relative_to(tmp_path / "bundle-cache") and local.read_bytes() == data
    assert local.name == f"{hashlib.sha256(data).hexdigest()}.py"
    # ... and its replay went to the bucket before the result was recorded.
    assert f"replays/{validation.replay_name}" in s3_server.keys(s3_storages, "replays/")
    assert validation.replay_size == len(b"replay-of-%d" % validation.pk)


def test_a_bundle_changed_in_the_store_is_not_played(s3_storages, author, runner, settings):
    builtin_bots_register()
    bot = bot_create(owner=author, name="tampered")
    version = bot_version_upload(bot=bot, user=author, filename="bot.py", data=b"# honest\n")
    storages["bots"].delete(version.bundle_name)
    storages["bots"].save(version.bundle_name, io.BytesIO(b"# evil\n"))
    settings.BUNDLE_CACHE_DIR = settings.BUNDLE_CACHE_DIR.parent / "fresh-cache"
    match = Match.objects.filter(seats__bot_version=version).first()
    with pytest.raises(BundleFetchError, match="stored bytes have sha256"):
        ms.match_spec(match)


def test_the_web_streams_replays_from_the_object_store(s3_storages, client, author, runner):
    from replays.storage import CHUNK, save_replay, stream_replay

    builtin_bots_register()
    match = Match.objects.create(kind=Match.Kind.CHALLENGE, mode="duel", seed=1)
    big = bytes(range(256)) * (3 * CHUNK // 256 + 7)  # several chunks
    stored = save_replay(match_id=match.pk, data=big)
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, replay_name=stored.name, replay_sha256=stored.sha256,
        replay_size=stored.size,
    )  # fmt: skip
    response = client.get(f"/api/v1/matches/{match.pk}/replay")
    assert response.status_code == 200 and response.streaming
    assert response["Content-Length"] == str(len(big))
    assert b"".join(response.streaming_content) == big
    # Changed in the store: the stream stops short of the announced size.
    storages["replays"].save(stored.name, io.BytesIO(big[:-1] + b"\x00"))
    stream = stream_replay(stored.name, sha256=stored.sha256)
    received = b""
    with pytest.raises(Exception, match="does not match its recorded sha256"):
        for chunk in stream.chunks:
            received += chunk
    assert len(received) < len(big)
    storages["replays"].delete(stored.name)
    assert client.get(f"/api/v1/matches/{match.pk}/replay").status_code == 404


# --- replay uploads that fail ----------------------------------------------------------------


@pytest.fixture
def flaky_replays(settings, tmp_path):
    settings.STORAGES = {
        **settings.STORAGES,
        "replays": {
            "BACKEND": "tests.tournament.flaky_storage.FlakyStorage",
            "OPTIONS": {"location": str(tmp_path / "flaky-replays")},
        },
    }
    settings.REPLAY_UPLOAD_ATTEMPTS = 3
    settings.REPLAY_UPLOAD_BACKOFF = 0.0
    FlakyStorage.failures, FlakyStorage.attempts = 0, 0
    return FlakyStorage


def _challenge(author, ready_version):
    a, b = ready_version(author, "up-a"), ready_version(author, "up-b")
    return challenge_create(user=author, mode="duel", bot_version_ids=[a.pk, b.pk])


def test_an_upload_that_fails_twice_is_retried_and_recorded(
    flaky_replays, author, ready_version, runner, django_capture_on_commit_callbacks
):
    flaky_replays.failures = 2
    with django_capture_on_commit_callbacks(execute=True):
        match = _challenge(author, ready_version)
    match.refresh_from_db()
    assert flaky_replays.attempts == 3
    assert match.status == Match.Status.FINISHED and match.error == ""
    assert storages["replays"].open(match.replay_name).read() == b"replay-of-%d" % match.pk


def test_a_play_that_finishes_after_another_recorded_the_match_stores_nothing(
    author, ready_version, runner, django_capture_on_commit_callbacks
):
    """Two plays of one match (it was re-queued while its first worker still played it): the
    one that finishes second must not replace the replay of the result that was recorded."""
    with django_capture_on_commit_callbacks(execute=True):
        match = _challenge(author, ready_version)  # played and recorded
    match.refresh_from_db()
    recorded = storages["replays"].open(match.replay_name).read()
    assert hashlib.sha256(recorded).hexdigest() == match.replay_sha256
    late = PlayedMatch(
        seats=[SeatOutcome(seat=0, score=1.0, rank=2), SeatOutcome(seat=1, score=2.0, rank=1)],
        result={"scores": [1.0, 2.0], "ranks": [2, 1]}, replay=b"the other play's replay",
    )  # fmt: skip
    assert ms.match_finish(match_id=match.pk, played=late) is None
    assert storages["replays"].open(match.replay_name).read() == recorded
    assert Match.objects.get(pk=match.pk).result == match.result


def test_a_store_that_keeps_failing_hands_the_result_to_the_broker(
    flaky_replays, author, ready_version, runner, settings, monkeypatch,
    django_capture_on_commit_callbacks,
):
    """With a broker, the worker gives up only on uploading now: the outcome, replay bytes
    included, goes into a task message; the match stays running with nothing recorded."""
    from tournament.services import replay_upload

    handed: list[tuple[int, dict]] = []
    with django_capture_on_commit_callbacks(execute=False):
        match = _challenge(author, ready_version)
    settings.CELERY_TASK_ALWAYS_EAGER = False  # a worker with a broker
    monkeypatch.setattr(
        replay_upload, "record_later",
        lambda *, match_id, played: handed.append((match_id, played_to_json(played))),
    )  # fmt: skip
    flaky_replays.failures = 100
    ms.match_play(match_id=match.pk)
    match.refresh_from_db()
    assert flaky_replays.attempts == 3
    assert match.status == Match.Status.RUNNING and match.replay_name == ""
    assert match.seats.filter(score__isnull=False).count() == 0
    [(match_id, payload)] = handed
    assert match_id == match.pk
    assert played_from_json(payload).replay == b"replay-of-%d" % match.pk
    # The record task: the store still fails -> it asks to be retried, nothing recorded ...
    with pytest.raises(replay_upload.ReplayUploadFailed):
        ms.match_record_deferred(match_id=match.pk, payload=payload)
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING
    # ... then the store is back: the replay is stored and the same result recorded.
    flaky_replays.failures = 0
    recorded = ms.match_record_deferred(match_id=match.pk, payload=payload)
    assert recorded.status == Match.Status.FINISHED and recorded.replay_name
    assert [s.score for s in recorded.seats.order_by("seat")] == [50.0, 40.0]
    assert storages["replays"].open(recorded.replay_name).read() == b"replay-of-%d" % match.pk
    # A second delivery of the message changes nothing.
    assert ms.match_record_deferred(match_id=match.pk, payload=payload) is None


def test_the_record_task_retries_through_celery_and_its_last_try_keeps_the_result(
    flaky_replays, author, ready_version, runner, settings, monkeypatch,
    django_capture_on_commit_callbacks,
):
    from celery.exceptions import Retry

    from tournament.services import replay_upload
    from tournament.tasks import match_record_task

    handed: list[dict] = []
    with django_capture_on_commit_callbacks(execute=False):
        match = _challenge(author, ready_version)
    settings.CELERY_TASK_ALWAYS_EAGER = False  # a worker with a broker
    monkeypatch.setattr(
        replay_upload, "record_later",
        lambda *, match_id, played: handed.append(played_to_json(played)),
    )  # fmt: skip
    flaky_replays.failures = 100
    ms.match_play(match_id=match.pk)
    monkeypatch.setattr(match_record_task, "retry", lambda **kw: Retry("again", when=60))
    with pytest.raises(Retry):
        match_record_task.run(match.pk, handed[0])
    # The last retry records the result without its replay, and says why.
    match_record_task.push_request(retries=match_record_task.max_retries)
    try:
        assert match_record_task.run(match.pk, handed[0]) == "finished"
    finally:
        match_record_task.pop_request()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.replay_name == ""
    assert "not stored after 1 attempts" in match.error


def test_inline_tasks_record_the_result_without_the_replay_when_the_disk_fails(
    flaky_replays, author, ready_version, runner, django_capture_on_commit_callbacks
):
    flaky_replays.failures = 100
    with django_capture_on_commit_callbacks(execute=True):
        match = _challenge(author, ready_version)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.replay_name == ""
    assert "not stored after 3 attempts" in match.error
    assert [s.rank for s in match.seats.order_by("seat")] == [1, 2]


def test_storage_init_creates_the_bucket_once(s3_server, settings):
    import uuid

    from django.core.management import call_command

    from tournament.storage_config import file_storages

    bucket = f"init-{uuid.uuid4().hex[:12]}"
    url = s3_server.storage_url(bucket)
    settings.STORAGES = {
        **settings.STORAGES,
        **file_storages(storage_url=url, aws_bucket="", roots={"bots": Path(), "replays": Path()}),
    }
    out = io.StringIO()
    call_command("storage_init", stdout=out)
    assert f"replays: bucket {bucket} created (prefix replays/)" in out.getvalue()
    assert f"bots: bucket {bucket} is there (prefix bots/)" in out.getvalue()
    storages["replays"].save("probe", io.BytesIO(b"x"))
    assert s3_server.keys(bucket) == ["replays/probe"]

