"""Bots read the game's data: a probe bot in Python, JavaScript, C++ and C (a static binary),
each through its starter kit's helper (arena_bot.GameData, game_data.js, arena::GameData, the
game_* look-ups of arena.h), plays a whole game of
every mode through the real sandbox. It exits with a fault if a card's cost or a boat's cells
are missing from ``start``'s ``game_data``, or if a legal placement or a placed tile leaves
the cells of its boat; its notes say how many it checked. The kits' placement helpers also
agree with the engine's legal placements."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from competition.limits import Limits
from engine import available_modes, new_game
from workers.protocol.wire import start_message
from workers.runner import MatchSpec, SeatSpec, run_match

from .starters import EXAMPLES, zip_bundle

PROBES = Path(__file__).resolve().parent / "probes"
LANGUAGES = ("python", "js", "cpp", "c")
SEATS = {"standard": 2, "family": 2, "solo": 1, "duel": 2}


def probe_bundle(language: str, out: Path) -> Path:
    """The probe zipped with its kit's helper, as an author would upload it."""
    if language == "python":
        files = {"main.py": (PROBES / "probe.py").read_bytes(),
                 "arena_bot.py": (EXAMPLES / "bots" / "arena_bot.py").read_bytes()}
        manifest = {"entrypoint": "main.py", "language": "python3"}
    elif language == "js":
        files = {"main.js": (PROBES / "probe.js").read_bytes(),
                 "game_data.js": (EXAMPLES / "js" / "game_data.js").read_bytes()}
        manifest = {"entrypoint": "main.js", "language": "node"}
    elif language == "cpp":
        files = {"probe.cpp": (PROBES / "probe.cpp").read_bytes(),
                 "arena.hpp": (EXAMPLES / "cpp" / "arena.hpp").read_bytes()}
        manifest = {"entrypoint": "probe.cpp", "language": "cpp"}
    else:  # built here as the C kit's Makefile does, uploaded as a static executable
        exe = out / "probe_c"
        subprocess.run(["gcc", "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-static",
                        "-I", str(EXAMPLES / "binary"), "-o", str(exe), str(PROBES / "probe.c")],
                       check=True, capture_output=True)  # fmt: skip
        files = {"probe": exe.read_bytes()}
        manifest = {"entrypoint": "probe", "language": "binary"}
    return zip_bundle(out / f"probe_{language}.zip", manifest, files)


@pytest.fixture(scope="module")
def probes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("probes")
    return {language: probe_bundle(language, out) for language in LANGUAGES}


@pytest.mark.slow
@pytest.mark.usefixtures("worker_guard")
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("mode", available_modes())
def test_a_probe_bot_reads_the_game_data_in_every_mode(
    mode: str, language: str, probes: dict[str, Path]
) -> None:
    names = [str(probes[language]), "random"][: SEATS[mode]]
    spec = MatchSpec(mode=mode, seats=tuple(SeatSpec.parse(n) for n in names), seed=8,
                     limits=Limits(end_grace_seconds=0.2), replay=False)  # fmt: skip
    outcome = run_match(spec)
    assert outcome.faults == [], [(f.describe(), f.stderr) for f in outcome.faults]
    notes = [a.get("note") or "" for a in outcome.actions if a["seat"] == 0]
    counts = [tuple(map(int, re.findall(r"\d+", n))) for n in notes]
    assert counts and all(len(c) == 2 for c in counts), notes[:3]
    placements, tiles = counts[-1]
    assert placements > 0 and tiles > 0  # it checked real placements and placed tiles


@pytest.mark.slow
@pytest.mark.usefixtures("worker_guard")
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_probe_faults_without_the_game_data(
    language: str, probes: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The probes can fail: sent a start without game_data, each one faults and says why."""
    from workers import agents
    from workers.protocol import wire as protocol

    def bare_start(game, seat, limits):  # noqa: ANN001, ANN202 - the patched function's own
        message = protocol.start_message(game, seat, limits)
        del message["game_data"]
        return protocol.dumps_line(message)

    monkeypatch.setattr(agents, "start_line", bare_start)
    spec = MatchSpec(mode="duel", seats=(SeatSpec.parse(str(probes[language])),
                                         SeatSpec.parse("random")),
                     seed=8, limits=Limits(end_grace_seconds=0.2), replay=False)  # fmt: skip
    outcome = run_match(spec)
    assert [f.seat for f in outcome.faults] == [0]
    assert any("probe: no game_data in start" in line for line in outcome.faults[0].stderr)


def placement_cases(mode: str, games: int = 2) -> list[tuple[dict, str, list, list]]:
    """(game_data, boat, occupied cells, the engine's legal placements) at placement decisions
    of random games, for tiles placed by the usual rule (touching a tile)."""
    cases = []
    for seed in range(games):
        game = new_game(mode, SEATS[mode], seed)
        data = start_message(game, 0, Limits())["game_data"]
        rng = random.Random(seed)
        while not game.is_over():
            seat = game.pending()[0]
            legal = list(game.legal_actions(seat))
            obs = game.observation(seat)
            decision = obs.get("decision") if isinstance(obs.get("decision"), dict) else {}
            tile = decision.get("tile") or (obs.get("turn") or {}).get("placing")
            me = obs["players"][seat]
            if (tile and legal and all(a.kind == "place" for a in legal)
                    and not decision.get("anywhere") and not me.get("anywhere")):
                occupied = [c for t in me["tiles"] for c in t["cells"]]
                cells = [game.encode_action(a)["cells"] for a in legal]
                cases.append((data, tile["shape"], me["boat"], occupied, cells))
            game.apply(seat, rng.choice(legal))
    return cases


def canonical(placements: list) -> list:
    return sorted(sorted(map(tuple, cells)) for cells in placements)


@pytest.mark.parametrize("mode", available_modes())
def test_the_python_kits_placements_are_the_engines(mode: str) -> None:
    sys.path.insert(0, str(EXAMPLES / "bots"))
    try:
        from arena_bot import GameData
    finally:
        sys.path.remove(str(EXAMPLES / "bots"))
    cases = placement_cases(mode)
    assert cases
    for data, shape, boat, occupied, legal in cases:
        mine = GameData(data).placements(shape, boat, {tuple(c) for c in occupied})
        assert canonical(mine) == canonical(legal)


@pytest.mark.slow
def test_the_js_and_cpp_kits_placements_are_the_engines(tmp_path: Path) -> None:
    """Both helpers, run by their own runtimes on recorded cases, give the engine's lists."""
    import json

    cases = placement_cases("duel", 1)[:6] + placement_cases("standard", 1)[:6]
    lines = "".join(json.dumps({"game_data": d, "shape": s, "boat": b, "occupied": o}) + "\n"
                    for d, s, b, o, _ in cases)
    exe = tmp_path / "placements"
    subprocess.run(["g++", "-std=gnu++17", "-O1", "-I", str(EXAMPLES / "cpp"), "-o", str(exe),
                    str(PROBES / "placements.cpp")], check=True)  # fmt: skip
    js = ["node", str(PROBES / "placements.js"), str(EXAMPLES / "js")]
    for command in (js, [str(exe)]):
        out = subprocess.run(command, input=lines, capture_output=True, text=True, check=True,
                             timeout=120).stdout.splitlines()
        assert len(out) == len(cases)
        for answer, (*_, legal) in zip(out, cases, strict=True):
            assert canonical(json.loads(answer)) == canonical(legal), command
