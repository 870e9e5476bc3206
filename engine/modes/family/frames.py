"""The decisions of the family variant, as frames of the standard game's decision stack.

``KeepLessonsFrame``: every seat keeps 2 of its 3 family lessons at once (hidden until all
chose). ``FamilyRescuePhaseFrame``: round and round the turn order, no anytime windows; a
turn (``FamilyTurnFrame``) is ``take field=left|right index=i`` (free) followed by the
standard placement and map-reward frames, or ``pass`` for the rest of the day.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ...actions import Action
from ..standard.fields import SIDES
from ..standard.frames import Frame, PickActions
from ..standard.phases.turns import TurnsFrame
from ..standard.placement import PlaceFrame, fits

if TYPE_CHECKING:
    from ..standard.game import StandardGame


class KeepLessonsFrame(Frame):
    """Simultaneous: ``keep cards=[a, b]`` of the lessons in hand; the rest is discarded."""

    name = "keep_lessons"

    def __init__(self, keep: int) -> None:
        super().__init__()
        self.keep = keep
        self.picks: dict[int, tuple[int, ...]] = {}

    @classmethod
    def resumed(cls, keep: int, picks: dict[int, tuple[int, ...]]) -> KeepLessonsFrame:
        """The choice with ``picks`` (seat -> lessons kept) already made (a forward model
        samples the secret picks of the seats its observation shows as done)."""
        frame = cls(keep)
        frame.picks.update(picks)
        return frame

    def progress(self, game: StandardGame) -> None:
        waiting = tuple(p.seat for p in game.state.players if p.seat not in self.picks)
        if waiting:
            self.waiting = waiting
            return
        for p in game.state.players:
            for c in sorted(p.hand):
                p.remove_card(c)
                (p.private_lessons if c in self.picks[p.seat] else game.state.discard).append(c)
        game.log("lessons_kept", hidden=True,
                 kept={str(s): list(k) for s, k in sorted(self.picks.items())})
        self.done = True
        self.waiting = ()

    def legal(self, game: StandardGame, seat: int) -> Sequence[Action]:
        if seat not in self.waiting:
            return ()
        hand = sorted(game.state.players[seat].hand)
        return PickActions(Action("keep", pick) for pick in combinations(hand, self.keep))

    def reason(self, game: StandardGame, seat: int, action: Action) -> str | None:
        if action.kind != "keep":
            return None
        cards = action[1]
        hand = game.state.players[seat].hand
        if len(cards) != self.keep or len(set(cards)) != len(cards):
            return f"keep exactly {self.keep} different lessons"
        missing = [c for c in cards if c not in hand]
        if missing:
            return f"you can only keep lessons dealt to you: {sorted(hand)}"
        return None

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        self.picks[seat] = tuple(sorted(action[1]))
        self.waiting = tuple(s for s in self.waiting if s != seat)

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        return {"decision": self.name, "keep": self.keep,
                "chosen": [p.seat in self.picks for p in game.state.players]}

    def to_state(self) -> dict[str, Any]:
        out = super().to_state()
        out["picks"] = {str(s): list(p) for s, p in sorted(self.picks.items())}
        return out


def take_options(game: StandardGame, seat: int) -> list[Action]:
    """Every field cat that fits somewhere on this seat's boat (taking is free)."""
    p = game.state.players[seat]
    tiles = game.state.tiles
    fit: dict[str, bool] = {}
    out = []
    for side in SIDES:
        for i, tile in enumerate(game.state.fields.side(side)):
            shape = tiles[tile].shape
            if fit.setdefault(shape, fits(p, shape)):
                out.append(Action("take", side, i))
    return out


class FamilyRescuePhaseFrame(TurnsFrame):
    """The only phase of a family day; over when all passed or the fields are empty."""

    name = "rescue"
    anytime_windows = False

    def over(self, game: StandardGame) -> bool:
        return len(self.passed) == len(self.order) or game.state.fields.is_empty()

    def turn_frame(self, game: StandardGame, seat: int) -> Frame:
        return FamilyTurnFrame(self, seat)

    def finish(self, game: StandardGame) -> None:
        game.log("rescue_over")


class FamilyTurnFrame(Frame):
    name = "family_turn"

    def __init__(self, phase: FamilyRescuePhaseFrame, seat: int, taken: bool = False) -> None:
        super().__init__()
        self._phase = phase
        self.seat = seat
        self.taken = taken  # the turn's cat is taken (its placement runs above this frame)

    def progress(self, game: StandardGame) -> None:
        if self.taken:  # the cat is placed (and any reward taken): the turn is over
            self.done = True
            self.waiting = ()
            return
        self.waiting = (self.seat,)

    def legal(self, game: StandardGame, seat: int) -> Sequence[Action]:
        if seat != self.seat or self.done:
            return ()
        return [*take_options(game, seat), Action("pass")]

    def reason(self, game: StandardGame, seat: int, action: Action) -> str | None:
        if action.kind != "take":
            return None
        side, index = action[1], action[2]
        if side not in SIDES:
            return f"field must be 'left' or 'right', not {side!r}"
        cats = game.state.fields.side(side)
        if not 0 <= index < len(cats):
            return f"there is no cat {index} in the {side} field ({len(cats)} cats there)"
        shape = game.state.tiles[cats[index]].shape
        if not fits(game.state.players[seat], shape):
            return f"that cat ({shape}) does not fit anywhere on your boat"
        return None

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        self.waiting = ()
        if action.kind == "pass":
            self._phase.passed.append(seat)
            game.log("passed", seat=seat, phase="rescue")
            self.done = True
            return
        side, index = action[1], action[2]
        state = game.state
        tile = state.fields.take(side, index)
        state.in_transit.append(tile)
        self.taken = True
        game.log("taken", seat=seat, tile=tile, field=side)
        game.push(PlaceFrame(seat, tile, state.tiles[tile].colour, reward=True))

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        return {"decision": self.name}
