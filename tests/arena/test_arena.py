"""``python -m arena arena``: seat rotations, parallel games, the table and its JSON."""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path

import pytest

from arena.cli import main
from arena.commands.arena import Progress, lineups
from engine import ConfigError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "bots"


@pytest.mark.parametrize(("bots", "seats"), [(1, 4), (2, 4), (3, 4), (4, 4), (3, 2), (5, 3)])
def test_every_bot_sits_in_every_seat_equally(bots: int, seats: int) -> None:
    tables = lineups([str(b) for b in range(bots)], seats)
    assert len(tables) == max(bots, seats)
    per_seat = [Counter(table[s] for table in tables) for s in range(seats)]
    assert all(counts == per_seat[0] for counts in per_seat)  # same mix in every seat
    assert set(per_seat[0]) == set(range(bots))  # everybody plays


def test_fewer_bots_fill_the_table_cyclically() -> None:
    assert lineups(["a", "b", "c"], 4)[0] == [0, 1, 2, 0]


def test_progress_without_a_terminal_prints_the_first_game_and_every_tenth() -> None:
    stream = io.StringIO()
    progress = Progress(20, stream)
    for done in range(1, 21):
        progress.update(done)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 11 and lines[-1].startswith("[" + "#" * 30 + "] 20/20 games")


@pytest.mark.slow
def test_arena_json_between_built_in_bots(capsys: pytest.CaptureFixture) -> None:
    argv = ["arena", "--mode", "standard", "--players", "2", "--bots", "greedy,random",
            "--games", "6", "--jobs", "2", "--json"]  # fmt: skip
    assert main(argv) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert (data["games"], data["deals"], data["rotations"]) == (6, 3, 2)
    rows = {row["bot"]: row for row in data["bots"]}
    assert rows["greedy"]["seats_played"] == rows["random"]["seats_played"] == 6
    assert rows["greedy"]["wins"] + rows["random"]["wins"] >= 6  # shared wins count for both
    assert rows["greedy"]["elo"] > rows["random"]["elo"]
    low, high = rows["greedy"]["win_rate_ci"]
    assert low <= rows["greedy"]["win_rate"] <= high
    assert "6/6 games" in err


@pytest.mark.slow
def test_arena_plays_bot_files_in_the_sandbox(capsys: pytest.CaptureFixture) -> None:
    bots = f"{EXAMPLES / 'heuristic_bot.py'},random"
    assert main(["arena", "--mode", "standard", "--bots", bots, "--games", "2", "--jobs", "1",
                 "--time-limit", "2"]) == 0  # fmt: skip
    out, _ = capsys.readouterr()
    assert "2 games (1 deals x 2 rotations)" in out
    assert "heuristic_bot.py" in out and "faults" in out


def test_arena_refuses_bad_input() -> None:
    with pytest.raises(ConfigError, match="unknown bot 'clever'"):
        main_raising(["arena", "--bots", "clever,random"])
    with pytest.raises(ConfigError, match="--games must be at least 1"):
        main_raising(["arena", "--bots", "random", "--games", "0"])


def main_raising(argv: list[str]) -> None:
    """Run the command without the CLI's error-to-exit-code wrapping."""
    from arena.cli import build_parser

    args = build_parser().parse_args(argv)
    args.func(args)


def _record(lineup, ranks, scores=None, **kw):  # noqa: ANN001, ANN202
    from arena.commands.arena import GameRecord

    return GameRecord(tuple(lineup), list(scores or [10 - r for r in ranks]), list(ranks), [],
                      0.1, **kw)  # fmt: skip


def test_mean_rank_intervals_stay_within_one_and_the_seats() -> None:
    from arena.commands.arena import summarise, summarise_seats

    # bot 0 nearly always first, bot 1 nearly always last: normal intervals would leave [1, 2]
    records = [_record((0, 1), (1, 2)) for _ in range(9)] + [_record((1, 0), (1, 2))]
    for row in summarise(["a", "b"], records, 2) + summarise_seats(records, 2):
        low, high = row["mean_rank_ci"]
        assert 1 <= low <= row["mean_rank"] <= high <= 2
    best = summarise(["a", "b"], records, 2)[0]
    assert best["mean_rank_ci"][0] == 1  # clipped, not 0.8


def test_solo_sets_each_bot_against_the_sister_without_elo() -> None:
    from arena.commands.arena import summarise

    records = [
        _record((0,), (1,), scores=[60], sister=50.0, won=True),
        _record((0,), (2,), scores=[40], sister=55.0, won=False),
        _record((0,), (1,), scores=[70], sister=45.0, won=True),
    ]
    [row] = summarise(["mine.py"], records, 1)
    assert "elo" not in row and "mean_rank" not in row
    assert (row["wins"], row["seats_played"]) == (2, 3)
    assert row["sister_score"] == pytest.approx(50.0) and row["margin"] == pytest.approx(20 / 3)
    low, high = row["margin_ci"]
    assert low < row["margin"] < high


@pytest.mark.slow
def test_solo_arena_prints_score_against_the_sister(capsys: pytest.CaptureFixture) -> None:
    argv = ["arena", "--mode", "solo", "--bots", "greedy", "--games", "3", "--jobs", "1",
            "--difficulty", "medium"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "1 players" not in out and "Elo" not in out
    assert "solo against the sister (medium), 3 games" in out
    header, row = out.splitlines()[2:4]
    assert "sister (95% CI)" in header and "margin (95% CI)" in header
    assert row.startswith("greedy") and row.count("[") == 4


@pytest.mark.slow
def test_arena_json_gives_per_seat_figures_and_writes_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    folder = tmp_path / "games"
    argv = ["arena", "--mode", "duel", "--bots", "greedy,random", "--games", "4", "--jobs", "2",
            "--json", "--replays", str(folder)]  # fmt: skip
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert [s["seat"] for s in data["seats"]] == [0, 1]
    for seat in data["seats"]:
        assert seat["games"] == 4
        assert seat["win_rate_ci"][0] <= seat["win_rate"] <= seat["win_rate_ci"][1]
        assert seat["mean_score_ci"][0] <= seat["mean_score"] <= seat["mean_score_ci"][1]
        assert 1 <= seat["mean_rank_ci"][0] <= seat["mean_rank_ci"][1] <= 2
    assert {b["bot"] for b in data["bots"]} == {"greedy", "random"}
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == [
        "seed0-rotation0.replay", "seed0-rotation1.replay",
        "seed1-rotation0.replay", "seed1-rotation1.replay",
    ]  # fmt: skip
    assert main(["verify", *map(str, files)]) == 0
    assert capsys.readouterr().out.count("ok") == 4


def test_arena_names_a_missing_bot_file() -> None:
    with pytest.raises(ConfigError, match="no such file: missing/bot.py"):
        main_raising(["arena", "--bots", "missing/bot.py,random"])


def test_a_shared_first_is_a_tie_and_a_faulted_seat_never_wins() -> None:
    """A tie is not a win for both, and a crashing bot's default policy earns it
    nothing (the runner ranks a faulted seat last; the table does not count it either)."""
    from arena.commands.arena import summarise, summarise_seats

    records = [
        _record((0, 1), (1, 1)),  # a shared first: a tie for each
        _record((0, 1), (1, 2)),  # bot 0 wins
        # bot 1 faulted: ranked last by the runner; even a first place would not count
        _record((1, 0), (1, 2)),
    ]
    records[2].faults.append((0, "crash"))
    a, b = summarise(["a", "b"], records, 2)
    assert (a["wins"], a["ties"]) == (1, 1) and (b["wins"], b["ties"]) == (0, 1)
    assert b["faults"] == {"crash": 1}
    seat0, seat1 = summarise_seats(records, 2)
    assert (seat0["wins"], seat0["ties"]) == (1, 1) and (seat1["wins"], seat1["ties"]) == (0, 1)


@pytest.mark.slow
def test_arena_play_json_ranks_a_crashing_seat_last_with_its_fault(
    capsys: pytest.CaptureFixture,
) -> None:
    """A 4-player game in which the bot in seat 2 exits at its first decision."""
    from tests.workers.conftest import EXAMPLES, hostile

    bots = ",".join([str(EXAMPLES / "random_bot.py"), "greedy", hostile("exits_off_seat0"),
                     str(EXAMPLES / "heuristic_bot.py")])  # fmt: skip
    assert main(["play", "--mode", "standard", "--players", "4", "--seed", "5", "--bots", bots,
                 "--json", "--time-limit", "0.5", "--time-bank", "2"]) == 0  # fmt: skip
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["ranks"][2] == 4 and out["faulted"] == [2] and 2 not in out["winners"]
    assert out["scores"][2] is not None and len(out["board_ranks"]) == 4
    [fault] = out["faults"]
    assert (fault["seat"], fault["kind"], fault["decision"]) == (2, "crash", 1)
    assert fault["when"] == "at its 1st decision"
    assert "crash at its 1st decision" in captured.err and "ranked below" in captured.err
