"""The decision stack's building block: a frame is one pending decision (or a sequence).

The game keeps a stack of frames. The top frame says which seats must act (``waiting``),
what they may do (``legal``) and what an action does (``apply``); ``progress`` runs the
automatic steps between decisions and may push child frames (a placement, a treasure
choice, a card's follow-up). A frame that is finished sets ``done`` and is popped; the
frame below then resumes from its own recorded stage. No recursion, no generators: the
whole flow is data, so it can be hashed, inspected and reused by family and solo.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ...actions import Action

if TYPE_CHECKING:
    from .game import StandardGame


class PickActions(list):
    """A list of actions whose one ``ints`` field is a set of picks (draft keeps, cards or
    tiles to give up): ``in`` accepts the picks in any order. Legal actions list them sorted."""

    def __contains__(self, action: object) -> bool:
        if isinstance(action, tuple) and len(action) == 2 and isinstance(action[1], tuple):
            action = type(action)(action[0], tuple(sorted(action[1])))
        return list.__contains__(self, action)


_ATOMS = frozenset({int, str, bool, float, type(None)})


def without(seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """``seats`` less ``seat`` (the same tuple if it is not there): a frame's ``waiting``
    after a seat is done with a simultaneous choice, by slicing rather than a generator."""
    if seat not in seats:
        return seats
    i = seats.index(seat)
    return seats[:i] + seats[i + 1:]


class Frame:
    """Base class: a frame that needs nobody and is done at once."""

    name: ClassVar[str] = "frame"
    # Whether the table may see who is asked. False where the seats asked are those holding
    # something hidden (a kept card they can afford, rescue cards, a playable anytime card):
    # an observation then names only its own seat as pending.
    public_waiting: ClassVar[bool] = True
    # Whether the seats it waits for choose in secret and independently: until a seat's
    # turn, the others' answers change neither its observation nor its legal actions
    # (``Game.asked_together``). Such a frame hides who is still asked (``public_waiting``).
    simultaneous: ClassVar[bool] = False

    def __init__(self) -> None:
        self.done = False
        self.waiting: tuple[int, ...] = ()

    def resume_asking(self, seat: int) -> None:
        """Wait for ``seat`` alone, as an observation showed: a forward model rebuilding the
        stack says so of its top frame from outside, where the frame's own ``progress``
        would run automatic steps that the real game has run already."""
        self.waiting = (seat,)

    def progress(self, game: StandardGame) -> None:
        """Automatic steps. Leaves the frame waiting, done, or with a child pushed."""

    def legal(self, game: StandardGame, seat: int) -> Sequence[Action]:
        return ()

    def pick(self, game: StandardGame, seat: int, randbelow: Callable[[int], int]) -> Action:
        """``legal[randbelow(len(legal))]`` for ``legal = self.legal(game, seat)``, the one
        draw of a random playout (``StandardGame.playout``). Frames whose count and i-th
        action are cheap to find without the list (a draft's picks) override this; the
        answer and the draw must stay exactly those of the list."""
        legal = self.legal(game, seat)
        return legal[randbelow(len(legal))]

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        raise NotImplementedError(f"{self.name} takes no actions")

    def reason(self, game: StandardGame, seat: int, action: Action) -> str | None:
        """A precise reason why ``action`` is illegal, when the frame knows one.
        None means "check membership in ``legal``"."""
        return None

    def clone(self, memo: dict[int, Any]) -> Frame:
        """An independent copy for ``Game.clone``. Numbers, strings and tuples of seats are
        shared, lists of them copied; anything else goes through ``copy.deepcopy`` with
        ``memo``, which maps the original game, its state and the frames already copied to
        their copies (a child frame's link to its phase frame then points at the copy)."""
        twin = object.__new__(type(self))
        memo[id(self)] = twin
        for name, value in self.__dict__.items():
            kind = type(value)
            if kind in _ATOMS:
                pass
            elif (kind is tuple or kind is list) and all(type(i) in _ATOMS for i in value):
                if kind is list:
                    value = value[:]
            else:
                value = copy.deepcopy(value, memo)
            setattr(twin, name, value)  # one by one: see ``engine.copies``
        return twin

    def state_edited(self) -> None:
        """The state was edited by hand (tests, tools): forget anything derived from it."""

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        """What is being asked of ``seat`` now, in words a bot can use (observation)."""
        return {"decision": self.name}

    def to_state(self) -> dict[str, Any]:
        """The frame's internals for the full state (hashing); may hold hidden facts."""
        out: dict[str, Any] = {"frame": self.name, "done": self.done, "waiting": list(self.waiting)}
        for key, value in vars(self).items():
            if key in ("done", "waiting") or key.startswith("_"):
                continue
            if isinstance(value, (int, str, bool, type(None))):
                out[key] = value
            elif isinstance(value, (list, tuple, set, frozenset)):
                out[key] = sorted(value) if isinstance(value, (set, frozenset)) else list(value)
            elif isinstance(value, dict):
                out[key] = {str(k): v for k, v in value.items()}
        return out
