"""Bots in other languages through the upload flow, with the real sandbox and runner: a C++
bundle is compiled once on upload (its log shown to its owner only) and its built bundle plays
the validation match; a compile error fails the version with the compiler's message; a
JavaScript file plays as it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.storage import storages
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.workers.starters import EXAMPLES, cpp_bundle, zip_bundle
from tournament.models import BotVersion, Match
from tournament.services import bots as bot_services
from tournament.services.bots import builtin_bots_register

from .conftest import client_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

SYNTAX_ERROR = b'#include <cstdio>\nint main() { std::puts("hi") return 0; }\n'


def upload(author, bot_id: int, name: str, data: bytes, capture) -> dict:
    with capture(execute=True):
        response = client_for(author).post(
            f"/api/v1/bots/{bot_id}/versions/",
            {"file": SimpleUploadedFile(name, data)},
            format="multipart",
        )
    assert response.status_code == 201, response.content
    return response.json()


def new_bot(author, name: str) -> int:
    response = client_for(author).post("/api/v1/bots/", {"name": name}, format="json")
    return response.json()["id"]


def test_cpp_starter_compiles_on_upload_and_plays(
    author, other_author, tmp_path: Path, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    builtin_bots_register()
    bot_id = new_bot(author, "cats-in-cpp")
    data = cpp_bundle("heuristic", tmp_path).read_bytes()
    created = upload(author, bot_id, "heuristic.zip", data, django_capture_on_commit_callbacks)
    assert created["language"] == "cpp" and created["status"] == "pending"
    version = BotVersion.objects.get(pk=created["id"])
    assert version.status == BotVersion.Status.READY, version.failure_reason
    assert version.build_log.startswith("$ g++ -std=gnu++17") and "built " in version.build_log
    # the built bundle is stored content-addressed and is what the validation match ran
    assert version.built_bundle_name == f"built/{version.built_sha256}.zip"
    assert storages["bots"].exists(version.built_bundle_name)
    match = Match.objects.get(kind=Match.Kind.VALIDATION, seats__bot_version=version)
    assert match.status == Match.Status.FINISHED
    seat = match.seats.get(bot_version=version)
    assert seat.fault == "" and seat.score is not None and seat.bot_sha256 == version.sha256
    # the owner sees the compile log; others do not
    url = f"/api/v1/bot-versions/{version.pk}/"
    assert client_for(author).get(url).json()["build_log"] == version.build_log
    assert client_for(other_author).get(url).json()["build_log"] is None
    assert client_for(None).get(url).json()["build_log"] is None
    # a second delivery of the build task changes nothing and compiles nothing
    monkeypatch.setattr("workers.sandbox.build.build_bundle", lambda *a, **k:
    pytest.fail("rebuilt"))
    assert bot_services.bot_version_build(version_id=version.pk).status == "ready"


def test_cpp_syntax_error_fails_the_version_with_the_compilers_message(
    author, tmp_path: Path, django_capture_on_commit_callbacks
) -> None:
    builtin_bots_register()
    bot_id = new_bot(author, "typo")
    manifest = {"entrypoint": "main.cpp", "language": "cpp"}
    data = zip_bundle(tmp_path / "bad.zip", manifest, {"main.cpp": SYNTAX_ERROR}).read_bytes()
    created = upload(author, bot_id, "bad.zip", data, django_capture_on_commit_callbacks)
    version = BotVersion.objects.get(pk=created["id"])
    assert version.status == BotVersion.Status.FAILED
    assert version.failure_reason == (
        "build failed: main.cpp:2:29: error: expected ';' before 'return'"
    )
    assert "std::puts" in version.build_log  # the compiler's full output, with the source line
    assert version.built_bundle_name == "" and not Match.objects.filter(
        seats__bot_version=version).exists()  # fmt: skip
    detail = client_for(author).get(f"/api/v1/bot-versions/{version.pk}/").json()
    assert detail["status"] == "failed" and "expected ';'" in detail["failure_reason"]


def test_javascript_file_uploads_and_plays(author, django_capture_on_commit_callbacks) -> None:
    builtin_bots_register()
    bot_id = new_bot(author, "cats-in-js")
    data = (EXAMPLES / "js" / "random_bot.js").read_bytes()
    created = upload(author, bot_id, "random_bot.js", data, django_capture_on_commit_callbacks)
    assert created["language"] == "node" and created["bundle_kind"] == "js"
    version = BotVersion.objects.get(pk=created["id"])
    assert version.status == BotVersion.Status.READY, version.failure_reason
    assert version.build_log == "" and version.built_sha256 == ""
