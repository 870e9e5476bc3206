"""Built-in bots, found by name. ``random`` plays every mode; ``greedy`` has
one heuristic module per mode (registered in GREEDY); ``search-<seconds>s`` searches
(engine/bots/search.py) for at most that much CPU time per decision."""

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

# The names registered as the site's built-in bots; any ``search-<seconds>s`` (0 < seconds
# <= 60) is a built-in bot too (``is_builtin_bot``).
BUILTIN_BOTS = ("random", "greedy", "search-0.05s", "search-0.25s", "search-1s")


def is_builtin_bot(name: object) -> bool:
    """Whether ``name`` names a built-in bot: one of BUILTIN_BOTS or ``search-<seconds>s``."""
    if not isinstance(name, str):
        return False
    if name in BUILTIN_BOTS:
        return True
    from .search import parse_budget

    return parse_budget(name) is not None


def builtin_names() -> str:
    """The built-in bots for an error message."""
    return ", ".join(BUILTIN_BOTS) + " (or search-<seconds>s)"


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
    if is_builtin_bot(name):
        from .search import search_bot

        return search_bot(name, seat, seed)
    raise ConfigError(f"unknown built-in bot {name!r}; built-in bots: {builtin_names()}")
