"""``arena test`` against a real server (Django's live server in the embedded mode, where a
match plays inside the request that queues it): a named version, a file uploaded first, the
server draft of a bot, and the mistakes and refusals as one line with an exit code."""

from __future__ import annotations

import json

import pytest

from tests.arena.test_server_commands import EXAMPLES, cli, login, server  # noqa: F401

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_a_named_version_plays_a_private_test_game(server, capsys, settings, monkeypatch) -> None:  # noqa: ANN001, F811
    opened = []
    monkeypatch.setattr("webbrowser.open", lambda url: opened.append(url) or True)
    login(capsys, server)
    cli(capsys, "create", "tinker")
    code, _, err = cli(capsys, "submit", str(EXAMPLES / "random_bot.py"), "--bot", "tinker")
    assert code == 0, err
    code, out, err = cli(capsys, "test", "tinker", "--vs", "greedy", "--mode", "duel",
                         "--seed", "11", "--watch")  # fmt: skip
    assert code == 0, err
    match_id = int(out.split("test game ")[1].split()[0])
    assert f"watch it: {server}/matches/{match_id}/" in out
    assert opened == [f"{server}/matches/{match_id}/"]
    assert f"match {match_id} (duel, test): finished" in out
    assert "tinker v1" in out and "greedy v1" in out
    # private: not in the public list, in the author's own
    code, out, _ = cli(capsys, "matches", "--json")
    assert code == 0 and match_id not in [m["id"] for m in json.loads(out)]


def test_a_file_is_uploaded_first_then_tested(server, capsys, tmp_path) -> None:  # noqa: ANN001, F811
    login(capsys, server)
    cli(capsys, "create", "drafty")
    bot = tmp_path / "draft.py"
    bot.write_text((EXAMPLES / "random_bot.py").read_text())
    code, out, err = cli(capsys, "test", str(bot), "--bot", "drafty", "--vs", "random,greedy",
                         "--mode", "standard")  # fmt: skip
    assert code == 0, err
    assert "uploaded drafty v1" in out
    assert "(standard, test): finished" in out and "seat 2" in out


def test_the_draft_of_a_bot_plays_as_it_is(server, capsys) -> None:  # noqa: ANN001, F811
    from django.contrib.auth import get_user_model

    from tournament.models import Bot
    from tournament.services import drafts

    login(capsys, server)
    cli(capsys, "create", "sketch")
    bot = Bot.objects.get(name="sketch")
    author = get_user_model().objects.get(username="author")
    drafts.draft_save(bot=bot, user=author, filename="bot.py",
                      source=(EXAMPLES / "random_bot.py").read_text())  # fmt: skip
    code, out, err = cli(capsys, "test", "--draft", "sketch", "--vs", "greedy", "--seed", "5")
    assert code == 0, err
    assert "(duel, test): finished" in out and "sketch (draft), greedy v1" in out
    assert not bot.versions.exists()  # the draft was played, not submitted
    code, _, err = cli(capsys, "test", "sketch", "--draft", "sketch", "--vs", "greedy")
    assert code == 2 and err == (
        "error: give exactly one of VERSION_OR_FILE (a version or a file) and --draft BOT\n"
    )


def test_mistakes_and_caps_are_one_line_with_an_exit_code(
    server, capsys, tmp_path, settings  # noqa: ANN001, F811
) -> None:
    settings.TEST_GAMES_PER_DAY = 1
    login(capsys, server)
    cli(capsys, "create", "capped")
    code, _, err = cli(capsys, "submit", str(EXAMPLES / "random_bot.py"), "--bot", "capped")
    assert code == 0, err
    code, _, err = cli(capsys, "test", str(tmp_path / "nope.py"), "--bot", "capped",
                       "--vs", "greedy")  # fmt: skip
    assert code == 2 and err == f"error: no such file: {tmp_path / 'nope.py'}\n"
    code, _, err = cli(capsys, "test", "missing.py", "--vs", "greedy")
    assert code == 2 and err.startswith("error: testing a file needs --bot NAME") \
        and err.count("\n") == 1
    code, _, err = cli(capsys, "test", "capped", "--vs", "grumpy")
    assert code == 3 and err.count("\n") == 1 and "no bot named 'grumpy'" in err
    code, _, err = cli(capsys, "test", "capped", "--vs", "greedy", "--mode", "chess")
    assert code == 3 and err.count("\n") == 1 and "Unknown or unavailable mode 'chess'" in err
    code, _, err = cli(capsys, "test", "capped", "--vs", "greedy", "--no-wait")
    assert code == 0, err
    code, _, err = cli(capsys, "test", "capped", "--vs", "greedy")
    assert code == 3 and err.count("\n") == 1
    assert "the server refused (HTTP 429): You have played 1 test game in the last 24 hours" \
        in err and "Try again in" in err
