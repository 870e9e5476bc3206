"""An organiser runs a bracket from the command line: creates a double elimination (a bad
best-of refused in one line, exit 3), enters bots, starts it (its games play eagerly here)
and reads the champion and podium."""

from __future__ import annotations

import pytest

from .test_server_commands import cli, server  # noqa: F401 - the fixture

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_an_organiser_runs_a_bracket_from_the_command_line(server, capsys, make_user) -> None:  # noqa: ANN001, F811
    from tests.accounts import PASSWORD

    make_user("olga", organiser=True)
    code, _, err = cli(capsys, "login", "--server", server, "--username", "olga",
                       "--password-stdin", stdin=PASSWORD + "\n")  # fmt: skip
    assert code == 0, err
    code, _, err = cli(capsys, "league", "create", "CLI bracket", "--mode", "duel", "--seats",
                       "2", "--format", "double_elim", "--best-of", "2")  # fmt: skip
    assert code == 3 and err.count("\n") == 1
    assert "Best of must be an odd number from 1 to 9." in err
    code, out, err = cli(capsys, "league", "create", "CLI bracket", "--mode", "duel", "--seats",
                         "2", "--format", "double_elim", "--best-of", "1",
                         "--seeding", "random")  # fmt: skip
    assert code == 0 and "double_elim, draft" in out, err
    code, out, _ = cli(capsys, "league", "podium", "CLI bracket")
    assert code == 0 and "no podium yet" in out
    for bot in ("random", "greedy"):
        code, _, err = cli(capsys, "enter", "CLI bracket", bot)
        assert code == 0, err
    code, out, err = cli(capsys, "league", "start", "CLI bracket")
    assert code == 0, err
    code, out, err = cli(capsys, "league", "podium", "CLI bracket")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "CLI bracket (double_elim, closed)"
    assert lines[1].startswith(" 1. ") and lines[1].endswith("Champion")
    assert lines[2].startswith(" 2. ") and lines[2].endswith("Runner-up")
