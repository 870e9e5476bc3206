"""The Duel's action catalogue (see docs/engine.md, "## Duel") and its codec.

A turn is decomposed into small decisions: ``move`` steps of the Oshax, then any of
``select`` (followed by ``place`` for a cat), ``fish_action`` (followed by a ``move``,
a ``place`` or a ``select``) and finally ``end_turn``. Treasures are placed with
``place`` (the cells say which treasure shape) or given up with ``decline``.
"""

from __future__ import annotations

from ...actions import Action, ActionCodec, ActionSpec

FISH_ACTIONS = ("move", "jump", "treasure", "discovery")

SPECS = (
    ActionSpec("choose_boat", (("boat", "str"),),
               "Set-up: choose your boat layout ('O' or 'I'); both players may take the same."),
    ActionSpec("move", (("to", "int"),),
               "Move the Oshax one step to an adjacent space not touched this turn (after a "
               "'jump' purchase: to any other space, visited ones included)."),
    ActionSpec("select", (("space", "int"),),
               "Take the discovery on a space the Oshax touched this turn (a cat only if it "
               "fits on your boat); a cat is then placed with 'place'."),
    ActionSpec("place", (("cells", "cells"),),
               "Place the cat being taken, or a treasure (the cells give its shape)."),
    ActionSpec("fish_action", (("action", "str"),),
               "Spend fish: 'move' (1: one extra step), 'jump' (2: next step to any other "
               "space), 'treasure' (2: take and place one treasure), 'discovery' (3: one more "
               "selection, after your selection action)."),
    ActionSpec("decline", (), "Give up the treasure you may take now."),
    ActionSpec("end_turn", (), "End your turn (after the two mandatory steps)."),
    ActionSpec("return_cat", (("tile", "int"),),
               "End of a day: the next first player returns one round-counter cat to the bag."),
)

CODEC = ActionCodec(SPECS)

DECLINE = Action("decline")
END_TURN = Action("end_turn")
MOVES = tuple(Action("move", s) for s in range(16))
SELECTS = tuple(Action("select", s) for s in range(16))
FISH = {name: Action("fish_action", name) for name in FISH_ACTIONS}
