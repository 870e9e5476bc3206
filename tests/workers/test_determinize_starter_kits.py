"""The forward model takes what the starter kits receive: every protocol version, every
observation form (whole, deltas, JSON patches), every mode.

Each starter kit's own answer to ``start`` is read from its files (the ``protocol`` and
``deltas`` it asks for), real ``decide`` lines are made for those settings by the worker's
own encoder (``workers.protocol.wire.decide_for``), the kit's way of rebuilding the whole
observation is applied, and ``engine.forward.determinize`` must rebuild a game that shows the
seat that observation (in the protocol's shape) and offers the same legal actions.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine import new_game
from engine.bots import make_bot
from engine.forward import determinize
from engine.protocol_v2 import observation_v2
from engine.rng import Rng
from workers.protocol.json_patch import apply_patch
from workers.protocol.wire import (
    LegalEncoder,
    ObservationEncoder,
    apply_observation_delta,
    decide_for,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SEATS = {"standard": 3, "family": 2, "solo": 1, "duel": 2}
OPTIONS = {"solo": {"difficulty": "easy"}}
PER_SEAT = 25  # decisions checked per seat and game (the rest of the game is played on)

# The line of a kit that answers start, in Python, JavaScript, C or C++ (escaped quotes).
READY = re.compile(r"""["'\\]*ready["'\\]*\s*:\s*(?:True|true)\b.*""")
PROTOCOL = re.compile(r"""["'\\]*protocol["'\\]*\s*:\s*(\d+)""")
DELTAS = re.compile(r"""["'\\]*deltas["'\\]*\s*:\s*(True|true|\\?["']json-patch\\?["'])""")
SOURCES = ("*.py", "*.js", "*.c", "*.h", "*.cpp", "*.hpp")


def _ready_settings(text: str) -> list[tuple[int, bool | str]]:
    """(protocol, deltas) of every ready answer written in ``text`` (not in a comment)."""
    out = []
    for line in text.splitlines():
        code = line.strip()
        if code.startswith(("#", "//", "*", '"""')) or "reply" not in code and "=" not in code \
                and "print" not in code:
            continue
        match = READY.search(code)
        if match is None:
            continue
        answer = match.group(0)
        protocol = PROTOCOL.search(answer)
        deltas = DELTAS.search(answer)
        mode: bool | str = False
        if deltas is not None:
            mode = "json-patch" if "json-patch" in deltas.group(1) else True
        out.append((int(protocol.group(1)) if protocol else 1, mode))
    return out


def kit_settings() -> dict[str, tuple[int, bool | str]]:
    """Every bot file of the examples that answers start: file -> (protocol, deltas)."""
    found = {}
    for pattern in SOURCES:
        for path in sorted(EXAMPLES.rglob(pattern)):
            settings = _ready_settings(path.read_text(encoding="utf-8"))
            if settings:
                assert len(set(settings)) == 1, (path, settings)
                found[str(path.relative_to(EXAMPLES))] = settings[0]
    return found


KITS = kit_settings()


def test_the_kits_settings_are_read_from_their_files() -> None:
    assert KITS["bots/random_bot.py"] == (2, False)
    assert KITS["bots/heuristic_bot.py"] == (2, False)
    assert KITS["bots/patch_random_bot.py"] == (1, "json-patch")
    assert KITS["bots/delta_random_bot.py"] == (1, True)
    assert KITS["js/random_bot.js"] == (2, False)
    assert KITS["cpp/arena.hpp"] == (2, False)
    assert KITS["binary/random_bot.c"] == (1, False)
    listed = json.loads((EXAMPLES / "starter_kits.json").read_text(encoding="utf-8"))
    for kit in listed.values():  # every kit in the site's list speaks through a file read here
        assert any(source in KITS for source in kit["files"].values()), kit["title"]


class KitView:
    """One seat's messages as a kit with these settings receives and rebuilds them."""

    def __init__(self, game: Any, seat: int, protocol: int, deltas: bool | str) -> None:
        self.seat, self.protocol = seat, protocol
        self.start = {"type": "start", "mode": game.mode, "seat": seat, "seats": game.seats,
                      "options": dict(game.options), "protocol": 1, "protocols": [1, 2]}
        self.legal = LegalEncoder(game.codec)
        self.observations = ObservationEncoder(deltas) if deltas else None
        self.observation: dict[str, Any] = {}

    def decide(self, game: Any) -> dict[str, Any]:
        """The decide message with its whole observation, as the kit rebuilds it."""
        line = decide_for(game, self.seat, game.legal_actions(self.seat), self.legal, 1.0,
                          10.0, self.observations, self.protocol)
        message = json.loads(line)
        if "observation_delta" in message:
            self.observation = apply_observation_delta(self.observation,
                                                       message.pop("observation_delta"))
        elif "observation_patch" in message:
            self.observation = apply_patch(self.observation, message.pop("observation_patch"))
        else:
            self.observation = message.pop("observation")
        message["observation"] = self.observation
        return message


def _seen(world: Any, seat: int, protocol: int) -> Any:
    observation = world.observation(seat)
    return json.loads(json.dumps(observation_v2(observation) if protocol == 2 else observation))


@pytest.mark.parametrize("settings", sorted(set(KITS.values()), key=str))
@pytest.mark.parametrize("mode", sorted(SEATS))
def test_determinize_takes_every_kits_messages(mode: str, settings: tuple[int, Any]) -> None:
    protocol, deltas = settings
    seats = SEATS[mode]
    game = new_game(mode, seats, 11, OPTIONS.get(mode, {}))
    bots = [make_bot("greedy" if s % 2 else "random", mode, s, 11) for s in range(seats)]
    views = [KitView(game, s, protocol, deltas) for s in range(seats)]
    checked = [0] * seats
    while not game.is_over():
        seat = game.pending()[0]
        message = views[seat].decide(game)  # every decision, so deltas follow the game
        if checked[seat] < PER_SEAT:
            world = determinize(views[seat].start, message, Rng(checked[seat], "kits"))
            assert _seen(world, seat, protocol) == message["observation"], (mode, seat)
            assert list(world.legal_actions(seat)) == list(game.legal_actions(seat))
            checked[seat] += 1
        game.apply_unchecked(seat, bots[seat].act(game, seat))
    assert all(n > 0 for n in checked)
