"""The command line's first hour: login with --password-stdin, play --verbose, a
fault told in the bot's own steps, submit's help, and the console script from anywhere."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "bots"


def test_login_password_stdin_without_username_is_refused_not_taken_as_the_name(
    capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The password on stdin must never be read as the user name: one line, exit 2, and no
    request is sent (the server here does not exist)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setattr(sys, "stdin", io.StringIO("kitten-boat-42\n"))
    code = main(["login", "--server", "http://127.0.0.1:9", "--password-stdin"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "--password-stdin needs --username NAME" in err and "kitten" not in err
    assert sys.stdin.read() == "kitten-boat-42\n"  # the password was not consumed
    assert not (tmp_path / "isle-arena").exists()


def test_login_help_documents_username(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit):
        main(["login", "--help"])
    assert "--username" in capsys.readouterr().out
    assert "--username" in (ROOT / "docs" / "cli.md").read_text()


def test_submit_help_lists_javascript(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit):
        main(["submit", "--help"])
    assert ".js" in capsys.readouterr().out


@pytest.mark.slow
def test_play_verbose_prints_each_decisions_time_bank_and_debug_note(
    capsys: pytest.CaptureFixture,
) -> None:
    bot = str(EXAMPLES / "heuristic_bot.py")  # it explains each choice in its `debug` note
    assert main(["play", "--mode", "duel", "--bots", f"{bot},random", "--seed", "3",
                 "--verbose"]) == 0  # fmt: skip
    err = capsys.readouterr().err.splitlines()
    mine = [line for line in err if line.startswith(f"[seat 0 {bot}] decision ")]
    theirs = [line for line in err if line.startswith("[seat 1 random] decision ")]
    assert mine[0].startswith(f"[seat 0 {bot}] decision 1: ")
    assert all(" s, cpu " in line and ", wait " in line and ", bank " in line for line in mine)
    assert sum(1 for line in mine if ", note: " in line) >= len(mine) // 2
    # a built-in bot keeps a bank too: it is held to the limits of the bots it plays
    assert theirs and all(", wait " in line and ", bank " in line for line in theirs)
    numbers = [int(line.split("decision ")[1].split(":")[0]) for line in mine]
    assert numbers == list(range(1, len(mine) + 1))


@pytest.mark.slow
def test_a_fault_is_told_at_the_bots_own_step(capsys: pytest.CaptureFixture) -> None:
    """crash_mid_game answers three decisions and raises at its 4th: its step is the 4th
    decision's `decide.step` (3), not the game's action count (which counts random's moves
    too)."""
    crasher = str(ROOT / "tests" / "workers" / "hostile" / "crash_mid_game.py")
    assert main(["play", "--mode", "duel", "--bots", f"random,{crasher}", "--json"]) == 0
    [fault] = json.loads(capsys.readouterr().out)["faults"]
    assert (fault["decision"], fault["step"], fault["when"]) == (4, 3, "at its 4th decision")


@pytest.mark.slow
@pytest.mark.ci_required  # the index must be in reach under CI
def test_pip_install_e_gives_the_console_script_and_python_m_arena_from_anywhere(
    tmp_path: Path,
) -> None:
    """What scripts/_venv.sh does (the README's set-up): ``pip install -e .`` into a virtual
    environment. Here a fresh one that borrows the test environment's packages (a .pth file),
    so only the checkout itself is installed; pip builds it with setuptools from PyPI."""
    import sysconfig

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], capture_output=True, text=True, check=True)  # fmt: skip
    Path(site.stdout.strip(), "shared.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
         "--disable-pip-version-check", "--no-deps", "-e", str(ROOT)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    if installed.returncode != 0 and ("connection" in installed.stderr.lower()
                                      or "no matching distribution" in installed.stderr.lower()):
        pytest.skip("PyPI is out of reach (pip builds the checkout with setuptools from it)")
    assert installed.returncode == 0, installed.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    script = subprocess.run([str(venv / "bin" / "isle-arena"), "play", "--mode", "duel"],
                            cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120)
    assert script.returncode == 0 and "The Isle of Cats: duel" in script.stdout, script.stderr
    module = subprocess.run([str(python), "-m", "arena", "--help"], cwd=elsewhere, env=env,
                            capture_output=True, text=True, timeout=60)  # fmt: skip
    assert module.returncode == 0 and module.stdout.startswith("usage: python -m arena")
