"""``python -m engine play`` and ``bench``: agents built in one place, readable and JSON
results, replays, and one readable error (exit 2) for every mistake a user can make."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.commands.play import build_agents
from engine.errors import ConfigError


def test_build_agents_maps_builtin_names_per_seat() -> None:
    agents = build_agents(["greedy", "random", " random"], "standard", 3, 7)
    assert [a.name for a in agents] == ["greedy", "random", "random"]
    assert all(a.trusted for a in agents)


def test_build_agents_refuses_a_wrong_count_and_unknown_bots() -> None:
    with pytest.raises(ConfigError, match="one bot per player"):
        build_agents(["random"], "standard", 2, 1)
    with pytest.raises(ConfigError, match="unknown bot 'clever'"):
        build_agents(["random", "clever"], "standard", 2, 1)


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
        (["play", "--players", "2", "--option", "speed=fast"], "no option 'speed'"),
    ],
)
def test_mistakes_exit_2_with_one_readable_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_replay_is_written_and_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("replays.format")
    path = tmp_path / "game.replay"
    assert main(["play", "--players", "2", "--seed", "5", "--replay", str(path)]) == 0
    assert path.stat().st_size > 100
    capsys.readouterr()
    assert main(["verify", str(path)]) == 0
    assert "match" in capsys.readouterr().out


def test_bench_reports_games_per_second_and_enumeration(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0.2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    line = report["games_per_second"][0]
    assert line["mode"] == "standard" and line["seats"] == 4 and line["games"] >= 1
    assert set(report["enumeration"]) == {"empty", "half-full", "nearly full"}
    assert all(fig["median_us"] > 0 for fig in report["enumeration"].values())
    base = report["against_baseline"]
    assert "skipped" in base or (base["games_per_side"] >= 4 and base["speedup"] > 0), base


def test_bench_compares_with_the_baseline_engine_on_the_same_seeds() -> None:
    """Both engines really play (the baseline from git history), or the reason is given."""
    from engine.commands.bench import BENCH

    spec = importlib.util.spec_from_file_location("isle_bench_engine_test", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    missing = module.compare_with_baseline(0.0, commit="0" * 40)
    assert "not in this checkout's history" in missing["skipped"] or "git" in missing["skipped"]
    figures = module.compare_with_baseline(0.0, block=1)
    if "skipped" in figures:
        pytest.skip(figures["skipped"])
    assert figures["games_per_side"] == 1
    assert figures["baseline_games_per_second"] > 0 and figures["games_per_second"] > 0


def test_bench_can_skip_the_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0.05", "--no-baseline"]) == 0
    assert "against the baseline engine: skipped (--no-baseline)" in capsys.readouterr().out
