"""``python -m engine bench``: the one command left under ``python -m engine`` (it needs nothing
but the engine), and the authors' commands gone from it to ``python -m arena``."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main


def test_bench_reports_games_per_second_and_enumeration(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0.01", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    line = report["games_per_second"][0]
    assert line["mode"] == "standard" and line["seats"] == 4 and line["games"] >= 1
    assert set(report["enumeration"]) == {"empty", "half-full", "nearly full"}
    assert all(fig["median_us"] > 0 for fig in report["enumeration"].values())
    base = report["against_baseline"]
    assert "skipped" in base or (base["games_per_side"] >= 4 and base["speedup"] > 0), base
    forward = report["forward"]  # the forward model's figures, Duel and 4-player standard
    for case in ("duel-2", "standard-4"):
        figures = forward["current"][case]
        assert set(figures) == {"determinizations_per_second", "clone_per_second",
                                "playouts_per_second", "greedy_games_per_second"}
        assert all(v > 0 for v in figures.values())
        before = forward["baseline"]
        assert "skipped" in before or (before[case]["clone_per_second"] > 0
                                       and "determinizations_per_second" not in before[case])
    envs = report["environments"]  # steps/s of each training environment (bench/envs.py)
    assert set(envs["current"]) == {"aec_standard_4", "gymnasium_standard_4_vs_greedy",
                                    "vector_duel_8"}
    assert all(f["steps_per_second"] > 0 and f["games"] >= 1 for f in envs["current"].values())
    before = envs["baseline"]
    assert "skipped" in before or (before["aec_standard_4"]["steps_per_second"] > 0
                                   and "vector_duel_8" not in before)


@pytest.mark.ci_required  # a clean clone has the history that holds the baseline engine
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
    assert main(["bench", "--seconds", "0.01", "--no-baseline"]) == 0
    assert "against the baseline engine: skipped (--no-baseline)" in capsys.readouterr().out


def test_bench_runs_without_the_optional_packages_and_says_what_it_skipped(
    tmp_path: Path,
) -> None:
    """requirements.txt alone (what scripts/demo.sh installs) has no Gymnasium or PettingZoo:
    the bench times everything else and gives one line per figure it skipped. The packages
    are made missing by stand-ins first on the path that fail to import, as a missing one
    does."""
    for name in ("gymnasium", "pettingzoo"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(
            f'raise ModuleNotFoundError("No module named {name!r}", name={name!r})\n'
        )
    repo = Path(__file__).resolve().parents[3]
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "engine", "bench", "--seconds", "0.01", "--no-baseline"],
        cwd=repo, env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    skipped = [line for line in lines if "skipped (" in line and line.startswith("environment")]
    assert skipped == [
        "environment: PettingZoo AEC, standard 4 players, random policy: skipped (gymnasium "
        "and pettingzoo not installed: pip install -r requirements-env.txt)",
        "environment: Gymnasium, standard 4 players, random policy against 3x greedy: skipped "
        "(gymnasium not installed: pip install -r requirements-env.txt)",
        "environment: vector runner, 8 Duels at once against random, random policy: skipped "
        "(gymnasium not installed: pip install -r requirements-env.txt)",
    ]
    assert any(line.startswith("standard, 4 players, random bots:") for line in lines)
    assert any(line.startswith("forward model, duel 2 players") for line in lines)


@pytest.mark.parametrize("command", ["play", "arena", "verify"])
def test_authors_commands_live_in_arena_not_engine(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "--help"]) == 2
    err = capsys.readouterr().err
    assert err == f"error: `python -m engine {command}` is now `python -m arena {command}`\n"
