"""The submit CLI against a real server: Django's live server in the embedded mode, where the
validation match plays inside the upload request. Login keeps the token in XDG_CONFIG_HOME;
every command's failure is one line with its exit code, never a traceback."""

from __future__ import annotations

import io
import json
import stat
from pathlib import Path

import pytest

from arena.cli import main
from tests.accounts import use_tmp_storages

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "bots"
pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def server(live_server, settings, tmp_path, monkeypatch):  # noqa: ANN001, ANN201
    use_tmp_storages(settings, tmp_path)
    from django.contrib.auth import get_user_model
    from django.core.cache import cache

    from tournament.services.bots import builtin_bots_register

    cache.clear()
    builtin_bots_register()
    get_user_model().objects.create_user("author", "a@example.com", "kitten-boat-42")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("ISLE_ARENA_SERVER", raising=False)
    monkeypatch.delenv("ISLE_ARENA_TOKEN", raising=False)
    return live_server.url


def cli(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str = "") -> tuple[int, str, str]:
    import sys

    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(list(argv))
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


def login(capsys: pytest.CaptureFixture[str], server: str) -> None:
    code, out, err = cli(capsys, "login", "--server", server, "--username", "author",
                         "--password-stdin", stdin="kitten-boat-42\n")  # fmt: skip
    assert code == 0, err
    assert f"logged in to {server} as author" in out


def test_login_keeps_the_token_for_the_owner_only(server, capsys, tmp_path) -> None:  # noqa: ANN001
    code, _, err = cli(capsys, "bots", "--server", server)
    assert code == 2 and err.startswith("error: not logged in to") and err.count("\n") == 1
    code, _, err = cli(capsys, "login", "--server", server, "--username", "author",
                       "--password-stdin", stdin="wrong-password\n")  # fmt: skip
    assert code == 3 and "the server refused (HTTP 400)" in err and err.count("\n") == 1
    login(capsys, server)
    path = tmp_path / "config" / "isle-arena" / "config.json"
    stored = json.loads(path.read_text())
    assert stored["server"] == server and stored["username"] == "author" and stored["token"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    code, out, _ = cli(capsys, "bots")
    assert code == 0 and "no bots yet" in out


def test_create_submit_challenge_and_download_a_replay(server, capsys, tmp_path) -> None:  # noqa: ANN001
    login(capsys, server)
    code, out, _ = cli(capsys, "create", "whiskers")
    assert code == 0 and "created bot whiskers" in out
    code, out, err = cli(capsys, "submit", str(EXAMPLES / "random_bot.py"), "--bot", "whiskers")
    assert code == 0, err
    assert "uploaded whiskers v1" in out and "ready: whiskers v1" in out

    code, out, _ = cli(capsys, "bots")
    assert code == 0 and "whiskers" in out and "v1 ready" in out

    code, out, err = cli(capsys, "challenge", "--mode", "duel", "whiskers", "greedy", "--wait")
    assert code == 0, err
    assert "whiskers v1, greedy v1" in out and ": finished" in out and "rank" in out
    match_id = int(out.split("challenge match ")[1].split()[0])

    code, out, _ = cli(capsys, "matches", "--mine", "--json")
    assert code == 0 and [m["id"] for m in json.loads(out)] == [match_id]

    target = tmp_path / "m.replay"
    code, out, err = cli(capsys, "replay", str(match_id), "-o", str(target))
    assert code == 0, err
    assert "sha256 as recorded" in out and "verified: ok" in out
    assert target.stat().st_size > 100
    code, out, _ = cli(capsys, "verify", str(target))
    assert code == 0


def test_a_failing_submission_shows_the_fault_and_the_log(server, capsys, tmp_path) -> None:  # noqa: ANN001
    login(capsys, server)
    cli(capsys, "create", "crasher")
    bot = tmp_path / "crasher.py"
    bot.write_text(
        "import sys\n"
        "print('loading my weights', file=sys.stderr)\n"
        "raise RuntimeError('no weights here')\n"
    )
    code, out, err = cli(capsys, "submit", str(bot), "--bot", "crasher")
    assert code == 1
    assert "uploaded crasher v1" in out
    assert err.startswith("failed: crasher v1")
    assert "fault: " in err
    assert "  | loading my weights" in err and "RuntimeError: no weights here" in err
    assert "Traceback (most recent call last)" not in err.split("log (the bot's stderr):")[0]


def test_mistakes_are_one_line_with_an_exit_code(server, capsys, tmp_path) -> None:  # noqa: ANN001
    login(capsys, server)
    cases = [
        (("submit", str(tmp_path / "nope.py"), "--bot", "x"), 2, "no such file"),
        (("submit", str(EXAMPLES / "random_bot.py"), "--bot", "ghost"), 3, "no bot named 'ghost'"),
        (("create", "bad/name"), 3, "HTTP 400"),
        (("challenge", "--mode", "duel", "random"), 3, "seats"),
        (("challenge", "--mode", "duel", "random@9", "greedy"), 3, "no version 9"),
        (("replay", "999999"), 3, "HTTP 404"),
        (("bots", "--server", "http://127.0.0.1:9"), 2, "not logged in to http://127.0.0.1:9"),
        (("matches", "--server", "http://127.0.0.1:9"), 4, "cannot reach http://127.0.0.1:9"),
    ]
    for argv, exit_code, message in cases:
        code, _, err = cli(capsys, *argv)
        assert (code, err.count("\n")) == (exit_code, 1), (argv, err)
        assert message in err and "Traceback" not in err, (argv, err)


def test_an_organiser_runs_a_league_from_the_command_line(server, capsys, make_user) -> None:  # noqa: ANN001
    from tests.accounts import PASSWORD

    make_user("olga", organiser=True)

    def as_user(username: str, password: str) -> None:
        code, _, err = cli(capsys, "login", "--server", server, "--username", username,
                           "--password-stdin", stdin=password + "\n")  # fmt: skip
        assert code == 0, err

    login(capsys, server)  # the author
    assert cli(capsys, "create", "whiskers")[0] == 0
    assert cli(capsys, "submit", str(EXAMPLES / "random_bot.py"), "--bot", "whiskers")[0] == 0
    code, _, err = cli(capsys, "league", "create", "Sly cup", "--mode", "duel", "--seats", "2",
                       "--format", "round_robin")  # fmt: skip
    assert code == 3 and "HTTP 403" in err and err.count("\n") == 1

    as_user("olga", PASSWORD)
    code, out, err = cli(capsys, "league", "create", "CLI cup", "--mode", "duel", "--seats", "2",
                         "--format", "round_robin", "--seeds", "2")  # fmt: skip
    assert code == 0, err
    assert "created league CLI cup" in out and "duel, 2 seats" in out and "draft" in out
    league_id = int(out.split("(id ")[1].split(",")[0])
    code, _, err = cli(capsys, "league", "create", "cli CUP", "--mode", "duel", "--seats", "2",
                       "--format", "round_robin")  # fmt: skip
    assert code == 3 and err.count("\n") == 1 and "name" in err
    code, out, _ = cli(capsys, "leagues", "--status", "draft")
    assert code == 0 and "CLI cup" in out and "duel, 2 seats" in out
    code, out, err = cli(capsys, "league", "create", "Quiet cup", "--mode", "duel", "--seats",
                         "2", "--format", "round_robin", "--private")  # fmt: skip
    assert code == 0, err
    code, out, err = cli(capsys, "league", "invite", "Quiet cup", "author")
    assert code == 0 and "invited author to Quiet cup" in out, err

    as_user("author", "kitten-boat-42")
    code, out, err = cli(capsys, "enter", "cli cup", "whiskers")  # names are case-insensitive
    assert code == 0, err
    assert "entered whiskers v1 in CLI cup (entry" in out
    code, out, err = cli(capsys, "enter", "Quiet cup", "whiskers@1")  # private, but invited
    assert code == 0 and "entered whiskers v1 in Quiet cup" in out, err
    code, _, err = cli(capsys, "enter", "CLI cup", "greedy")  # not the author's bot
    assert code == 3 and err.count("\n") == 1 and "Traceback" not in err
    code, _, err = cli(capsys, "league", "start", "CLI cup")  # not the author's league
    assert code == 3 and "HTTP 403" in err

    as_user("olga", PASSWORD)
    code, out, err = cli(capsys, "enter", str(league_id), "greedy")  # the organiser may
    assert code == 0, err
    code, out, err = cli(capsys, "league", "start", "CLI cup")  # matches play eagerly here
    assert code == 0, err
    assert out.startswith("CLI cup: ") and f"python -m arena ladder {league_id}" in out
    code, out, _ = cli(capsys, "matches", "--league", "CLI cup", "--json")
    matches = json.loads(out)
    assert code == 0 and len(matches) == 4  # two seats orders x two deals
    assert {m["status"] for m in matches} == {"finished"}

    code, out, _ = cli(capsys, "ladder", "CLI cup", "--json")
    body = json.loads(out)
    rows = body["ladder"]
    assert code == 0 and [r["rank"] for r in rows] == [1, 2]
    assert {r["bot"] for r in rows} == {"whiskers", "greedy"}
    assert all(r["games"] == 4 and r["wins"] + r["draws"] + r["losses"] == 4 for r in rows)
    code, out, _ = cli(capsys, "ladder", "CLI cup")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "CLI cup (duel, 2 seats, round_robin, closed): ordered by elo"
    for row, line in zip(rows, lines[2:4], strict=True):
        assert line.split()[:3] == [str(row["rank"]), f"{row['bot']}", f"v{row['version']}*"
                                    if row["provisional"] else f"v{row['version']}"]
        assert f"{row['wins']}-{row['draws']}-{row['losses']}" in line
        assert f"{row['elo']:.1f}" in line and f"{row['mean_score']:.1f}" in line
        assert line.split()[-1] == str(row["faults"]) == "0"  # the faults column

    code, out, err = cli(capsys, "league", "order", "CLI cup", "conservative")
    assert code == 0 and "ordered by conservative" in out, err
    code, out, _ = cli(capsys, "ladder", str(league_id))
    assert out.splitlines()[0].endswith("ordered by conservative")
    code, _, err = cli(capsys, "ladder", "nope")
    assert code == 3 and "no league named 'nope'" in err and err.count("\n") == 1

    # solo results say who won, the bot or the sister, instead of rank 1 or 2
    code, out, err = cli(capsys, "challenge", "--mode", "solo", "--difficulty", "easy", "greedy",
                         "--wait")  # fmt: skip
    assert code == 0, err
    assert "rank won" in out or "rank sister won" in out
    code, out, _ = cli(capsys, "matches", "--mine")
    assert ", won)" in out or ", sister won)" in out
