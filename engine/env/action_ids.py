"""A fixed integer id for every action of a mode: the action space of the environments.

The engine lists a decision's legal actions in an order that depends on the state, so "index
3" means a different thing at every decision. A learner needs one id per action for the whole
game: ``ActionIds(mode)`` gives every action of the mode's catalogue one id, the same in every
state, and the legal mask over them.

The ids are laid out kind after kind, in the catalogue's order (``blocks``). A kind's block is
the product of its fields' domains, the first field most significant (mixed radix):

* a card, a space, a colour, a field, a shape key, a boat: its position in a fixed list
  read from the game data (``Choice``);
* a set of k cards or tiles (``keep``, ``discard_lessons``, ``remove_treasures``): the rank
  of the sorted set among the k-subsets of a fixed list (``Pick``, combinatorial number
  system);
* a placement's cells (``Cells``): oriented shape x anchor. Every distinct orientation of
  every shape of the mode (deduplicated by its cells) has 207 ids, one per anchor bit
  ``y * 23 + x`` of its bounding box's top-left corner on the 23 x 9 board of the engine's
  bitboards; anchors whose box would leave the 22 x 9 frame are no action at all.

``encode(action) -> id`` and ``decode(id) -> action`` are exact inverses on every action of
the mode; ``legal_mask(legal)`` marks the ids of a decision's legal actions without building
an action per placement (it reads the placement bitboards row by row). docs/training.md prints
the layout of every mode, from ``layout_rows``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from math import comb
from typing import Any

import numpy as np

from ..actions import Action
from ..boat import COLOURS, HEIGHT, STRIDE, WIDTH
from ..cards import DISCOVERY_IDS, cards_of_family
from ..modes.duel.actions import FISH_ACTIONS
from ..modes.duel.data import ISLAND_SPACES, duel_data
from ..modes.standard.phases.rescue import BASKETS
from ..modes.standard.setup import build_tiles
from ..shapes import Orientation, Shape, base_shapes

FIELDS = ("left", "right")
FIELD_SLOTS = 24  # cats a field can hold, with room for cards 77 and 83 (the most seen: 11)
ANCHORS = STRIDE * HEIGHT  # anchor bits of one orientation: 207


class ActionIdError(ValueError):
    """An action id, an action or a mask that does not fit the mode's action ids."""


class UnknownActionId(ActionIdError):
    """An id that names no action of the mode (out of range, or a placement off the board)."""


class IllegalActionId(ActionIdError):
    """An id of a real action that is not legal in this state."""


class MaskLengthError(ActionIdError):
    """A mask whose length is not the mode's number of action ids."""


def _values_text(values: tuple[Any, ...]) -> str:
    """A domain's values for the docs, in their order: runs of integers as ``a..b``."""
    if not all(isinstance(v, int) for v in values) or len(values) <= 3:
        return ", ".join(str(v) for v in values)
    runs: list[list[int]] = []
    for v in values:
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    return ", ".join(f"{r[0]}..{r[-1]}" if len(r) > 2 else ", ".join(map(str, r))
                     for r in runs)


@dataclass(frozen=True)
class Choice:
    """One value of a fixed list."""

    name: str
    values: tuple[Any, ...]

    @property
    def size(self) -> int:
        return len(self.values)

    def describe(self) -> str:
        return f"{self.name} in {_values_text(self.values)} ({self.size})"


@dataclass(frozen=True)
class Pick:
    """A set of ``k`` different values of a fixed list, written sorted."""

    name: str
    values: tuple[Any, ...]
    k: int

    @property
    def size(self) -> int:
        return comb(len(self.values), self.k)

    def describe(self) -> str:
        return (f"{self.name}: {self.k} of {_values_text(self.values)} "
                f"({len(self.values)} values, C({len(self.values)},{self.k}) = {self.size})")

    def rank(self, positions: Sequence[int]) -> int:
        return sum(comb(p, i + 1) for i, p in enumerate(positions))

    def unrank(self, rank: int) -> list[int]:
        out = []
        for i in range(self.k, 0, -1):
            p = i - 1
            while comb(p + 1, i) <= rank:
                p += 1
            out.append(p)
            rank -= comb(p, i)
        return out[::-1]


@dataclass(frozen=True)
class Cells:
    """A placement: an orientation of one of ``shapes`` at an anchor bit."""

    name: str
    orientations: tuple[Orientation, ...]

    @property
    def size(self) -> int:
        return len(self.orientations) * ANCHORS

    def describe(self) -> str:
        return (f"{self.name}: {len(self.orientations)} oriented shapes x {ANCHORS} anchors "
                f"(y * {STRIDE} + x of the top-left corner)")


Domain = Choice | Pick | Cells


@dataclass(frozen=True)
class Block:
    kind: str
    domains: tuple[Domain, ...]
    first: int

    @property
    def size(self) -> int:
        size = 1
        for d in self.domains:
            size *= d.size
        return size


def _orientations(shapes: Sequence[Shape]) -> tuple[Orientation, ...]:
    """Every distinct orientation of ``shapes``, in shape order, told apart by their cells."""
    seen: dict[int, Orientation] = {}
    for shape in shapes:
        for o in shape.orientations:
            seen.setdefault(o.mask0, o)
    return tuple(seen.values())


def _card_ids(family: str) -> tuple[int, ...]:
    return tuple(c.id for c in cards_of_family(family))


def _standard_blocks(mode: str) -> list[tuple[str, tuple[Domain, ...]]]:
    shapes = base_shapes()
    every_shape = [*shapes.cats, *shapes.oshax, *shapes.rare_treasures, *shapes.common_treasures]
    per_shape = max(shapes.common_count_per_shape.values())
    treasure_tiles = tuple(t.id for t in build_tiles(per_shape)
                           if t.kind in ("rare_treasure", "common_treasure"))
    treasure_cards = cards_of_family("treasure")
    options = max(len(c.options) for c in treasure_cards)
    keep = 3 if mode == "solo" else 2
    field = Choice("field", FIELDS)
    index = Choice("index", tuple(range(FIELD_SLOTS)))
    return [
        ("keep", (Pick("cards", tuple(DISCOVERY_IDS), keep),)),
        ("buy", (Choice("card", tuple(DISCOVERY_IDS)),)),
        ("done", ()),
        ("play", (Choice("card", _card_ids("anytime")),)),
        ("lesson_colour", (Choice("card", _card_ids("public_lesson")),
                           Choice("colour", COLOURS))),
        ("choose_rescue", (Choice("card", _card_ids("rescue")),)),
        ("rescue", (field, index, Choice("basket", BASKETS))),
        ("pass", ()),
        ("place", (Cells("cells", _orientations(every_shape)),)),
        ("take_treasure", (Choice("shape", tuple(s.key for s in (
            *shapes.common_treasures, *shapes.rare_treasures))),)),
        ("decline", ()),
        ("oshax", (Choice("card", _card_ids("oshax")),
                   Choice("shape", tuple(s.key for s in shapes.oshax)),
                   Choice("colour", COLOURS))),
        ("treasure", (Choice("card", tuple(c.id for c in treasure_cards)),
                      Choice("option", tuple(range(options))))),
        ("move_cat", (field, index)),
        ("to_field", (field,)),
        ("discard_lessons", (Pick("cards", _card_ids("private_lesson"), 2),)),
        ("remove_treasures", (Pick("tiles", treasure_tiles, 2),)),
    ]


def _family_blocks() -> list[tuple[str, tuple[Domain, ...]]]:
    shapes = base_shapes()
    every_shape = [*shapes.cats, *shapes.common_treasures]
    return [
        ("keep", (Pick("cards", _card_ids("family_lesson"), 2),)),
        ("take", (Choice("field", FIELDS), Choice("index", tuple(range(FIELD_SLOTS))))),
        ("place", (Cells("cells", _orientations(every_shape)),)),
        ("take_treasure", (Choice("shape", tuple(s.key for s in shapes.common_treasures)),)),
        ("decline", ()),
        ("pass", ()),
    ]


def _duel_blocks() -> list[tuple[str, tuple[Domain, ...]]]:
    data = duel_data()
    spaces = tuple(range(1, ISLAND_SPACES + 1))
    return [
        ("choose_boat", (Choice("boat", tuple(data.layouts)),)),
        ("move", (Choice("to", spaces),)),
        ("select", (Choice("space", spaces),)),
        ("place", (Cells("cells", _orientations(list(data.shape_by_key.values()))),)),
        ("fish_action", (Choice("action", FISH_ACTIONS),)),
        ("decline", ()),
        ("end_turn", ()),
        ("return_cat", (Choice("tile", tuple(c.id for c in data.cats)),)),
    ]


class ActionIds:
    """The fixed action ids of one mode (see the module docstring). Build it with
    ``action_ids(mode)``."""

    def __init__(self, mode: str) -> None:
        if mode == "duel":
            specs = _duel_blocks()
        elif mode == "family":
            specs = _family_blocks()
        elif mode in ("standard", "solo"):
            specs = _standard_blocks(mode)
        else:
            raise KeyError(f"no action ids for mode {mode!r}")
        self.mode = mode
        blocks, first = [], 0
        for kind, domains in specs:
            block = Block(kind, domains, first)
            blocks.append(block)
            first += block.size
        self.blocks: tuple[Block, ...] = tuple(blocks)
        self.size = first
        self._firsts = [b.first for b in self.blocks]
        self._by_kind = {b.kind: b for b in self.blocks}
        self._index: dict[tuple[int, int], dict[Any, int]] = {
            (bi, di): {v: i for i, v in enumerate(d.values)}
            for bi, b in enumerate(self.blocks) for di, d in enumerate(b.domains)
            if not isinstance(d, Cells)}
        place = self._by_kind["place"]
        cells = place.domains[0]
        assert isinstance(cells, Cells)
        self._place_first = place.first
        self._orientation_index = {o.mask0: i for i, o in enumerate(cells.orientations)}
        self._orientations = cells.orientations
        self._cache: dict[Action, int] = {}
        # which anchors of each orientation keep its box inside the 22 x 9 frame
        self._anchor_ok = [
            frozenset(y * STRIDE + x for y in range(HEIGHT - o.height + 1)
                      for x in range(WIDTH - o.width + 1)) for o in cells.orientations]

    # --- one action ---------------------------------------------------------------------------

    def encode(self, action: Action) -> int:
        """The id of ``action``; ``ActionIdError`` for an action outside the mode's ids."""
        found = self._cache.get(action)
        if found is not None:
            return found
        block = self._by_kind.get(action[0]) if isinstance(action, tuple) and action else None
        if block is None:
            raise ActionIdError(f"{action!r} is no action of mode {self.mode!r}")
        if block.kind == "place":
            return self._encode_place(action)
        if len(action) != len(block.domains) + 1:
            raise ActionIdError(f"{action!r}: a {block.kind!r} action has "
                                f"{len(block.domains)} field(s)")
        bi = self.blocks.index(block)
        at = 0
        for di, (domain, value) in enumerate(zip(block.domains, action[1:], strict=True)):
            index = self._index[(bi, di)]
            if isinstance(domain, Pick):
                try:
                    positions = sorted(index[v] for v in value)
                except (KeyError, TypeError):
                    raise ActionIdError(f"{action!r}: {domain.name} must be {domain.k} of "
                                        f"{domain.describe()}") from None
                if len(positions) != domain.k or len(set(positions)) != domain.k:
                    raise ActionIdError(f"{action!r}: {domain.name} must be {domain.k} "
                                        "different values")
                i = domain.rank(positions)
            else:
                i = index.get(value) if not isinstance(value, (list, dict, set)) else None
                if i is None:
                    raise ActionIdError(f"{action!r}: {domain.describe()}")
            at = at * domain.size + i
        action_id = block.first + at
        self._cache[action] = action_id
        return action_id

    def _encode_place(self, action: Action) -> int:
        mask = action[1] if len(action) == 2 else None
        if not isinstance(mask, int) or isinstance(mask, bool) or mask <= 0:
            raise ActionIdError(f"{action!r}: a place action holds one cells mask")
        low = (mask & -mask).bit_length() - 1
        top = low // STRIDE
        left = min(i % STRIDE for i in _bits(mask))
        anchor = top * STRIDE + left
        o = self._orientation_index.get(mask >> anchor)
        if o is None or anchor >= ANCHORS:
            raise ActionIdError(f"{action!r}: its cells are no shape of mode {self.mode!r}")
        return self._place_first + o * ANCHORS + anchor

    def decode(self, action_id: int) -> Action:
        """The action of ``action_id``; ``UnknownActionId`` for an id that names none."""
        if isinstance(action_id, (bool, np.bool_)) or not isinstance(
                action_id, (int, np.integer)) or not 0 <= action_id < self.size:
            raise UnknownActionId(f"unknown action id {action_id!r}: mode {self.mode!r} has "
                                  f"ids 0 to {self.size - 1}")
        action_id = int(action_id)
        block = self.blocks[bisect_right(self._firsts, action_id) - 1]
        at = action_id - block.first
        if block.kind == "place":
            o, anchor = divmod(at, ANCHORS)
            if anchor not in self._anchor_ok[o]:
                raise UnknownActionId(
                    f"unknown action id {action_id}: oriented shape {o} at anchor {anchor} "
                    f"would leave the {WIDTH}x{HEIGHT} board")
            return Action("place", self._orientations[o].mask0 << anchor)
        values: list[Any] = []
        for domain in reversed(block.domains):
            at, i = divmod(at, domain.size)
            if isinstance(domain, Pick):
                values.append(tuple(domain.values[p] for p in domain.unrank(i)))
            else:
                values.append(domain.values[i])
        return Action(block.kind, *reversed(values))

    # --- a decision ---------------------------------------------------------------------------

    def legal_mask(self, legal: Sequence[Action]) -> np.ndarray:
        """An ``int8`` vector of ``size``: 1 at the id of every action of ``legal``."""
        mask = np.zeros(self.size, np.int8)
        self.mark(mask, legal)
        return mask

    def mark(self, mask: np.ndarray, legal: Sequence[Action]) -> None:
        """Set ``mask`` to 1 at the ids of ``legal``. A decision's placements
        (``PlacementActions``) are read from their bitboards, one orientation at a time."""
        parts = getattr(legal, "parts", None)
        if parts is None or getattr(legal, "kind", None) != "place":
            encode = self.encode
            for action in legal:
                mask[encode(action)] = 1
            return
        for action in (*legal.before, *legal.after):
            mask[self.encode(action)] = 1
        for part in parts:
            rows = getattr(part, "_rows", None)
            if rows is None:  # another Placements: one mask at a time
                for m in part:
                    mask[self._encode_place(Action("place", m))] = 1
                continue
            for o, anchors in rows:
                first = self._place_first + self._orientation_index[o.mask0] * ANCHORS
                bits = np.unpackbits(np.frombuffer(anchors.to_bytes(_ANCHOR_BYTES, "little"),
                                                   np.uint8), bitorder="little")[:ANCHORS]
                mask[first:first + ANCHORS] |= bits.view(np.int8)

    def legal_ids(self, legal: Sequence[Action]) -> np.ndarray:
        """The ids of ``legal``, ascending."""
        return np.flatnonzero(self.legal_mask(legal))

    def action_for(self, action_id: int, legal: Sequence[Action]) -> Action:
        """The action of ``action_id`` if it is legal: ``UnknownActionId`` for an id of no
        action, ``IllegalActionId`` for an action that ``legal`` does not hold."""
        action = self.decode(action_id)
        if action not in legal:
            raise IllegalActionId(f"action id {int(action_id)} ({_text(action)}) is not legal "
                                  "now (see the action mask)")
        return action

    def check_mask(self, mask: Any) -> np.ndarray:
        """``mask`` as a 1-D array, or ``MaskLengthError`` when its length is not ``size``."""
        array = np.asarray(mask)
        if array.ndim != 1 or array.shape[0] != self.size:
            raise MaskLengthError(f"an action mask of length {array.shape[-1] if array.ndim else 0}"
                                  f" (shape {array.shape}): mode {self.mode!r} has {self.size} "
                                  "action ids")
        return array

    def layout_rows(self) -> list[tuple[int, int, str, str]]:
        """``(first id, count, kind, fields)`` of every block, for docs."""
        return [(b.first, b.size, b.kind,
                 " x ".join(d.describe() for d in b.domains) or "no field")
                for b in self.blocks]


_ANCHOR_BYTES = (STRIDE * 16 + 7) // 8  # anchor masks may reach row 15 (guards included)


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _text(action: Action) -> str:
    return " ".join(str(v) for v in action)


@cache
def action_ids(mode: str) -> ActionIds:
    """The fixed action ids of ``mode`` (standard, family, solo or duel), built once."""
    return ActionIds(mode)


def action_space_size(mode: str) -> int:
    return action_ids(mode).size


def encode(mode: str, action: Action) -> int:
    return action_ids(mode).encode(action)


def decode(mode: str, action_id: int) -> Action:
    return action_ids(mode).decode(action_id)


def legal_mask(mode: str, legal: Sequence[Action]) -> np.ndarray:
    return action_ids(mode).legal_mask(legal)
