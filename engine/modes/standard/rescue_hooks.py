"""The rescue phase's hooks, which do nothing here: solo's sister plays after each rescue turn
(``after_rescue_turn``) and when a seat passes (``on_rescue_pass``).

``StandardGame`` has them from ``RescueHooks``. They live apart from the game so that the
random playout's rescue loop (``playout.rescue_turns``), which plays rescue turns itself only
in a game whose hooks do nothing, can ask ``plain_rescue_hooks`` without importing the game
that imports it.
"""

from __future__ import annotations


class RescueHooks:
    """The hooks of a game whose rescue phase has nobody else acting in it."""

    def after_rescue_turn(self, seat: int) -> None:
        """Runs after each rescue turn (solo: the sister plays a card)."""

    def on_rescue_pass(self, seat: int) -> None:
        """Runs when a seat passes in the rescue phase (solo: the sister plays the rest)."""


def plain_rescue_hooks(kind: type) -> bool:
    """Whether the game class ``kind`` keeps both hooks as they are here."""
    return (kind.after_rescue_turn is RescueHooks.after_rescue_turn
            and kind.on_rescue_pass is RescueHooks.on_rescue_pass)
