"""The action catalogue of the standard game (also used by family and solo): every action
kind with its typed fields, as the codec encodes it. docs/engine.md lists them with examples.
"""

from __future__ import annotations

from ...actions import ActionCodec, ActionSpec

SPECS = (
    ActionSpec("keep", (("cards", "ints"),),
               "draft: keep these cards of your pile (2 of them), pass the rest"),
    ActionSpec("buy", (("card", "int"),),
               "pay the fish cost of one of your draft picks (or of a card drawn by 71-74)"),
    ActionSpec("done", (),
               "finish the current sequence: buying, choosing rescue cards, playing anytime "
               "cards in a round, moving cats (77), or a rescue turn after its first cat"),
    ActionSpec("play", (("card", "int"),), "play an anytime card (67-97) from your hand"),
    ActionSpec("lesson_colour", (("card", "int"), ("colour", "colour")),
               "declare the colour of a public lesson being read (143-146, 149)"),
    ActionSpec("choose_rescue", (("card", "int"),),
               "lay one of your rescue cards face down for today's rescue"),
    ActionSpec("rescue", (("field", "str"), ("index", "int"), ("basket", "str")),
               "rescue cat number `index` (0-based) of the 'left' (3 fish) or 'right' (5 fish) "
               "field with a 'permanent', 'full' or 'half' (two half cards) basket"),
    ActionSpec("pass", (), "pass: no more turns for you in this rescue or rare-finds phase"),
    ActionSpec("place", (("cells", "cells"),), "place the tile you hold on these cells"),
    ActionSpec("take_treasure", (("shape", "str"),),
               "take a treasure of this shape from the supply (then place it)"),
    ActionSpec("decline", (), "do not take the optional treasure on offer"),
    ActionSpec("oshax", (("card", "int"), ("shape", "str"), ("colour", "colour")),
               "play an Oshax card: take that Oshax with that colour (then place it)"),
    ActionSpec("treasure", (("card", "int"), ("option", "int")),
               "play a treasure card with option 0 or 1 (as listed in the card's options)"),
    ActionSpec("move_cat", (("field", "str"), ("index", "int")),
               "card 77: move cat `index` of that field to the other field"),
    ActionSpec("to_field", (("field", "str"),), "card 83: put the drawn cat in this field"),
    ActionSpec("discard_lessons", (("cards", "ints"),),
               "cards 86/87: give up these two private lessons"),
    ActionSpec("remove_treasures", (("tiles", "ints"),),
               "cards 88/89: take these two treasure tiles (ids) off your boat"),
)

CODEC = ActionCodec(SPECS)
