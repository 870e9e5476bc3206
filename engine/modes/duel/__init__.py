"""The Isle of Cats Duel (2 players) as ``mode="duel"``: the island, the Oshax, fish
actions and 4 days, on the shared boats-and-tiles core (engine.boat, engine.shapes).

Modules: ``data`` (components from engine/data/duel), ``actions`` (the catalogue),
``game`` (the state machine; placements are the core's lazy ``PlacementActions``),
``scoring`` (families and lessons), ``views`` (observation, spectator view, result).
"""

from .game import DuelGame

__all__ = ["DuelGame"]
