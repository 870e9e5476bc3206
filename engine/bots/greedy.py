"""Each mode's greedy bot, found by mode: the built-in ``greedy`` bot, and the search bot's
first candidate and playout policy (engine/bots/playout.py).

A mode's module is imported when its bot is first asked for, so a process that plays one
mode loads one heuristic.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..errors import ConfigError

# mode -> "module:Class" of that mode's greedy bot.
GREEDY: dict[str, str] = {
    "standard": "engine.bots.greedy_standard:GreedyStandardBot",
    "family": "engine.bots.greedy_family:GreedyFamilyBot",
    "solo": "engine.bots.greedy_standard:GreedyStandardBot",
    "duel": "engine.bots.greedy_duel:GreedyDuelBot",
}


def greedy_bot(mode: str, seat: int, seed: int) -> Any:
    """A fresh greedy bot of ``mode`` for one seat."""
    target = GREEDY.get(mode)
    if target is None:
        raise ConfigError(f"no greedy bot for mode {mode!r}")
    module_name, cls_name = target.split(":")
    return getattr(importlib.import_module(module_name), cls_name)(seat, seed)
