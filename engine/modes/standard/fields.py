"""The two fields beside the island: filling them from the bag, and the cats lying there.

The cats lie in one line, left field then right field, numbered from left to right (solo
mode names them "cat N"): the fill puts the first cats drawn on the left. A cat moved to the
other field (card 77) or drawn into a field (card 83) joins the end of that field's part of
the line, so a left-field cat always has a lower number than every right-field cat. A field's
own list is the cats of that side in number order; ``index`` in rescue actions is a position
in that list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...copies import twin_of
from ...jsontext import JSONText, array_text

SIDES = ("left", "right")


@dataclass
class FieldCat:
    tile: int
    side: str


@dataclass
class Fields:
    cats: list[FieldCat] = field(default_factory=list)  # in number order (cat 1 first)
    # ((tile, side) of every cat, JSONText) of the last ``to_part``; not annotated, so not a
    # dataclass field (neither compared nor printed)
    _text = None

    def clone(self) -> Fields:
        """An independent copy for ``Game.clone`` (a card may move a cat: ``FieldCat`` is
        copied); the kept text is immutable and shared."""
        twin = twin_of(self)
        twin.cats = [FieldCat(c.tile, c.side) for c in self.cats]
        return twin

    def side(self, side: str) -> list[int]:
        """Tile ids of the cats in one field, in number order."""
        return [c.tile for c in self.cats if c.side == side]

    def is_empty(self) -> bool:
        return not self.cats

    def add(self, tile: int, side: str) -> None:
        """Lay a cat at the end of a field's part of the line."""
        if side not in SIDES:
            raise ValueError(f"a field is 'left' or 'right', not {side!r}")
        self._insert(FieldCat(tile, side))

    def _insert(self, cat: FieldCat) -> None:
        if cat.side == "right":
            self.cats.append(cat)
        else:  # after the left field's cats, which come first (a loop: no generator)
            cats = self.cats
            end = 0
            while end < len(cats) and cats[end].side == "left":
                end += 1
            cats.insert(end, cat)

    def _locate(self, side: str, index: int) -> int:
        seen = -1
        for i, cat in enumerate(self.cats):
            if cat.side == side:
                seen += 1
                if seen == index:
                    return i
        raise IndexError(f"there is no cat {index} in the {side} field")

    def tile_at(self, side: str, index: int) -> int:
        return self.cats[self._locate(side, index)].tile

    def take(self, side: str, index: int) -> int:
        """Remove and return the tile id of the index-th cat of a field."""
        return self.cats.pop(self._locate(side, index)).tile

    def move(self, side: str, index: int) -> int:
        """Move a cat to the opposite field (card 77), at the end of that field's line."""
        cat = self.cats.pop(self._locate(side, index))
        cat.side = "right" if side == "left" else "left"
        self._insert(cat)
        return cat.tile

    def clear(self) -> list[int]:
        """Empty both fields (end of day: the cats flee); returns the tiles removed."""
        tiles = [c.tile for c in self.cats]
        self.cats.clear()
        return tiles

    def to_json(self, describe: Callable[[int], dict[str, Any]]) -> dict[str, Any]:
        return {s: [describe(t) for t in self.side(s)] for s in SIDES}

    def to_part(self, part_of: Callable[[int], JSONText]) -> JSONText:
        """The compact JSON text of ``to_json`` with its parts (each field a ``JSONText`` of
        its tiles' texts, ``part_of``), kept while the cats and their sides are the same
        (``part_of`` must not change)."""
        lying = [(c.tile, c.side) for c in self.cats]
        kept = self._text
        if kept is not None and kept[0] == lying:
            return kept[1]
        left = array_text([part_of(t) for t, side in lying if side == "left"])
        right = array_text([part_of(t) for t, side in lying if side == "right"])
        part = JSONText(f'{{"left":{left.text},"right":{right.text}}}',
                        {"left": left, "right": right})
        self._text = (lying, part)
        return part


def fill_fields(
    bag: list[int],
    fields: Fields,
    rare_supply: list[int],
    per_field: int,
    is_cat: Callable[[int], bool],
    log: Callable[..., None],
) -> None:
    """Draw from the bag until ``per_field`` cats lie in each field, left field first.

    Rare treasures drawn meanwhile go to the supply and do not count. An empty bag simply
    leaves fewer cats (the bag is never refilled).
    """
    drawn_cats = 0
    drawn: list[int] = []
    while drawn_cats < 2 * per_field and bag:
        tile = bag.pop()
        drawn.append(tile)
        if is_cat(tile):
            fields.add(tile, "left" if drawn_cats < per_field else "right")
            drawn_cats += 1
        else:
            rare_supply.append(tile)
    log("fill_fields", drawn=drawn, left=fields.side("left"), right=fields.side("right"))
