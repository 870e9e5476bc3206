"""The registry of game modes: name -> class, imported lazily on first use."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from ..errors import ConfigError
from ..game import Game

# mode name -> "module:ClassName"; each module holds one mode.
MODES: dict[str, str] = {
    "standard": "engine.modes.standard:StandardGame",
    "family": "engine.modes.family:FamilyGame",
    "solo": "engine.modes.solo:SoloGame",
    "duel": "engine.modes.duel:DuelGame",
}


def mode_class(mode: str) -> type[Game]:
    target = MODES.get(mode)
    if target is None:
        raise ConfigError(f"unknown mode {mode!r}; modes: {', '.join(MODES)}")
    module_name, class_name = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            raise ConfigError(f"mode {mode!r} is not available in this build") from None
        raise
    cls = getattr(module, class_name, None)
    if cls is None:  # the package exists but its game class has not landed yet
        raise ConfigError(f"mode {mode!r} is not available in this build")
    return cls


def available_modes() -> list[str]:
    """Every mode, each class loaded: a mode that fails to import raises here, loudly, rather
    than drop out of the lists built from this one."""
    return [name for name in MODES if mode_class(name)]


def new_game(
    mode: str, seats: int, seed: int, options: Mapping[str, Any] | None = None
) -> Game:
    """Create a game. Raises ConfigError with a readable reason on bad input."""
    cls = mode_class(mode)
    gt = cls.game_type
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise ConfigError("seats must be an integer")
    if not gt.min_seats <= seats <= gt.max_seats:
        span = str(gt.min_seats)
        if gt.max_seats != gt.min_seats:
            span += f"-{gt.max_seats}"
        raise ConfigError(f"mode {mode!r} is played by {span} seats, not {seats}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ConfigError("seed must be an integer in [0, 2**64)")
    opts = dict(options or {})
    for key, value in opts.items():
        allowed = gt.options.get(key)
        if allowed is None:
            raise ConfigError(f"mode {mode!r} has no option {key!r}")
        if isinstance(allowed, (list, tuple)) and value not in allowed:
            raise ConfigError(f"option {key!r} must be one of {list(allowed)}, not {value!r}")
    return cls(seats, seed, opts)
