"""``python -m arena play`` with bot files: the workers' sandbox and limits, faults printed."""

from __future__ import annotations

import pytest

from arena.cli import main
from arena.commands.play import build_agents
from engine import ConfigError, available_modes
from workers.agents import ProgramAgent

from .conftest import EXAMPLES, hostile

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("worker_guard")]
needs_standard = pytest.mark.skipif("standard" not in available_modes(),
                                    reason="the standard mode is not built yet")  # fmt: skip


@needs_standard
def test_a_newcomer_plays_the_starter_bot_against_greedy(capsys: pytest.CaptureFixture) -> None:
    bots = f"{EXAMPLES / 'random_bot.py'},greedy"
    assert main(["play", "--mode", "standard", "--players", "2", "--bots", bots]) == 0
    out, err = capsys.readouterr()
    assert "winner(s):" in out and "random_bot.py" in out
    assert "fault" not in err


@needs_standard
def test_faults_are_printed_readably(capsys: pytest.CaptureFixture) -> None:
    bots = f"{hostile('crash_mid_game')},random"
    assert main(["play", "--mode", "standard", "--bots", bots, "--time-limit", "0.5"]) == 0
    _, err = capsys.readouterr()
    assert "fault: seat 0: crash at step" in err
    assert "| RuntimeError: boom in the middle of the game" in err


def test_limit_flags_reach_the_sandbox() -> None:
    agents = build_agents([str(EXAMPLES / "random_bot.py"), "random"], "standard", 2, 0,
                          decision_seconds=0.25, bank_seconds=4.0, memory_mb=300)  # fmt: skip
    program = agents[0]
    assert isinstance(program, ProgramAgent)
    assert (program.limits.decision_seconds, program.limits.bank_seconds) == (0.25, 4.0)
    assert program.limits.memory_mb == 300 and program.limits.startup_seconds == 10.0
    for agent in agents:
        agent.close()


def test_unknown_bot_names_say_what_is_allowed() -> None:
    with pytest.raises(ConfigError, match="give a bot file"):
        build_agents(["clever"], "standard", 1, 0)
