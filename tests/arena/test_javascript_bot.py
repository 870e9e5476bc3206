"""A JavaScript bot written only from docs/bot-protocol.md plays a clean
Duel and a clean 4-player standard game through the CLI's ``play`` command, as a ``.js`` file
and as a zip bundle, in the real sandbox."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from arena.cli import main

pytestmark = [pytest.mark.slow]

DOCS_BOT = Path(__file__).resolve().parent / "bots" / "docs_bot.js"


@pytest.fixture(params=["js", "zip"])
def bundle(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    if request.param == "js":
        return DOCS_BOT
    path = tmp_path / "docs_bot.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("bot.json", json.dumps(
            {"entrypoint": "src/bot.js", "language": "node", "name": "docs bot"}))  # fmt: skip
        archive.write(DOCS_BOT, "src/bot.js")
    return path


@pytest.mark.parametrize(
    ("mode", "bots"), [("duel", "B,random"), ("standard", "B,random,B,greedy")]
)
def test_docs_javascript_bot_plays_a_clean_game(
    bundle: Path, mode: str, bots: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from replayfile.format import read_replay, steps_of

    replay = tmp_path / "game.replay"
    seats = bots.replace("B", str(bundle)).split(",")
    argv = ["play", "--mode", mode, "--players", str(len(seats)), "--seed", "11",
            "--bots", ",".join(seats), "--json", "--replay", str(replay)]  # fmt: skip
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "fault" not in captured.err, captured.err  # no fault of any kind
    result = json.loads(captured.out)
    assert result["mode"] == mode and len(result["scores"]) == len(seats)
    ours = [i for i, name in enumerate(seats) if name == str(bundle)]
    steps = [s for s in steps_of(read_replay(replay)) if s["seat"] in ours]
    assert steps and all(s["note"] and s["note"].startswith("step ") for s in steps)
