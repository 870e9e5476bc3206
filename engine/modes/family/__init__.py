"""The family variant of The Isle of Cats (2-4 players); see ``game.py``."""

from .game import FamilyGame

__all__ = ["FamilyGame"]
