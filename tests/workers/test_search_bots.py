"""Python bots use the engine's forward model inside the sandbox.

* ``examples/bots/search_bot.py`` (determinize, clone, playouts) plays a full game of every
  mode through the real sandbox with no fault, and the replay verifies.
* A bot whose bundle holds its own ``engine.py`` (which would end the bot if imported) still
  imports the real engine, read-only, and calls ``determinize`` at every decision.
* The built-in ``search-<seconds>s`` bots are seat names the runner accepts.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from competition.limits import Limits
from engine import ConfigError, available_modes, mode_class
from engine.bots import is_builtin_bot, make_bot
from workers.runner import MatchSpec, SeatSpec, run_match

ROOT = Path(__file__).resolve().parents[2]
SEARCH_BOT = ROOT / "examples" / "bots" / "search_bot.py"

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("worker_guard")]

PROBE = '''
import json, sys
import engine
from engine.forward import determinize
from engine.rng import Rng

assert engine.__file__.startswith(sys.argv[1]) if len(sys.argv) > 1 else True
start = None
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "start":
        start = m
        print(json.dumps({"ready": True}), flush=True)
    elif m["type"] == "decide":
        world = determinize(start, m, Rng(m["step"], "probe"))
        legal = world.legal_actions(start["seat"])
        assert len(legal) == len(m["legal"]), (len(legal), len(m["legal"]))
        assert world.observation(start["seat"])["mode"] == start["mode"]
        print(json.dumps({"index": 0, "debug": engine.__file__}), flush=True)
    elif m["type"] == "end":
        break
'''


def _seats(mode: str) -> int:
    game_type = mode_class(mode).game_type
    return max(game_type.min_seats, min(game_type.max_seats, 3))


@pytest.mark.parametrize("mode", available_modes())
def test_the_search_starter_plays_every_mode_in_the_sandbox(mode: str) -> None:
    from replayfile.format import decode
    from replayfile.verify import verify_document

    seats = _seats(mode)
    names = [str(SEARCH_BOT), *["greedy"] * (seats - 1)]
    # A tenth of a second per decision: the starter searches for half of it (0.05 s), enough
    # for a few rounds of playouts at each decision of a whole game, a quarter of its usual time.
    spec = MatchSpec(mode=mode, seats=tuple(SeatSpec.parse(n) for n in names), seed=5,
                     limits=Limits(decision_seconds=0.1, end_grace_seconds=0.2))  # fmt: skip
    outcome = run_match(spec)
    assert outcome.faults == [], [f.describe() for f in outcome.faults]
    assert outcome.timing[0]["decisions"] > 0
    notes = [a.get("note") for a in outcome.actions if a["seat"] == 0]
    assert any("rounds" in (n or "") for n in notes)  # it searched, and said so
    assert verify_document(decode(outcome.replay or b"")).ok


def test_a_bot_file_cannot_shadow_the_engine(tmp_path: Path) -> None:
    bundle = tmp_path / "probe.zip"
    with zipfile.ZipFile(bundle, "w") as z:
        z.writestr("bot.json", json.dumps({"entrypoint": "main.py", "language": "python3"}))
        z.writestr("main.py", PROBE)
        z.writestr("engine.py", "raise SystemExit('the bundle shadowed the engine')\n")
        z.writestr("engine/__init__.py", "raise SystemExit('the bundle shadowed the engine')\n")
    for mode in ("standard", "duel"):
        seats = 2
        spec = MatchSpec(mode=mode, seats=(SeatSpec.parse(str(bundle)), SeatSpec.parse("random")),
                         seed=2, limits=Limits(end_grace_seconds=0.2), replay=False)  # fmt: skip
        outcome = run_match(spec)
        assert outcome.faults == [], [f.describe() for f in outcome.faults]
        notes = {a.get("note") for a in outcome.actions if a["seat"] == 0}
        assert notes and all(n and n.endswith("engine/__init__.py") for n in notes)
        assert "botpath" not in "".join(notes) and seats == 2


def test_search_bot_names() -> None:
    assert is_builtin_bot("search-0.25s") and is_builtin_bot("search-1s")
    assert not is_builtin_bot("search-0s") and not is_builtin_bot("search-fast")
    assert SeatSpec.parse("search-0.5s").builtin == "search-0.5s"
    with pytest.raises(ConfigError, match="search-<seconds>s"):
        SeatSpec(builtin="search-soon")
    assert make_bot("search-0.05s", "duel", 0, 1).budget == 0.05
