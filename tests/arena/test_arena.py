"""``python -m arena arena``: seat rotations, parallel games, the table and its JSON."""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path

import pytest

from arena.cli import main
from arena.commands.arena import Progress, lineups
from engine import ConfigError, available_modes

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "bots"
needs_standard = pytest.mark.skipif("standard" not in available_modes(),
                                    reason="the standard mode is not built yet")  # fmt: skip


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


@needs_standard
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


@needs_standard
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
