"""The solo mode of The Isle of Cats: one player against the automated sister.

``sister.py`` holds the sister (her cards, numbering and actions), ``draft.py`` the solo
draft, ``game.py`` ``SoloGame`` on the standard game's flow; the numbers are in solo.json.
"""

from .game import SoloGame

__all__ = ["SoloGame"]
