"""``python -m engine bench``: the one command left under ``python -m engine`` (it needs nothing
but the engine), and the authors' commands gone from it to ``python -m arena``."""

from __future__ import annotations

import json

import pytest

from engine.cli import main


def test_bench_reports_games_per_second_and_enumeration(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0.2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    line = report["games_per_second"][0]
    assert line["mode"] == "standard" and line["seats"] == 4 and line["games"] >= 1
    assert set(report["enumeration"]) == {"empty", "half-full", "nearly full"}
    assert all(fig["median_us"] > 0 for fig in report["enumeration"].values())


@pytest.mark.parametrize("command", ["play", "arena", "verify"])
def test_authors_commands_live_in_arena_not_engine(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([command, "--help"])
    assert stopped.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
