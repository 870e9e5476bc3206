"""A lazy legal-action list over placements: ``Action("place", mask)`` for every mask of
one or more ``engine.shapes.Placements`` (a cat's shape, or every treasure shape still in
the supply), followed by a few plain actions (``decline``). Nothing is built until a
caller indexes or iterates it, so a decision with hundreds of placements costs a few
big-integer operations.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from ...actions import Action
from ...shapes import Placements


class PlacementActions(Sequence[Action]):
    __slots__ = ("_parts", "_extra", "_len")

    def __init__(self, parts: Sequence[Placements], extra: tuple[Action, ...] = ()) -> None:
        self._parts = [p for p in parts if p]
        self._extra = extra
        self._len = sum(len(p) for p in self._parts) + len(extra)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("action index out of range")
        for part in self._parts:
            n = len(part)
            if index < n:
                return Action("place", part[index])
            index -= n
        return self._extra[index]

    def __iter__(self) -> Iterator[Action]:
        for part in self._parts:
            for mask in part:
                yield Action("place", mask)
        yield from self._extra

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, tuple):
            return False
        if action in self._extra:
            return True
        if len(action) != 2 or action[0] != "place":
            return False
        return any(action[1] in part for part in self._parts)

    def masks(self) -> Iterator[int]:
        """The placement masks alone (bots that score cells need no Action objects)."""
        for part in self._parts:
            yield from part

    def __repr__(self) -> str:
        return f"<PlacementActions {self._len}>"
