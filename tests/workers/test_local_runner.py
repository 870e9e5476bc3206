"""``python -m arena play`` with bot files: the workers' sandbox and limits, faults printed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli import build_parser, main
from arena.commands.play import match_spec_from_args
from arena.seats import seat_specs
from engine import ConfigError

from .conftest import EXAMPLES, hostile

REPO = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("worker_guard")]


def test_a_newcomer_plays_the_starter_bot_against_greedy(capsys: pytest.CaptureFixture) -> None:
    bots = f"{EXAMPLES / 'random_bot.py'},greedy"
    assert main(["play", "--mode", "standard", "--players", "2", "--bots", bots]) == 0
    out, err = capsys.readouterr()
    assert "winner(s):" in out and "random_bot.py" in out
    assert "fault" not in err


def test_faults_are_printed_readably(capsys: pytest.CaptureFixture) -> None:
    bots = f"{hostile('crash_mid_game')},random"
    assert main(["play", "--mode", "standard", "--bots", bots, "--time-limit", "0.5"]) == 0
    _, err = capsys.readouterr()
    assert "fault: seat 0 (" in err and "crash_mid_game.py): crash at its 4th decision" in err
    assert "| RuntimeError: boom in the middle of the game" in err


def test_limit_flags_reach_the_sandbox() -> None:
    args = build_parser().parse_args([
        "play", "--bots", f"{EXAMPLES / 'random_bot.py'},random", "--time-limit", "0.25",
        "--time-bank", "4", "--memory-mb", "300",
    ])  # fmt: skip
    spec, names = match_spec_from_args(args, replay=False)
    assert names[1] == "random" and spec.seats[0].bundle_path == str(EXAMPLES / "random_bot.py")
    limits = spec.limits
    assert (limits.decision_seconds, limits.bank_seconds) == (0.25, 4.0)
    assert limits.memory_mb == 300 and limits.startup_seconds == 10.0


def test_unknown_bot_names_say_what_is_allowed() -> None:
    with pytest.raises(ConfigError, match="give a bot file"):
        seat_specs(["clever"], 1)


CHATTY_CRASH = (
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    message = json.loads(line)\n"
    "    if message['type'] == 'start':\n"
    "        print(json.dumps({'ready': True}), flush=True)\n"
    "    elif message['type'] == 'decide' and message['step'] >= 3:\n"
    "        for i in range(60):\n"
    "            print(f'thinking line {i}', file=sys.stderr)\n"
    "        sys.stderr.write('no newline at the end')\n"
    "        sys.stderr.flush()\n"
    "        raise SystemExit(3)\n"
    "    elif message['type'] == 'decide':\n"
    "        print(f'decided step {message[\"step\"]}', file=sys.stderr, flush=True)\n"
    "        print(json.dumps({'index': 0}), flush=True)\n"
)


@pytest.fixture
def chatty_crash(tmp_path) -> str:  # noqa: ANN001
    path = tmp_path / "chatty_crash.py"
    path.write_text(CHATTY_CRASH)
    return str(path)


def _play(*argv: str) -> subprocess.CompletedProcess[str]:
    """The CLI as a user runs it, stdout and stderr merged into one stream as on a terminal."""
    return subprocess.run(
        [sys.executable, "-m", "arena", "play", "--mode", "duel", *argv],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120,
    )  # fmt: skip


def test_json_lists_the_faults_and_strict_exits_non_zero(chatty_crash: str) -> None:
    done = _play("--bots", f"random,{chatty_crash}", "--json")
    assert done.returncode == 0, done.stdout
    data = json.loads(next(line for line in done.stdout.splitlines() if line.startswith("{")))
    [fault] = data["faults"]
    assert fault["seat"] == 1 and fault["bot"] == chatty_crash and fault["kind"] == "crash"
    assert fault["detail"] == "exited with status 3" and fault["step"] >= 3
    assert fault["stderr_tail"][-1] == "no newline at the end"
    assert data["scores"] and data["state_hash"]
    strict = _play("--bots", f"random,{chatty_crash}", "--json", "--strict")
    assert strict.returncode == 1
    clean = _play("--bots", "random,greedy", "--json", "--strict")
    assert clean.returncode == 0 and json.loads(clean.stdout)["faults"] == []


def test_a_fault_shows_the_whole_kept_log_on_lines_of_its_own(chatty_crash: str) -> None:
    done = _play("--bots", f"random,{chatty_crash}")
    lines = done.stdout.splitlines()
    [hash_line] = [line for line in lines if "state hash" in line]
    assert re.fullmatch(r"state hash: [0-9a-f]{64}", hash_line)
    [fault_line] = [line for line in lines if "fault:" in line]
    assert fault_line.startswith("fault: seat 1 (") and "crash at its 4th decision" in fault_line
    log = [line[4:] for line in lines if line.startswith("  | ")]
    # The sandbox keeps the last 50 lines (at most 8 KiB), and all of them are shown.
    assert log == [f"thinking line {i}" for i in range(11, 60)] + ["no newline at the end"]


def test_verbose_streams_the_bots_stderr_as_it_plays(chatty_crash: str) -> None:
    done = _play("--bots", f"random,{chatty_crash}", "--verbose")
    lines = done.stdout.splitlines()
    prefix = f"[seat 1 {chatty_crash}] "
    told = [line[len(prefix):] for line in lines if line.startswith(prefix)]
    # --verbose also tells each decision ("decision 3: 0.001 s, cpu ..., bank ...")
    assert any(line.startswith("decision 1: ") and ", bank " in line for line in told)
    streamed = [line for line in told if not line.startswith("decision ")]
    decided = [line for line in streamed if line.startswith("decided step")]
    assert decided and streamed[: len(decided)] == decided  # as it played, step by step
    # every line, not only the 50 the fault record keeps
    assert streamed[len(decided) :] == [f"thinking line {i}" for i in range(60)] + [
        "no newline at the end"
    ]  # its own line, flushed at the end
    assert lines.index(prefix + "no newline at the end") < lines.index(
        next(line for line in lines if line.startswith("The Isle of Cats"))
    )
    quiet = _play("--bots", f"random,{chatty_crash}")
    assert not any(line.startswith("[seat") for line in quiet.stdout.splitlines())
