"""Replay verification: re-simulate the logged actions with the engine and compare.

Pure (no Django). A replay is proven when every logged action is legal for its seat at its
step (checked apply, as for untrusted bot input), and the re-simulated final result and
state hash equal the recorded ones. The first failure is reported in one readable line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from competition.standing import fault_adjusted_result
from engine import ActionError, ConfigError, new_game
from engine.game import Game, canonical_json
from engine.version import ENGINE_VERSION

from .format import ReplayError, expand_action


@dataclass(frozen=True)
class Verdict:
    """The outcome of a verification: ``ok``, or the first problem found."""

    ok: bool
    message: str
    step: int | None = None  # the first bad step (0-based), when a step is at fault
    steps: int = 0  # steps replayed

    def __bool__(self) -> bool:
        return self.ok


def game_from_header(header: Mapping[str, Any]) -> Game:
    """A fresh game with the replay's configuration (``ConfigError`` if impossible)."""
    return new_game(header["mode"], header["seats"], header["seed"], header.get("options") or {})


def _first_difference(recorded: Any, actual: Any, path: str = "result") -> str:
    """Where two JSON values first differ, as ``result.scores[2]: 41 != 43``."""
    if isinstance(recorded, Mapping) and isinstance(actual, Mapping):
        for key in sorted(set(recorded) | set(actual), key=str):
            if key not in actual:
                return f"{path}.{key} is recorded but not produced"
            if key not in recorded:
                return f"{path}.{key} is produced but not recorded"
            if canonical_json(recorded[key]) != canonical_json(actual[key]):
                return _first_difference(recorded[key], actual[key], f"{path}.{key}")
    if (isinstance(recorded, list) and isinstance(actual, list)
            and len(recorded) == len(actual)):
        for i, (a, b) in enumerate(zip(recorded, actual, strict=True)):
            if canonical_json(a) != canonical_json(b):
                return _first_difference(a, b, f"{path}[{i}]")
    return f"{path}: recorded {_short(recorded)}, re-simulated {_short(actual)}"


def _short(value: Any) -> str:
    text = canonical_json(value).decode()
    return text if len(text) <= 80 else text[:77] + "..."


def verify_document(doc: Mapping[str, Any]) -> Verdict:
    """Re-simulate ``doc`` (a decoded replay) and report the first problem, if any."""
    header = doc["header"]
    version_note = ""
    if header.get("engine_version") != ENGINE_VERSION:
        version_note = (f" (recorded with engine {header.get('engine_version')}, "
                        f"verified with {ENGINE_VERSION})")
    try:
        game = game_from_header(header)
    except ConfigError as exc:
        return Verdict(False, f"the replay's configuration is rejected: {exc}{version_note}")
    catalogue = header["actions"]
    for i, row in enumerate(doc["steps"]):
        seat = row[0]
        try:
            action_json = expand_action(row[1], catalogue)
        except ReplayError as exc:
            return Verdict(False, f"step {i}: {exc}{version_note}", step=i, steps=i)
        try:
            game.apply(seat, action_json)
        except ActionError as exc:
            text = _action_text(game, action_json)
            return Verdict(False, f"step {i}: seat {seat} {text} is illegal: {exc.reason}"
                                  f"{version_note}", step=i, steps=i)
    n = len(doc["steps"])
    recorded = doc.get("result")
    faults = doc.get("faults") or []
    faulted = bool(faults)
    # A faulted seat's moves from its fault on are the default policy's, logged like any
    # other; the standing is the engine's result with the fault rule applied
    # (competition/standing.py, the runner's own rule), so it is re-derived too.
    # Replays written before faults counted carry the engine's result with their faults
    # (no "faulted" key): their standing is the runner's of then, not re-derived.
    legacy = faulted and recorded is not None and "faulted" not in recorded
    if recorded is not None and not legacy:
        if not game.is_over():
            return Verdict(False, f"after {n} steps the game is not over but a result is "
                                  f"recorded{version_note}", steps=n)
        actual = fault_adjusted_result(game.result(), faults)
        if canonical_json(recorded) != canonical_json(actual):
            return Verdict(False, f"result mismatch: {_first_difference(recorded, actual)}"
                                  f"{version_note}", steps=n)
    actual_hash = game.state_hash()
    if doc.get("state_hash") != actual_hash:
        return Verdict(False, f"state hash mismatch after {n} steps: recorded "
                              f"{str(doc.get('state_hash'))[:12]}, re-simulated "
                              f"{actual_hash[:12]}{version_note}", steps=n)
    scores = (recorded or {}).get("scores")
    tail = f", scores {scores}" if scores is not None else ""
    if legacy:
        tail += f" ({len(faults)} fault(s): result recorded by the runner)"
    elif faulted:
        tail += f" ({len(faults)} fault(s): faulted seats ranked last)"
    return Verdict(True, f"ok: {n} steps legal, result and state hash match{tail}", steps=n)


def _action_text(game: Game, action_json: Mapping[str, Any]) -> str:
    try:
        return f"'{game.codec.text(game.codec.decode(action_json))}'"
    except ActionError:
        return canonical_json(action_json).decode()
