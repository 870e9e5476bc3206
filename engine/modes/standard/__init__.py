"""The standard game of The Isle of Cats (2-4 players), built for reuse by family and solo.

``state`` holds the dataclasses, ``setup`` deals the table, ``fields`` fills the fields,
``placement`` is the place-a-tile decision, ``phases`` the phases of a day as frames,
``catalogue`` the actions, ``observation`` what each seat sees, ``result`` the end, and
``game`` the ``StandardGame`` state machine.
"""

from .game import StandardGame, Step

__all__ = ["StandardGame", "Step"]
