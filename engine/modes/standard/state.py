"""The state of a standard game as plain dataclasses: tiles, players, supply, bag and deck.

Everything that decides the future lives here or on the decision stack (frames), never in
local variables of the flow; ``to_json`` forms feed the observation, the spectator view and
the state hash. Family and solo reuse these classes unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ...boat import Boat
from ...cards import Card, base_cards
from ...copies import twin_of
from ...jsontext import JSONText, array_text, compact
from .fields import Fields

ANYTIME_IDS = frozenset(range(67, 98))
CAT, OSHAX, COMMON, RARE = "cat", "oshax", "common_treasure", "rare_treasure"


@dataclass(frozen=True)
class TileInfo:
    """A physical tile of the game; ``colour`` is None for treasures and unplaced Oshax."""

    id: int
    kind: str
    colour: str | None
    shape: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "colour": self.colour, "shape": self.shape}

    @cached_property
    def json_text(self) -> str:
        """``compact(self.to_json())``, kept (the fields and the supply show these tiles)."""
        return compact(self.to_json())

    @cached_property
    def json_part(self) -> JSONText:
        """``json_text`` as a ``JSONText`` (a part of a field's or the supply's text)."""
        return JSONText(self.json_text)

    def __copy__(self) -> TileInfo:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> TileInfo:
        return self  # frozen: a copied game shares its catalogue


@dataclass
class PlayerState:
    seat: int
    boat: Boat
    fish: int = 0
    hand: list[int] = field(default_factory=list)  # cards held (unread lessons included)
    draft_pile: list[int] = field(default_factory=list)  # the pile in front of the seat
    kept: list[int] = field(default_factory=list)  # draft picks waiting to be bought
    drawn: list[int] = field(default_factory=list)  # cards drawn by 71-74, waiting to be bought
    bought_now: list[int] = field(default_factory=list)  # bought in this buy step
    private_lessons: list[int] = field(default_factory=list)  # read, face down on the table
    baskets: int = 1  # permanent baskets owned
    baskets_used: int = 0  # of them, used today
    chosen_rescue: list[int] = field(default_factory=list)  # face down, not revealed yet
    revealed_rescue: list[int] = field(default_factory=list)  # revealed, not used yet
    speed: int = 0
    anywhere: bool = False  # card 69/70 pending: the next placement need not touch
    extra_cats: int = 0  # cards 80-82 pending: extra cats on the next rescue turn
    anytime_count: int = 0  # anytime cards in hand (kept in step with ``hand``)
    # (boat, occupied, anywhere, (answers, test), pair masks) of the last ``fit_test``: the
    # answers depend only on the boat's layout and those two. Not annotated, so not a
    # dataclass field (neither compared nor printed); a clone starts without it
    _fit = None

    def clone(self) -> PlayerState:
        """An independent copy for ``Game.clone``: every list here holds ints, so a shallow
        copy of each is a deep one; the boat copies itself."""
        twin = twin_of(self, copy_lists=True)
        twin.boat = self.boat.clone()
        if self._fit is not None:
            twin._fit = None  # a copy asks its own boat (and shares no function object)
        if self._texts is not None:
            twin._texts = dict(self._texts)  # the kept texts themselves are never changed
        return twin

    def add_card(self, card: int) -> None:
        self.hand.append(card)
        if card in ANYTIME_IDS:
            self.anytime_count += 1

    def remove_card(self, card: int) -> None:
        self.hand.remove(card)
        if card in ANYTIME_IDS:
            self.anytime_count -= 1

    @property
    def free_baskets(self) -> int:
        return self.baskets - self.baskets_used

    def to_json(self, *, private: bool) -> dict[str, Any]:
        """The public face of the player; ``private`` adds the hidden parts."""
        return {"seat": self.seat, "boat": self.boat.layout.name,
                "tiles": self.boat.tiles_json(), **self._after_tiles(private)}

    # (private, overlaid) -> (values after the tiles, tiles JSONText, JSONText): the last texts
    # built, reused while both parts are unchanged. Not annotated, so not a dataclass field: it is
    # neither compared, printed nor a constructor argument.
    _texts = None

    def json_text(self, *, private: bool, overlay: dict[str, Any] | None = None) -> str:
        """``compact`` of ``to_json(private=private)`` updated with ``overlay``."""
        return self.json_part(private=private, overlay=overlay).text

    def json_part(self, *, private: bool, overlay: dict[str, Any] | None = None) -> JSONText:
        """``compact`` of ``to_json(private=private)`` updated with ``overlay`` (values of
        keys after ``tiles``: a simultaneous step's snapshot), from the boat's kept text, as
        a ``JSONText`` whose parts are the members (the tiles a ``JSONText`` of their own).
        Comparing the small values after the tiles costs a tenth of encoding them; while
        they and the tiles are unchanged the same object is returned."""
        rest = self._after_tiles(private)
        if overlay:
            rest.update(overlay)
        tiles = self.boat.tiles_part()
        texts = self._texts
        if texts is None:
            texts = self._texts = {}
        slot = (private, bool(overlay))
        kept = texts.get(slot)
        if kept is not None and kept[1] is tiles and kept[0] == rest:
            return kept[2]
        boat = self.boat.layout.name
        text = (f'{{"seat":{self.seat},"boat":{compact(boat)},'
                f'"tiles":{tiles.text},{compact(rest)[1:]}')
        part = JSONText(text, {"seat": self.seat, "boat": boat, "tiles": tiles, **rest})
        texts[slot] = (rest, tiles, part)
        return part

    def _after_tiles(self, private: bool) -> dict[str, Any]:
        """The player's JSON after its boat, in order: everything that changes often."""
        out: dict[str, Any] = {
            "fish": self.fish,
            "hand_count": len(self.hand),
            "private_lesson_count": len(self.private_lessons),
            "baskets": self.baskets,
            "baskets_used": self.baskets_used,
            "revealed_rescue": list(self.revealed_rescue),
            "speed": self.speed,
            "anywhere": self.anywhere,
            "extra_cats": self.extra_cats,
        }
        if private:
            out.update(
                hand=sorted(self.hand),
                draft_pile=sorted(self.draft_pile),
                kept=sorted(self.kept),
                drawn=sorted(self.drawn),
                bought_now=sorted(self.bought_now),
                private_lessons=sorted(self.private_lessons),
                chosen_rescue=sorted(self.chosen_rescue),
            )
        return out


@dataclass
class Supply:
    """Tiles beside the island that players may take."""

    oshax: list[int] = field(default_factory=list)  # tile ids, in their fixed order
    rare: list[int] = field(default_factory=list)  # tile ids, in the order drawn
    common: dict[str, list[int]] = field(default_factory=dict)  # shape -> tile ids
    # (what the text shows, JSONText) of the last ``to_part``; not annotated, so not a dataclass
    # field (neither compared nor printed)
    _text = None

    def clone(self) -> Supply:
        """An independent copy for ``Game.clone`` (the kept text is never changed: shared)."""
        twin = twin_of(self)
        twin.oshax = self.oshax[:]
        twin.rare = self.rare[:]
        twin.common = {key: ids[:] for key, ids in self.common.items()}
        return twin

    def to_json(self, tiles: list[TileInfo]) -> dict[str, Any]:
        """What the table sees: the Oshax shapes, the rare tiles, the common tiles' counts."""
        return {"oshax": [tiles[t].shape for t in self.oshax],
                "rare": [tiles[t].to_json() for t in self.rare],
                "common": {k: len(v) for k, v in self.common.items()}}

    def to_part(self, tiles: list[TileInfo]) -> JSONText:
        """The compact JSON text of ``to_json`` with its parts (the rare tiles' list a
        ``JSONText`` of the tiles' texts), kept while the supply shows the same."""
        shown = (list(self.oshax), list(self.rare), {k: len(v) for k, v in self.common.items()})
        kept = self._text
        if kept is not None and kept[0] == shown:
            return kept[1]
        oshax, rare, common = shown
        oshax_shapes = [tiles[t].shape for t in oshax]
        rare_part = array_text([tiles[t].json_part for t in rare])
        text = (f'{{"oshax":{compact(oshax_shapes)},"rare":{rare_part.text},'
                f'"common":{compact(common)}}}')
        part = JSONText(text, {"oshax": oshax_shapes, "rare": rare_part, "common": common})
        self._text = (shown, part)
        return part


@dataclass
class State:
    tiles: list[TileInfo]  # the catalogue, index = tile id
    players: list[PlayerState]
    bag: list[int]  # the next tile drawn is the last one
    deck: list[int]  # the next card drawn is the last one
    fields: Fields = field(default_factory=Fields)
    supply: Supply = field(default_factory=Supply)
    discard: list[int] = field(default_factory=list)  # unbought, unused and discarded cards
    played: list[int] = field(default_factory=list)  # cards played for their effect
    public_lessons: list[tuple[int, str | None]] = field(default_factory=list)
    public_lessons_pending: list[int] = field(default_factory=list)  # read, colour not chosen
    removed: list[int] = field(default_factory=list)  # tiles out of the game (fled, discarded)
    in_transit: list[int] = field(default_factory=list)  # taken, waiting to be placed
    turn_order: list[int] = field(default_factory=list)
    day: int = 0

    def clone(self) -> State:
        """An independent copy for ``Game.clone``, what ``copy.deepcopy`` gives at a fraction
        of its cost: the lists of ids (and of ``(card, colour)`` pairs, immutable) are
        copied, the catalogue's tiles are immutable and shared, the parts copy themselves."""
        twin = twin_of(self, copy_lists=True)
        twin.players = [p.clone() for p in self.players]
        twin.fields = self.fields.clone()
        twin.supply = self.supply.clone()
        return twin

    def draw_card(self) -> int | None:
        return self.deck.pop() if self.deck else None

    def card_locations(self) -> dict[int, str]:
        """Where every card is (for invariant checks): one place per card."""
        where: dict[int, str] = {}

        def put(cards: list[int], place: str) -> None:
            for c in cards:
                if c in where:
                    raise AssertionError(f"card {c} is both in {where[c]} and {place}")
                where[c] = place

        put(self.deck, "deck")
        put(self.discard, "discard")
        put(self.played, "played")
        put([c for c, _ in self.public_lessons], "public_lessons")
        put(self.public_lessons_pending, "public_lessons")
        for p in self.players:
            for name in ("hand", "draft_pile", "kept", "drawn", "private_lessons",
                         "chosen_rescue", "revealed_rescue"):
                put(getattr(p, name), f"seat {p.seat} {name}")
        return where

    def tile_locations(self) -> dict[int, str]:
        """Where every tile is (for invariant checks): one place per tile."""
        where: dict[int, str] = {}

        def put(tiles: list[int], place: str) -> None:
            for t in tiles:
                if t in where:
                    raise AssertionError(f"tile {t} is both in {where[t]} and {place}")
                where[t] = place

        put(self.bag, "bag")
        put([c.tile for c in self.fields.cats], "fields")
        put(self.supply.oshax, "supply")
        put(self.supply.rare, "supply")
        for ids in self.supply.common.values():
            put(ids, "supply")
        put(self.removed, "removed")
        put(self.in_transit, "in_transit")
        for p in self.players:
            put([t.tile_id for t in p.boat.tiles], f"boat {p.seat}")
        return where


_CARDS = base_cards()


def card(card_id: int) -> Card:
    """The card record of an id (engine.cards' table, looked up once at import)."""
    return _CARDS[card_id]
