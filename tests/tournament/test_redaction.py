"""Failure reasons users read never contain host paths or process ids."""

from __future__ import annotations

import pytest

from tournament.models import BotVersion, Match
from tournament.services import matches as ms
from tournament.services.bots import bot_create, bot_version_upload, builtin_bots_register
from tournament.services.redact import redact_host_details

pytestmark = pytest.mark.django_db

SANDBOX = "/var/tmp/isle-sandbox/seat0-48213-0a1b2c3d4e5f"
ISSUE_EXAMPLE = f"[Errno 17] File exists: '{SANDBOX}/bot/a'"


@pytest.mark.parametrize(
    ("text", "kept", "gone"),
    [
        (ISSUE_EXAMPLE, "File exists: 'bot/a'", ["isle-sandbox", "48213", "/var/"]),
        (f'File "{SANDBOX}/bot/main.py", line 3', 'File "bot/main.py", line 3', ["48213"]),
        ("cannot read /srv/arena/var/bots/7/3-abc.zip", ".../3-abc.zip", ["/srv/", "arena/"]),
        ("worker pid 31337 lost", "worker pid ?", ["31337"]),
        ("scores 1/2 and 3/4 at https://example.org/a/b", "1/2 and 3/4 at https://example.org/a/b",
         []),
    ],
)  # fmt: skip
def test_redaction(text: str, kept: str, gone: list[str]) -> None:
    out = redact_host_details(text)
    assert kept in out
    for fragment in gone:
        assert fragment not in out


def test_a_validation_failure_shows_no_host_path(
    author, runner, django_capture_on_commit_callbacks
):
    builtin_bots_register()

    def start_failed(spec, on_step=None):
        played = runner.__class__.run_match(runner, spec)
        played["seats"][0].update(fault="start_failed", fault_detail=ISSUE_EXAMPLE,
                                  log=f'Traceback: File "{SANDBOX}/bot/main.py"')  # fmt: skip
        return played

    import sys

    sys.modules["workers.runner"].run_match = start_failed  # the `runner` fixture's module
    bot = bot_create(owner=author, name="unlucky")
    with django_capture_on_commit_callbacks(execute=True):
        version = bot_version_upload(bot=bot, user=author, filename="bot.py", data=b"print(1)\n")
    version.refresh_from_db()
    assert version.status == BotVersion.Status.FAILED
    for text in (version.failure_reason, version.log):
        assert "isle-sandbox" not in text and "48213" not in text, text
    assert "File exists: 'bot/a'" in version.failure_reason


def test_a_runner_error_shows_no_host_path(organiser, ready_version, runner):
    a, b = ready_version(organiser, "a"), ready_version(organiser, "b")
    match = ms.match_create_internal(
        kind="challenge", mode="duel", options={}, bot_versions=[a, b], league=None,
        requested_by=organiser,
    )  # fmt: skip
    runner.raise_error = FileExistsError(17, "File exists", f"{SANDBOX}/bot/a")
    for _ in range(ms.MAX_ATTEMPTS):
        ms.match_play(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FAILED
    assert "isle-sandbox" not in match.error and "48213" not in match.error
    assert "FileExistsError" in match.error and "bot/a" in match.error
