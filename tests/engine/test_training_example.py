"""The training example runs end to end on a tiny budget and reports intervals."""

from __future__ import annotations

import json
import subprocess
import sys


def test_training_example_reports_before_and_after_with_intervals(repo_root):
    args = [sys.executable, str(repo_root / "examples" / "training" / "train_duel.py"),
            "--iterations", "1", "--population", "3", "--games", "1", "--eval-games", "4",
            "--json"]
    runs = [subprocess.run(args, capture_output=True, text=True, check=True, timeout=300)
            for _ in range(2)]
    report = json.loads(runs[0].stdout)
    for key in ("before", "after"):
        r = report[key]
        assert r["games"] == 4
        assert r["win_rate_95"][0] <= r["win_rate"] <= r["win_rate_95"][1]
        assert r["score_diff_95"][0] <= r["score_diff"] <= r["score_diff_95"][1]
    assert runs[0].stdout == runs[1].stdout  # seeded: the same run twice
