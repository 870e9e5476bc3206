"""What the authors' commands say about bots: ``play --help`` names every built-in bot from
the engine's registry; the arena's table has one row per distinct bot (a bot named for three
seats is one row over its three seats) with each bot's CPU time per move; a paired
comparison's ETA comes from the SPRT's expected length, not from its cap."""

from __future__ import annotations

import io

import pytest

import arena.commands.arena as arena_command
from arena.cli import main
from arena.commands.arena import GameRecord, MoveTimes, Progress, move_times, readable, summarise
from engine.bots import BUILTIN_BOTS
from workers.paired_play import run_local


@pytest.mark.parametrize("command", ["play", "arena"])
def test_help_lists_every_built_in_bot(command: str, capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps the lines
    for name in BUILTIN_BOTS:
        assert name in text, name
    assert "search-<seconds>s" in text


def _four_seat_deal() -> list[GameRecord]:
    """One deal of ``mine.py,greedy,greedy,greedy``: every rotation, mine.py last but once."""
    records = []
    for r in range(4):
        lineup = tuple((s + r) % 4 for s in range(4))  # bot index per seat
        mine = lineup.index(0)
        ranks = [1, 2, 3, 4]  # the first deal: mine.py in seat 0 wins
        if r != 0:  # the others: mine.py last, the greedy seats 1, 2, 3 in seat order
            others = [s for s in range(4) if s != mine]
            ranks = [4] * 4
            for place, s in enumerate(others, start=1):
                ranks[s] = place
        moves = [MoveTimes(10, 0.5, 0.2, 0.6, 0.25) if lineup[s] == 0
                 else MoveTimes(20, 0.02, 0.004, 0.03, 0.005) for s in range(4)]
        records.append(GameRecord(lineup, [float(10 - k) for k in ranks], ranks, [], 0.1,
                                  moves=moves))
    return records


def test_a_bot_named_for_three_seats_is_one_row() -> None:
    bots = ["mine.py", "greedy", "greedy", "greedy"]
    rows = summarise(bots, _four_seat_deal(), 4)
    assert [row["bot"] for row in rows] == ["mine.py", "greedy"]
    mine, greedy = rows
    assert (mine["seats_played"], greedy["seats_played"]) == (4, 12)
    assert (mine["wins"], greedy["wins"]) == (1, 3)
    assert greedy["elo"] > mine["elo"]  # greedy's own seats are no pair of its Elo
    text = readable("standard", 4, 4, 1, 4, 1.0, rows)
    body = text.splitlines()[3:]
    assert len(body) == 2 and sum(line.startswith("greedy ") for line in body) == 1


def test_the_table_shows_cpu_time_per_move() -> None:
    rows = summarise(["mine.py", "greedy", "greedy", "greedy"], _four_seat_deal(), 4)
    mine, greedy = rows
    assert mine["decisions"] == 40 and greedy["decisions"] == 4 * 3 * 20
    assert mine["move_cpu_mean"] == pytest.approx(4 * 0.5 / 40)
    assert mine["move_cpu_max"] == pytest.approx(0.2)
    assert greedy["move_cpu_mean"] == pytest.approx(12 * 0.02 / 240)
    assert greedy["move_seconds_max"] == pytest.approx(0.005)
    text = readable("standard", 4, 4, 1, 4, 1.0, rows)
    assert "cpu ms/move mean, max" in text.splitlines()[2]
    assert "50.0, 200.0" in text  # mine.py: 50 ms a move on average, 200 ms at most


def test_move_times_come_from_the_runners_records_without_the_default_policy() -> None:
    actions = [{"seat": 0, "cpu": 0.01, "seconds": 0.02}, {"seat": 1, "cpu": 0.3, "seconds": 0.4},
               {"seat": 0, "cpu": 0.05, "seconds": 0.06},
               {"seat": 1, "cpu": 0.0, "seconds": 0.0, "default": True}]
    zero, one = move_times(actions, 2)
    assert (zero.decisions, zero.cpu, zero.cpu_max) == (2, pytest.approx(0.06), 0.05)
    assert (one.decisions, one.wall_max) == (1, 0.4)


@pytest.mark.slow
def test_a_real_arena_prints_one_row_per_bot_with_its_time(
        capsys: pytest.CaptureFixture) -> None:
    assert main(["arena", "--mode", "duel", "--bots", "greedy,random,greedy", "--games", "3",
                 "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split()[0] for line in lines[3:] if line.strip()]
    assert sorted(rows) == ["greedy", "random"]
    assert all("-" not in line.split("  ")[-2] for line in lines[3:5])  # a time, not "-"


def test_a_sequential_eta_comes_from_the_expected_length(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [0.0]
    monkeypatch.setattr(arena_command.time, "monotonic", lambda: now[0])
    stream = io.StringIO()
    progress = Progress(400, stream, sequential=True)  # a cap of 400 games
    now[0] = 10.0
    progress.update(1)  # one game in 10 s, no estimate yet
    now[0] = 100.0
    progress.update(50, 60)  # 0.5 games a second; the SPRT expects 60 games in all
    first, second = stream.getvalue().splitlines()
    assert "eta at most 3990s (the cap, 400 games)" in first
    assert "eta ~20s (the SPRT expects ~60 games at its estimate; cap 400)" in second
    plain = io.StringIO()
    arena_progress = Progress(400, plain)
    now[0] = 110.0
    arena_progress.update(1)
    assert "eta 3990s" in plain.getvalue()  # a plain arena's total is its real length


@pytest.mark.slow
def test_the_expected_games_end_at_the_games_played() -> None:
    seen: list[tuple[int, int, int | None]] = []
    result = run_local(a="random", b="greedy", opponents=["random"], mode="duel", seats=2,
                       seeds=500, base_seed=5,
                       on_game=lambda done, cap, expected: seen.append((done, cap, expected)))
    assert seen[-1] == (result.games, 2000, result.games)  # stopped where it expected to
    estimates = [e for _, _, e in seen if e is not None]
    assert estimates and max(estimates) < 2000  # never the cap's 2000 games
