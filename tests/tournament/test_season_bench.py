"""bench/season.py (a season against the ladder's scheduler) and bench/season_seeds.py (its
comparison with and without divisions over seeds), run small."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench(name: str):  # noqa: ANN202 - a module
    """A bench script as a module, without putting bench/ on the path (its engine.py and
    replays.py would hide the packages)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


season = _bench("season")
season_seeds = _bench("season_seeds")

SMALL = ["--bots", "60", "--burst", "20", "--workers", "2", "--before-minutes", "2",
         "--burst-minutes", "6"]  # fmt: skip


def test_student_t_matches_the_tables():
    for df, quantile in ((1, 12.706), (2, 4.303), (4, 2.776), (7, 2.365), (30, 2.042)):
        assert season_seeds.t_quantile_975(df) == pytest.approx(quantile, abs=1e-3)
    assert season_seeds.t_two_sided_p(0.0, 5) == pytest.approx(1.0)
    assert season_seeds.t_two_sided_p(2.776, 4) == pytest.approx(0.05, abs=1e-4)
    summary = season_seeds.t_summary([1.0, 2.0, 3.0])
    assert summary["mean"] == 2.0 and summary["low"] == pytest.approx(2.0 - 4.303 / 3**0.5, 1e-3)


def test_a_newcomers_first_match_goes_ahead_of_the_backlog():
    ahead = season.simulate(season.parser().parse_args([*SMALL, "--seed", "3"]))
    one_queue = season.simulate(season.parser().parse_args([*SMALL, "--seed", "3", "--one-queue"]))
    # the lane ahead: a free slot and one match (~5 s); one queue: the whole backlog first
    assert ahead["first_match_wait_s"]["p90"] < 15 < one_queue["first_match_wait_s"]["median"]
    assert ahead["matches_per_bot_hour_before"] == one_queue["matches_per_bot_hour_before"]


def test_seeds_compare_with_and_without_divisions(tmp_path):
    out = tmp_path / "runs.jsonl"
    command = [sys.executable, str(ROOT / "bench" / "season_seeds.py"), "--seeds", "1-2",
               "--divisions", "20", "--jobs", "1", "--out", str(out), "--json",
               "--", *SMALL]  # fmt: skip
    report = json.loads(subprocess.run(command, capture_output=True, text=True, check=True,
                                       timeout=300).stdout)  # fmt: skip
    assert report["seeds"] == [1, 2] and len(out.read_text().splitlines()) == 4
    diff = report["differences"]["rank_correlation_old.spearman"]
    assert len(diff["per_seed"]) == 2 and diff["low"] <= diff["mean"] <= diff["high"]
    assert (diff["p"] < 0.05) == (not diff["low"] <= 0 <= diff["high"])
    # a second call finds every run in the file and runs none again
    again = json.loads(subprocess.run(command, capture_output=True, text=True, check=True,
                                      timeout=300).stdout)  # fmt: skip
    assert again == report and len(out.read_text().splitlines()) == 4
