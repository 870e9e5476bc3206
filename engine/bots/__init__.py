"""Built-in bots, found by name. ``random`` plays every mode; ``greedy`` has
one heuristic module per mode (registered in GREEDY)."""

from __future__ import annotations

import importlib

from ..errors import ConfigError
from .random_bot import RandomBot

# mode -> "module:Class" of that mode's greedy bot.
GREEDY: dict[str, str] = {
    "standard": "engine.bots.greedy_standard:GreedyStandardBot",
    "family": "engine.bots.greedy_family:GreedyFamilyBot",
    "solo": "engine.bots.greedy_standard:GreedyStandardBot",
    "duel": "engine.bots.greedy_duel:GreedyDuelBot",
}

BUILTIN_BOTS = ("random", "greedy")


def make_bot(name: str, mode: str, seat: int, seed: int):
    """A fresh built-in bot for one seat of one game."""
    if name == "random":
        return RandomBot(seat, seed)
    if name == "greedy":
        target = GREEDY.get(mode)
        if target is None:
            raise ConfigError(f"no greedy bot for mode {mode!r}")
        module_name, cls_name = target.split(":")
        return getattr(importlib.import_module(module_name), cls_name)(seat, seed)
    raise ConfigError(f"unknown built-in bot {name!r}; built-in bots: {', '.join(BUILTIN_BOTS)}")
