"""Phase 3, reading lessons: every lesson in a hand goes to the table, private ones face
down in front of their owner, public ones face up for everybody. A public lesson that needs a
colour gets it now, declared by its owner in turn order (the printed rule: the colour is
declared when the card is played; FACTS.md has it chosen at purchase, see rules-notes).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ....actions import Action
from ....boat import COLOURS
from ..frames import Frame
from ..state import card

if TYPE_CHECKING:
    from ..game import StandardGame


def read_lessons(game: StandardGame) -> None:
    """Move the lessons of every hand to the table; push the colour choices still owed."""
    state = game.state
    owed: list[tuple[int, int]] = []
    for seat in state.turn_order:
        p = state.players[seat]
        for c in sorted(p.hand):
            info = card(c)
            if info.family == "private_lesson":
                p.remove_card(c)
                p.private_lessons.append(c)
                game.log("lesson_read", seat=seat, public=False, hidden=True, card=c)
            elif info.family == "public_lesson":
                p.remove_card(c)
                if info.needs_colour:
                    owed.append((seat, c))
                    state.public_lessons_pending.append(c)
                else:
                    state.public_lessons.append((c, None))
                game.log("lesson_read", seat=seat, public=True, card=c)
    if owed:
        game.push(LessonColourFrame(owed))


class LessonColourFrame(Frame):
    """Each owed (seat, card) in turn order: ``lesson_colour card=N colour=C``."""

    name = "lesson_colour"

    def __init__(self, owed: list[tuple[int, int]]) -> None:
        super().__init__()
        self.owed = list(owed)

    def progress(self, game: StandardGame) -> None:
        if not self.owed:
            self.done = True
            self.waiting = ()
            return
        self.waiting = (self.owed[0][0],)

    def legal(self, game: StandardGame, seat: int) -> Sequence[Action]:
        if not self.owed or seat != self.owed[0][0]:
            return ()
        return [Action("lesson_colour", self.owed[0][1], c) for c in COLOURS]

    def reason(self, game: StandardGame, seat: int, action: Action) -> str | None:
        if action.kind == "lesson_colour" and action[1] != self.owed[0][1]:
            return f"choose the colour of public lesson {self.owed[0][1]} first"
        return None

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        _, card_id, colour = action
        self.owed.pop(0)
        game.state.public_lessons_pending.remove(card_id)
        game.state.public_lessons.append((card_id, colour))
        game.log("lesson_colour", seat=seat, card=card_id, colour=colour)
        self.waiting = ()

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        return {"decision": self.name, "card": self.owed[0][1] if self.owed else None}

    def to_state(self) -> dict[str, Any]:
        return {**super().to_state(), "owed": [list(o) for o in self.owed]}
