"""Isle Arena's game engine: The Isle of Cats (standard, family, solo) and
The Isle of Cats Duel, behind one decision API. Pure Python, no Django.

>>> from engine import new_game
>>> game = new_game("standard", seats=2, seed=7)   # doctest: +SKIP
>>> game.pending(), game.legal_actions(0)[0]        # doctest: +SKIP
"""

from .actions import Action, ActionCodec, ActionSpec
from .errors import (
    ActionError,
    ConfigError,
    DeterminizeError,
    EngineError,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
)
from .game import Game, GameType
from .game_data import game_data
from .modes import MODES, available_modes, mode_class, new_game
from .version import ENGINE_VERSION

__all__ = [
    "ENGINE_VERSION",
    "MODES",
    "Action",
    "ActionCodec",
    "ActionError",
    "ActionSpec",
    "ConfigError",
    "DeterminizeError",
    "EngineError",
    "Game",
    "GameOver",
    "GameType",
    "IllegalAction",
    "MalformedAction",
    "NotYourTurn",
    "available_modes",
    "game_data",
    "mode_class",
    "new_game",
]
