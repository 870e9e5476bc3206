"""Built-in bots, found by name. ``random`` plays every mode; ``greedy`` has
one heuristic module per mode (registered in ``greedy.GREEDY``); ``search-<seconds>s``
searches (engine/bots/search.py) for at most that much CPU time per decision. Which names
are built-in bots is ``names.py``'s to say."""

from __future__ import annotations

from typing import Protocol

from ..actions import Action
from ..errors import ConfigError
from ..game import Game
from .greedy import GREEDY, greedy_bot
from .names import BUILTIN_BOTS, builtin_names, is_builtin_bot
from .random_bot import RandomBot

__all__ = ["BUILTIN_BOTS", "GREEDY", "BuiltinBot", "builtin_names", "is_builtin_bot",
           "make_bot"]


class BuiltinBot(Protocol):
    """What ``make_bot`` returns, whichever bot it is."""

    def act(self, game: Game, seat: int) -> Action:
        """The bot's choice for ``seat``, one of ``game.legal_actions(seat)``: an ``Action``
        tuple (a placement holds its cells as one integer mask; ``game.encode_action`` gives
        the JSON form, ``game.legal_actions(seat).index(action)`` the index to answer)."""
        ...


def make_bot(name: str, mode: str, seat: int, seed: int) -> BuiltinBot:
    """A fresh built-in bot for one seat of one game (``act(game, seat) -> Action``)."""
    if name == "random":
        return RandomBot(seat, seed)
    if name == "greedy":
        return greedy_bot(mode, seat, seed)
    if is_builtin_bot(name):
        # imported here, not at the top: the search loads the forward model and every mode's
        # greedy bot (0.14 s), which a process playing only random or greedy bots never needs
        from .search import search_bot  # noqa: PLC0415

        return search_bot(name, seat, seed)
    raise ConfigError(f"unknown built-in bot {name!r}; built-in bots: {builtin_names()}")
