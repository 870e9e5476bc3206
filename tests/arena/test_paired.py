"""``python -m arena arena --paired A,B``: the tournament's paired comparison, played locally."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "bots"


def test_paired_finds_greedy_better_than_random_in_the_duel(capsys: pytest.CaptureFixture):
    assert main(["arena", "--paired", "random,greedy", "--mode", "duel"]) == 0
    out = capsys.readouterr().out
    assert "A = random, B = greedy, against random" in out
    assert "SPRT    elo0 +0, elo1 +40, alpha 0.05, beta 0.05" in out
    assert "LLR                +3.04  (bounds -2.94 .. +2.94)" in out
    assert "games              112 (28 seeds x 2 rotations x 2)" in out  # stopped early
    assert "(90% interval +520.8 .. +inf)" in out
    assert "pentanomial        0 0 0 0 28" in out
    assert "verdict            H1 accepted: B is stronger than A (Elo above +0)" in out


def test_paired_json_matches_the_shared_analysis(capsys: pytest.CaptureFixture):
    from workers.paired_play import run_local

    argv = ["arena", "--paired", "random,random", "--mode", "duel", "--seeds", "5", "--seed",
            "3", "--json"]  # fmt: skip
    assert main(argv) == 0
    body = json.loads(capsys.readouterr().out)
    same = run_local(a="random", b="random", opponents=["random"], mode="duel", seats=2,
                     seeds=5, base_seed=3)  # fmt: skip
    assert body["mean_diff"] == round(same.mean_diff, 6) and body["verdict"] == same.verdict
    assert body["verdict"] == "inconclusive at the cap (5 seeds): neither bound reached"
    assert body["games"] == 20 and body["capped"] and body["decision"] is None
    assert body["elo_low"] < body["elo"] < body["elo_high"] and len(body["course"]) == 5


def test_paired_jobs_and_log_give_the_same_figures(tmp_path: Path, capsys: pytest.CaptureFixture):
    """``--jobs 2`` plays the same games (same figures as one process); ``--paired-log`` keeps
    every game's result, which ``analyse_log`` turns into the same figures; ranks are in."""
    from workers.paired_play import analyse_log

    log = tmp_path / "games.jsonl"
    base = ["arena", "--paired", "random,greedy", "--mode", "standard", "--players", "3",
            "--seeds", "2", "--json"]  # fmt: skip
    assert main(base) == 0
    serial = json.loads(capsys.readouterr().out)
    assert main([*base, "--jobs", "2", "--paired-log", str(log)]) == 0
    parallel = json.loads(capsys.readouterr().out)
    assert parallel == serial
    assert serial["mean_rank_diff"] is not None and len(serial["counts"]) == 7
    assert len(log.read_text().splitlines()) == serial["games"] == 12
    again = analyse_log(str(log), rotations=3, cap=2)
    assert round(again.mean_diff, 6) == serial["mean_diff"]
    assert round(again.mean_rank_diff, 6) == serial["mean_rank_diff"]


def test_paired_plays_bot_files_and_solo(capsys: pytest.CaptureFixture):
    bot = str(EXAMPLES / "random_bot.py")
    assert main(["arena", "--paired", f"random,{bot}", "--mode", "duel", "--seeds", "1",
                 "--json"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["games"] == 4
    argv = ["arena", "--paired", "random,greedy", "--mode", "solo", "--players", "1",
            "--option", "difficulty=easy", "--seeds", "2", "--json"]  # fmt: skip
    assert main(argv) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["opponents"] == [] and body["games"] == 4


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--paired", "random"], "--paired takes two bots"),
        (["--paired", "random,nope.py"], "no such file: nope.py"),
        (["--paired", "random,greedy", "--bots", "random,random"], "at most 1 opponents"),
        (["--paired", "random,greedy", "--seeds", "0"], "--seeds must be"),
        (["--paired", "random,greedy", "--elo0", "5", "--elo1", "2"],
         "the SPRT's lower bound elo0 (5) must be below elo1 (2)"),
        (["--paired", "random,greedy", "--elo0", "3", "--elo1", "3"], "must be below elo1"),
        (["--paired", "random,greedy", "--alpha", "0.6"], "alpha must be between 0 and 0.5"),
        (["--paired", "random,greedy", "--beta", "0"], "beta must be between 0 and 0.5"),
        ([], "name the bots"),
        # A flag the variant would ignore is an error naming the one that applies.
        (["--paired", "random,greedy", "--games", "10"],
         "--games does not apply to --paired: its cap is --seeds N"),
        (["--paired", "random,greedy", "--replays", "out"], "--replays does not apply"),
        (["--paired", "random,greedy", "--time-limit", "2"], "--time-limit does not apply"),
        (["--bots", "random,greedy", "--seeds", "10"],
         "--seeds is the cap of --paired A,B; without --paired, the number of games is --games"),
        (["--bots", "random,greedy", "--elo1", "10"], "--elo1 applies only to --paired A,B"),
        (["--bots", "random,greedy", "--paired-log", "x"], "--paired-log applies only to"),
        (["--paired", "random,greedy", "--mode", "solo", "--players", "1", "--bots", "greedy"],
         "--bots does not apply to a solo --paired run"),
    ],
)
def test_paired_bad_input_is_one_line_and_exit_2(argv, message, capsys: pytest.CaptureFixture):
    assert main(["arena", "--mode", "duel", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err
