"""``python -m engine bench``: the one command left under ``python -m engine`` (it needs nothing
but the engine), and the authors' commands gone from it to ``python -m arena``."""

from __future__ import annotations

import importlib.util
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
    assert main(["bench", "--seconds", "0.05", "--no-baseline"]) == 0
    assert "against the baseline engine: skipped (--no-baseline)" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["play", "arena", "verify"])
def test_authors_commands_live_in_arena_not_engine(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "--help"]) == 2
    err = capsys.readouterr().err
    assert err == f"error: `python -m engine {command}` is now `python -m arena {command}`\n"
