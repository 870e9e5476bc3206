"""``arena analyse REPLAY [--seat K]`` (arena/commands/analyse.py): offline, a table."""

from __future__ import annotations

import pytest

from arena.cli import main
from replayfile import decision_review
from replayfile.format import document_from_game, encode
from replayfile.recording import header_for_bots, play_recorded


@pytest.fixture
def replay(tmp_path):
    game, steps = play_recorded("duel", 2, 3)
    path = tmp_path / "duel.replay"
    path.write_bytes(encode(document_from_game(game, steps, header_for_bots(2))))
    return path


def test_the_chances_are_printed_with_their_intervals(replay, capsys):
    assert main(["analyse", str(replay), "--playouts", "50"]) == 0
    out = capsys.readouterr().out
    assert "50 playouts per point by uniform random" in out and "Wilson score" in out
    assert out.count("[") >= 4 and "start" in out and "result" in out


def test_a_seats_decisions_are_printed_costliest_first(replay, capsys, monkeypatch):
    monkeypatch.setitem(decision_review.BUDGET, "duel", (2, 6))
    assert main(["analyse", str(replay), "--seat", "0", "--all"]) == 0
    out = capsys.readouterr().out
    assert "decisions with a choice judged from the seat's information" in out
    assert "? >= 10%, ?? >= 15%" in out and "step" in out and "taken" in out
    assert "12 playouts per action" in out


def test_bad_input_is_one_readable_line(replay, tmp_path, capsys):
    assert main(["analyse", str(replay), "--seat", "2"]) == 2
    assert capsys.readouterr().err.strip() == "error: seat 2 is not in this 2-seat game " \
        "(seats 0..1)"
    assert main(["analyse", str(tmp_path / "missing.replay")]) == 2
    assert capsys.readouterr().err.startswith("error: cannot read replay:")
