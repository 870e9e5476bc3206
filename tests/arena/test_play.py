"""``python -m arena play``: seats built in one place, readable and JSON results, replays, and
one readable error (exit 2) for every mistake a user can make."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.seats import seat_specs
from engine.errors import ConfigError


def test_seat_specs_map_builtin_names_per_seat() -> None:
    seats = seat_specs(["greedy", "random", " random"], 3)
    assert [s.builtin for s in seats] == ["greedy", "random", "random"]


def test_seat_specs_refuse_a_wrong_count_unknown_bots_and_missing_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="one bot per player"):
        seat_specs(["random"], 2)
    with pytest.raises(ConfigError, match="unknown bot 'clever'"):
        seat_specs(["random", "clever"], 2)
    missing = str(tmp_path / "mybot.py")
    with pytest.raises(ConfigError, match=f"no such file: {missing}"):
        seat_specs(["random", missing], 2)
    with pytest.raises(ConfigError, match="no such file: mybot.py"):
        seat_specs(["mybot.py", "random"], 2)
    with pytest.raises(ConfigError, match="not a file"):
        seat_specs([str(tmp_path), "random"], 2)


def test_a_family_score_table_keeps_its_tiebreak_header_apart(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["play", "--mode", "family", "--players", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "rankfilled_rooms" not in out
    header = next(line for line in out.splitlines() if line.startswith("seat") and "rank" in line)
    assert header.split() == ["seat", "bot", "score", "rank", "filled_rooms"]


def test_play_prints_scores_breakdown_and_boats(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "play",
                "--mode",
                "standard",
                "--players",
                "4",
                "--seed",
                "7",
                "--bots",
                "greedy,random,random,random",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "seed 7" in out and "families" in out and "rare_treasures" in out
    assert out.count(" boat, ") == 4 and "winner(s): seat" in out
    assert "+" in out or "x" in out  # the ASCII boats show maps or rats


def test_play_json_is_one_object_with_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "2", "--seed", "3", "--bots", "greedy,random", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mode"] == "standard" and data["seed"] == 3 and data["seats"] == 2
    for key in (
        "engine_version",
        "scores",
        "breakdown",
        "ranks",
        "winners",
        "boats",
        "state_hash",
        "tiebreak",
    ):
        assert key in data
    assert data["boats"][0]["boat"] in ("blue", "green", "red", "purple")
    again = json.loads(
        _run_json(
            capsys, ["play", "--players", "2", "--seed", "3", "--bots", "greedy,random", "--json"]
        )
    )
    assert again["state_hash"] == data["state_hash"], "same seed and bots: same game"


def _run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["play", "--players", "3", "--bots", "greedy,random"], "one bot per player"),
        (["play", "--players", "5"], "2-4 seats"),
        (["play", "--mode", "chess"], "unknown mode"),
        (["play", "--bots", "random,nowhere/mybot.py"], "no such file: nowhere/mybot.py"),
        (["play", "--players", "2", "--option", "speed=fast"], "no option 'speed'"),
        (["play", "--no-browser"], "--no-browser applies only to --watch"),
    ],
)
def test_mistakes_exit_2_with_one_readable_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_replay_is_written_and_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.replay"
    assert main(["play", "--players", "2", "--seed", "5", "--replay", str(path)]) == 0
    assert path.stat().st_size > 100
    capsys.readouterr()
    assert main(["verify", str(path)]) == 0
    assert "match" in capsys.readouterr().out


def test_narrate_tells_the_set_up_then_every_step(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--mode", "duel", "--seed", "2", "--bots", "greedy,random",
                 "--narrate"]) == 0  # fmt: skip
    lines = capsys.readouterr().out.splitlines()
    steps = [line for line in lines if line[:1].isdigit() and ". " in line]
    assert lines[0].startswith("  ")  # the set-up, before the first step
    assert steps[0].startswith("1. ") and "(seat " in steps[0]
    assert [int(s.split(".")[0]) for s in steps] == list(range(1, len(steps) + 1))
    assert any(line.startswith("winner(s):") for line in lines)
