"""Placement as a sub-decision: the lazy list of ``place`` actions for one held tile.

``PlaceActions`` wraps ``shapes.Placements`` so legal placement lists stay lazy
(hundreds of masks per tile) while answering ``len``, indexing, iteration and
``in`` like any other list of legal actions.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from ...actions import Action
from ...boat import Boat
from ...shapes import Placements, Shape, legal_placements


class PlaceActions(Sequence[Action]):
    """``Action("place", mask)`` for every legal placement of one shape."""

    __slots__ = ("placements",)

    def __init__(self, placements: Placements) -> None:
        self.placements = placements

    def __len__(self) -> int:
        return len(self.placements)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return Action("place", self.placements[index])

    def __iter__(self) -> Iterator[Action]:
        for mask in self.placements:
            yield Action("place", mask)

    def __contains__(self, action: object) -> bool:
        return (isinstance(action, tuple) and len(action) == 2 and action[0] == "place"
                and action[1] in self.placements)


def placements_on(boat: Boat, shape: Shape) -> Placements:
    """Legal placements on a boat: anywhere while it is empty, else touching a tile."""
    return legal_placements(shape, boat.layout, boat.occupied)
