"""The family variant (2-4 players): lessons kept 2 of 3, then five days of free rescues.

A day: the fields are filled (2 cats per player per field), then in turn order each
player either takes one cat from either field for free and places it, or passes for
the rest of the day. A cat covering the map of its own colour earns one common or
rare treasure, placed in the same turn (or declined). The first player moves to the
end of the order each new day. No fish, cards, baskets or Oshax. Scoring comes from
``engine.scoring`` (mode "family"); ties are broken by filled rooms.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ...actions import Action, ActionCodec, ActionSpec
from ...boat import Boat, Tile, base_layouts
from ...cards import FAMILY_LESSON_IDS, base_cards
from ...game import Game, GameType
from ...rng import Rng
from ...scoring import PlayerFacts, TableFacts, score_table
from ...shapes import base_shapes, is_legal_placement
from .placing import PlaceActions, placements_on
from .tiles import TileTable, shape_of

DAYS = 5
LESSONS_DEALT = 3
LESSONS_KEPT = 2
CATS_PER_PLAYER_PER_FIELD = 2

CODEC = ActionCodec([
    ActionSpec("keep", (("cards", "ints"),), "keep 2 of the 3 family lessons dealt to you"),
    ActionSpec("take", (("tile", "int"),), "take this cat (tile id) from either field"),
    ActionSpec("place", (("cells", "cells"),), "place the tile you hold on these cells"),
    ActionSpec("treasure", (("shape", "str"),),
               "map reward: take a common or rare treasure of this shape from the supply"),
    ActionSpec("skip", (), "decline the map reward"),
    ActionSpec("pass", (), "take no more cats today"),
])


class FamilyGame(Game):
    game_type: ClassVar[GameType] = GameType(
        name="family", min_seats=2, max_seats=4, simultaneous=True, hidden_information=True,
        description="Family variant: keep 2 of 3 family lessons, then take one free cat per "
                    "turn for 5 days; no fish, cards, baskets or Oshax.",
    )
    codec: ClassVar[ActionCodec] = CODEC

    def __init__(self, seats: int, seed: int, options: dict[str, Any] | None = None) -> None:
        super().__init__(seats, seed, options)
        layouts = base_layouts()
        names = sorted(layouts)
        Rng(seed, "boats").shuffle(names)
        self.boats = [Boat(layouts[names[s]]) for s in range(seats)]
        common = base_shapes().common_count_per_shape[seats]
        self.table = TileTable.setup(common, Rng(seed, "bag"))
        deck = list(FAMILY_LESSON_IDS)
        Rng(seed, "lessons").shuffle(deck)
        self.dealt = [deck[s * LESSONS_DEALT:(s + 1) * LESSONS_DEALT] for s in range(seats)]
        self.lesson_deck = deck[seats * LESSONS_DEALT:]
        self.kept: list[tuple[int, ...] | None] = [None] * seats
        self.discarded: list[int] = []
        for seat, cards in enumerate(self.dealt):
            self.log("deal_lessons", seat=seat, cards=list(cards))
        self.phase = "lessons"  # lessons -> rescue -> over
        self.day = 0
        self.order = list(range(seats))
        self.passed: set[int] = set()
        self.turn = 0  # index into self.order of the seat to act
        self.held: int | None = None  # tile id taken and not yet placed
        self.reward = False  # the player may take a map-reward treasure now

    # --- flow --------------------------------------------------------------------------------
    def _start_day(self) -> None:
        self.day += 1
        if self.day > 1:
            self.order = self.order[1:] + self.order[:1]
        self.passed = set()
        self.turn = 0
        filled = self.table.fill_fields(CATS_PER_PLAYER_PER_FIELD * self.seats)
        self.log("day", day=self.day, order=list(self.order))
        self.log("fill", **filled)
        if not self.table.field_cats():
            self._end_day()

    def _end_day(self) -> None:
        gone = self.table.clear_fields()
        self.log("end_day", day=self.day, fled=gone)
        if self.day >= DAYS:
            self.phase = "over"
            self.log("game_over")
        else:
            self._start_day()

    def _next_turn(self) -> None:
        """Hand the turn to the next player who has not passed, or end the day."""
        if not self.table.field_cats() or len(self.passed) == self.seats:
            self._end_day()
            return
        for step in range(1, self.seats + 1):
            index = (self.turn + step) % self.seats
            if self.order[index] not in self.passed:
                self.turn = index
                return

    @property
    def current(self) -> int | None:
        return self.order[self.turn] if self.phase == "rescue" else None

    # --- the decision API ----------------------------------------------------------------------
    def pending(self) -> tuple[int, ...]:
        if self.phase == "lessons":
            return tuple(s for s in range(self.seats) if self.kept[s] is None)
        if self.phase == "rescue":
            return (self.order[self.turn],)
        return ()

    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_actions(self, seat: int) -> Sequence[Action]:
        if seat not in self.pending():
            return []
        if self.phase == "lessons":
            cards = self.dealt[seat]
            return [Action("keep", (a, b)) for i, a in enumerate(cards) for b in cards[i + 1:]]
        boat = self.boats[seat]
        if self.held is not None:
            return PlaceActions(placements_on(boat, shape_of(self.table.tiles[self.held].shape)))
        if self.reward:
            return [Action("treasure", key) for key in self._reward_shapes(boat)] + [
                Action("skip")]
        takes = [Action("take", tile_id) for tile_id in self.table.field_cats()
                 if placements_on(boat, shape_of(self.table.tiles[tile_id].shape))]
        return [*takes, Action("pass")]

    def _reward_shapes(self, boat: Boat) -> list[str]:
        """Treasure shapes in the supply that fit on the boat now."""
        return [key for key in self.table.supply_shapes()
                if placements_on(boat, shape_of(key))]

    def illegal_reason(self, seat: int, action: Action) -> str | None:
        kind = action.kind
        if self.phase == "lessons":
            if kind != "keep":
                return "choose the 2 family lessons to keep first (action 'keep')"
            cards = self.dealt[seat]
            chosen = action[1]
            if len(chosen) != LESSONS_KEPT or len(set(chosen)) != LESSONS_KEPT:
                return f"keep exactly {LESSONS_KEPT} different lessons"
            if not set(chosen) <= set(cards):
                return f"you can only keep lessons dealt to you: {cards}"
            return None
        if self.held is not None:
            if kind != "place":
                return "place the tile you hold first (action 'place')"
            boat = self.boats[seat]
            shape = shape_of(self.table.tiles[self.held].shape)
            return is_legal_placement(shape, boat.layout, boat.occupied, action[1])
        if self.reward:
            if kind == "skip":
                return None
            if kind != "treasure":
                return "take a map-reward treasure ('treasure') or decline it ('skip')"
            if action[1] not in self.table.supply_shapes():
                return f"no treasure of shape {action[1]!r} in the supply"
            if not placements_on(self.boats[seat], shape_of(action[1])):
                return f"a {action[1]} treasure does not fit on your boat"
            return None
        if kind == "pass":
            return None
        if kind != "take":
            return "take a cat from a field ('take') or pass for the day ('pass')"
        tile_id = action[1]
        if self.table.field_of(tile_id) is None:
            return f"tile {tile_id} is not a cat in a field"
        if not placements_on(self.boats[seat], shape_of(self.table.tiles[tile_id].shape)):
            return f"cat {tile_id} does not fit on your boat"
        return None

    def _apply(self, seat: int, action: Action) -> None:
        kind = action.kind
        if kind == "keep":
            self._keep(seat, tuple(action[1]))
        elif kind == "take":
            self.table.take_from_field(action[1])
            self.held = action[1]
            self.log("take", seat=seat, tile=action[1])
        elif kind == "place":
            self._place(seat, action[1])
        elif kind == "treasure":
            tile_id = self.table.supply_shapes()[action[1]][0]
            self.table.take_from_supply(tile_id)
            self.held = tile_id
            self.reward = False
            self.log("treasure", seat=seat, tile=tile_id)
        elif kind == "skip":
            self.reward = False
            self._next_turn()
        elif kind == "pass":
            self.passed.add(seat)
            self.log("pass", seat=seat)
            self._next_turn()
        else:  # pragma: no cover - the codec knows no other kinds
            raise ValueError(kind)

    def _keep(self, seat: int, chosen: tuple[int, ...]) -> None:
        self.kept[seat] = tuple(sorted(chosen))
        self.discarded.extend(c for c in self.dealt[seat] if c not in chosen)
        if all(k is not None for k in self.kept):
            self.log("lessons_kept", kept=[list(k or ()) for k in self.kept])
            self.phase = "rescue"
            self._start_day()

    def _place(self, seat: int, mask: int) -> None:
        info = self.table.tiles[self.held]  # type: ignore[index]
        self.boats[seat].place(Tile(info.kind, info.colour, info.shape, mask, info.id))
        self.held = None
        self.log("place", seat=seat, tile=info.id)
        if info.kind == "cat" and self.boats[seat].layout.maps[info.colour] & mask:
            if self._reward_shapes(self.boats[seat]):
                self.reward = True
                return
            self.log("reward_lapses", seat=seat, reason="no treasure fits")
        self._next_turn()

    # --- views -------------------------------------------------------------------------------
    def _boats_json(self) -> list[dict[str, Any]]:
        return [{"boat": b.layout.name, "tiles": [t.to_json() for t in b.tiles]}
                for b in self.boats]

    def _common_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode, "day": self.day, "days": DAYS, "phase": self.phase,
            "order": list(self.order), "passed": sorted(self.passed),
            "current": self.current, "held": self._held_json(), "reward": self.reward,
            **self.table.public_json(),
            "boats": self._boats_json(),
        }

    def _held_json(self) -> dict[str, Any] | None:
        return None if self.held is None else self.table.tiles[self.held].to_json()

    def observation(self, seat: int) -> dict[str, Any]:
        lessons = self.kept[seat] if self.kept[seat] is not None else self.dealt[seat]
        cards = base_cards()
        return {
            **self._common_json(), "seat": seat, "seats": self.seats,
            "my_lessons": [cards[c].to_json() for c in lessons],
            "choosing_lessons": self.kept[seat] is None,
            "lessons_chosen": [k is not None for k in self.kept],
        }

    def spectator_view(self) -> dict[str, Any]:
        return {
            **self._common_json(), "seats": self.seats,
            "dealt": [list(d) for d in self.dealt],
            "kept": [None if k is None else list(k) for k in self.kept],
            "lesson_deck": list(self.lesson_deck), "discarded": list(self.discarded),
            "bag": list(self.table.bag), "common_supply_ids": list(self.table.common_supply),
        }

    # --- result ----------------------------------------------------------------------------
    def _facts(self) -> TableFacts:
        return TableFacts(
            players=[PlayerFacts(boat=b, private_lessons=tuple(self.kept[s] or ()),
                                 permanent_baskets=0, turn_position=self.order.index(s))
                     for s, b in enumerate(self.boats)],
            mode="family",
        )

    def scores(self) -> list[dict[str, Any]]:
        """The score sheet of every seat as it stands (final once the game is over)."""
        return score_table(self._facts())

    def result(self) -> dict[str, Any]:
        sheets = self.scores()
        scores = [s["total"] for s in sheets]
        filled = [b.filled_rooms() for b in self.boats]
        keys = list(zip(scores, filled, strict=True))
        ranks = [1 + sum(1 for other in keys if other > mine) for mine in keys]
        return {
            **self.config,
            "scores": scores,
            "ranks": ranks,
            "winners": [s for s, r in enumerate(ranks) if r == 1],
            "breakdown": sheets,
            "tiebreak": {"name": "filled_rooms", "values": filled},
            "lessons": [list(k or ()) for k in self.kept],
            "boats": self._boats_json(),
            "state_hash": self.state_hash(),
        }
