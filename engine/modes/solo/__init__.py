"""The solo mode of The Isle of Cats: one player against the automated sister.

``sister.py`` holds the sister (her cards, numbering and actions); the game class
``SoloGame`` builds on the standard game's flow.
"""
