"""``arena logs``: a version's whole build log and stderr, and a bot's stderr in a match, for
its owner only (the server's privacy rule, tournament/private_output.py): tested as the owner, as
another author and anonymously, against a live server (the embedded mode plays and builds
inside the request, as in tests/arena/test_server_commands.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.arena.test_server_commands import cli, login, server  # noqa: F401 - the fixture

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TALKER = (
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    message = json.loads(line)\n"
    "    if message['type'] == 'start':\n"
    "        print('{\"ready\": true}', flush=True)\n"
    "    elif message['type'] == 'decide':\n"
    "        print('thinking about step', message['step'], file=sys.stderr, flush=True)\n"
    "        print('{\"index\": 0}', flush=True)\n"
)


def as_other(capsys, server_url: str, make_user) -> None:  # noqa: ANN001
    from tests.accounts import PASSWORD

    make_user("sid")
    code, _, err = cli(capsys, "login", "--server", server_url, "--username", "sid",
                       "--password-stdin", stdin=PASSWORD + "\n")  # fmt: skip
    assert code == 0, err


def test_logs_of_a_version_and_of_a_match_for_the_owner_only(
    server, capsys, tmp_path, make_user  # noqa: ANN001, F811
) -> None:
    login(capsys, server)
    assert cli(capsys, "create", "talker")[0] == 0
    bot = tmp_path / "talker.py"
    bot.write_text(TALKER)
    code, out, err = cli(capsys, "submit", str(bot), "--bot", "talker")
    assert code == 0, err
    assert f"validation match: {server}/matches/" in out and "/api/v1/" not in out
    code, out, err = cli(capsys, "logs", "talker@1")
    assert code == 0, err
    assert out.startswith("talker v1 (version id ")
    assert "stderr of its validation match:" in out and "  | thinking about step " in out
    code, out, err = cli(capsys, "challenge", "--mode", "duel", "talker", "greedy", "--wait")
    assert code == 0, err
    match_id = out.split("challenge match ")[1].split()[0]
    code, out, err = cli(capsys, "logs", "--match", match_id)
    assert code == 0, err
    assert "seat 0 (talker v1):" in out and "  | thinking about step" in out
    assert "greedy" not in out  # only the caller's own seats
    code, _, err = cli(capsys, "logs")
    assert code == 2 and "name a version" in err and err.count("\n") == 1

    as_other(capsys, server, make_user)  # another author: the server gives him nothing
    code, out, err = cli(capsys, "logs", "talker@1")
    assert code == 3 and "are for its owner only" in err and err.count("\n") == 1
    assert "thinking" not in out + err
    code, out, err = cli(capsys, "logs", "--match", match_id)
    assert code == 3 and "has no seat of your bots" in err and "thinking" not in out + err

    from django.test import Client  # anonymous readers of the same API get null

    body = Client().get(f"/api/v1/matches/{match_id}/").json()
    assert [s["log"] for s in body["seats"]] == [None, None]


BROKEN_CPP = b"""#include <cstdio>
int main() {
    first_mistake();
    int x = "second mistake";
    return third_mistake;
}
"""


@pytest.mark.ci_required
@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_a_failed_cpp_build_shows_its_whole_log(server, capsys, tmp_path) -> None:  # noqa: ANN001, F811
    from tests.workers.starters import zip_bundle

    login(capsys, server)
    assert cli(capsys, "create", "broken")[0] == 0
    bundle = zip_bundle(tmp_path / "broken.zip", {"entrypoint": "main.cpp", "language": "cpp"},
                        {"main.cpp": BROKEN_CPP})  # fmt: skip
    code, out, err = cli(capsys, "submit", str(bundle), "--bot", "broken")
    assert code == 1
    assert err.startswith("failed: broken v1 (version id ") and "): build failed: " in err
    assert "build log (the whole compiler output kept):" in err
    for mistake in ("first_mistake", "second mistake", "third_mistake"):
        assert mistake in err, err  # every error, not only the first
    code, out, err = cli(capsys, "logs", "broken@1")
    assert code == 0, err
    assert "build log:" in out and "third_mistake" in out and "first_mistake" in out
    assert Path(bundle).exists()
