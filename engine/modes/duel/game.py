"""The Isle of Cats Duel (2 players) as a state machine on the shared decision API.

Set-up: each seat 3 fish; the first player (from the seed) and then the other choose a
boat layout; 3 round-counter cats are set aside, 42 cats stay in the bag; the treasure
supply and the shuffled deck of 32 cards; the Oshax on its start space.

A day: 10 cats onto the cat spaces, 5 cards onto the card spaces. A turn: exactly two
``move`` steps of the Oshax without revisiting a space; then, in any order, at most one
``select`` of a discovery on a touched space, any number of ``fish_action`` purchases,
and ``end_turn``. The day ends when the island is empty or both players skipped the
selection on consecutive turns; then the day's second player (next day's first)
returns a round-counter cat to the bag, or, with none left, the game ends (4 days).

Rulings where the rulebook is silent are in docs/rules-notes.md ("## Duel").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...actions import Action, PlacementActions
from ...boat import STRIDE, Boat, Tile, iter_bits
from ...game import Game, GameType
from ...rng import Rng
from ...shapes import (
    Shape,
    is_legal_placement,
    legal_placements,
    orientations_fit,
    pair_masks,
    pair_plan,
    paired_rows,
    row_placement,
)
from .actions import CODEC, DECLINE, END_TURN, FISH, FISH_ACTIONS, MOVES, SELECTS
from .data import ISLAND_SPACES, duel_data
from .scoring import score_boats
from .views import observation as observation_of
from .views import result as result_of
from .views import spectator_view as spectator_view_of

D = duel_data()
RULES = D.rules
ISLAND = D.island
CATS = D.cats
CARDS = D.cards
COST = RULES["fish_actions"]
LAYOUT_NAMES = tuple(D.layouts)
CHOOSE_BOAT = {name: Action("choose_boat", name) for name in LAYOUT_NAMES}
RETURN_CATS = tuple(Action("return_cat", t) for t in range(len(CATS)))  # by cat tile id

# Phases: what the seat to act must decide now.
BOAT = "choose_boat"  # set-up: pick a layout
MOVE = "move"  # an Oshax step is due (mandatory, bought, or a jump)
ACT = "act"  # select / fish actions / end turn
EXTRA = "extra_selection"  # an extra discovery was bought: select it
PLACE_CAT = "place_cat"  # place the cat being taken (island or card 7)
PLACE_TREASURE = "place_treasure"  # a treasure may be taken: place one or decline
RETURN_CAT = "return_cat"  # end of a day: return a round-counter cat to the bag
OVER = "over"

# the fish actions in catalogue order, with their costs (``legal_actions`` in the act phase)
assert FISH_ACTIONS == ("move", "jump", "treasure", "discovery")
_FISH_MOVE, _FISH_JUMP, _FISH_TREASURE, _FISH_DISCOVERY = (FISH[n] for n in FISH_ACTIONS)
_COST_MOVE, _COST_JUMP, _COST_TREASURE, _COST_DISCOVERY = (COST[n] for n in FISH_ACTIONS)
assert min(COST.values()) >= 1  # DuelGame.playout: without fish, nothing to buy

_SPACES_MASK = ISLAND.all_mask  # bits 1..15, one per island space
_BITS: dict[int, tuple[int, ...]] = {}  # the spaces of a mask of touched spaces, in order
_CAT_ORIENTATIONS = tuple(c.shape.orientations for c in CATS)  # by cat tile id
_MANDATORY_STEPS = RULES["mandatory_steps"]
_CAT_SPACES = ISLAND.cat_spaces  # (properties of the island: worked out once here)
_CARD_SPACES = ISLAND.card_spaces
_TREASURE_SHAPES = D.treasure_shapes  # in supply order (``_treasure_shapes``)
# the playout's placements are drawn from ``paired_rows`` (the rows of ``legal_placements``)
_CAT_PLANS = tuple(pair_plan(c.shape.orientations) for c in CATS)  # by cat tile id
_TREASURE_PLANS = tuple((shape, pair_plan(shape.orientations)) for shape in _TREASURE_SHAPES)
_IS_CARD = tuple(s > 0 and ISLAND.kinds[s] == "card" for s in range(ISLAND_SPACES + 1))
# the move actions of each mask of target spaces, built once (a handful of masks recur)
_MOVE_LISTS: dict[int, tuple[Action, ...]] = {}



def _move_list(targets: int) -> tuple[Action, ...]:
    """The move actions to the spaces of ``targets``, in space order, kept in ``_MOVE_LISTS``."""
    moves = _MOVE_LISTS[targets] = tuple(
        MOVES[s] for s in range(1, ISLAND_SPACES + 1) if targets >> s & 1)
    return moves


# ``Action("place", mask)`` without ``Action.__new__``'s frame: the same tuple subclass and
# items (the playout loop's placements)
_new_action = tuple.__new__


PHASE_NEEDS = {
    BOAT: "choose your boat",
    MOVE: "move the Oshax",
    ACT: "select, buy a fish action or end your turn",
    EXTRA: "select the extra discovery you bought",
    PLACE_CAT: "place the cat you are taking",
    PLACE_TREASURE: "place a treasure or decline it",
    RETURN_CAT: "return a round-counter cat to the bag",
}
PHASE_KINDS = {
    BOAT: ("choose_boat",),
    MOVE: ("move",),
    ACT: ("select", "fish_action", "end_turn"),
    EXTRA: ("select",),
    PLACE_CAT: ("place",),
    PLACE_TREASURE: ("place", "decline"),
    RETURN_CAT: ("return_cat",),
}


def instant_fish(card_params: Mapping[str, Any], boat: Boat) -> int:
    """Fish gained from instants 8-10 (the colour of card 10 is the best one)."""
    cats = [t for t in boat.tiles if t.kind == "cat"]
    per = card_params["per"]
    if per == "distinct_cat_colours_on_boat":
        n = len({t.colour for t in cats})
    elif per == "treasure_tiles_on_boat":
        n = sum(1 for t in boat.tiles if t.colour is None)
    elif per == "cats_of_chosen_colour_on_boat":
        counts: dict[str | None, int] = {}
        for t in cats:
            counts[t.colour] = counts.get(t.colour, 0) + 1
        n = max(counts.values(), default=0)
    else:
        raise ValueError(f"unknown instant fish rule {per!r} in the card data")
    return min(n, card_params["max"])


_FIELD_TYPES = {"int": int, "str": str, "cells": int}


def _shape_problem(action: Action) -> str | None:
    """A reason when an ``Action`` built in Python does not fit the catalogue (JSON input is
    already checked by the codec)."""
    spec = CODEC.specs.get(action[0]) if action else None
    if spec is None:
        return f"unknown action kind {action[0] if action else None!r}"
    if len(action) != 1 + len(spec.fields):
        names = ", ".join(n for n, _ in spec.fields) or "no fields"
        return f"a {spec.kind!r} action takes {names}"
    for (name, ftype), value in zip(spec.fields, action[1:], strict=True):
        if isinstance(value, bool) or not isinstance(value, _FIELD_TYPES[ftype]):
            return f"field {name!r} of a {spec.kind!r} action must be of type {ftype}"
    return None


def _put_tile(boat: Boat, kind: str, colour: str | None, shape_key: str, mask: int,
              tile_id: int) -> None:
    """``boat.place(Tile(kind, colour, shape_key, mask, tile_id))`` of a placement the game
    knows to be legal (``_place_cat``, ``_place_treasure``: every cat and treasure a Duel
    places): its mask and colour are read from the arguments, not off the new tile (a
    frozen dataclass's fields, read the generic way), and the boat's overlap check is left
    out. tests/engine/duel/test_playout_draws.py checks it against ``Boat.place``."""
    boat.tiles.append(Tile.quick(kind, colour, shape_key, mask, tile_id))
    boat.occupied |= mask
    if colour is not None:
        boat.colour_masks[colour] |= mask


class DuelGame(Game):
    """The Isle of Cats Duel. Seats 0 and 1; ``observation`` hides the bag and deck order."""

    game_type = GameType(
        name="duel",
        min_seats=2,
        max_seats=2,
        simultaneous=False,
        hidden_information=True,
        description="The Isle of Cats Duel: 2 players, an island of 15 spaces, an Oshax "
                    "figure both players move, fish actions, 4 days.",
        options={},
    )
    codec = CODEC
    # The game's own attributes as slots, so that the instance dict holds only ``Game``'s
    # few, kept as inline values (``engine.copies``): CPython 3.11 then reads every attribute
    # and looks up every method of a game and of its clones the quick way, where a dict of
    # thirty-two would be read the generic way. ``clone`` sets them one by one.
    __slots__ = ("rng", "counters", "bag", "deck", "supply", "island", "on_island", "box",
                 "discard", "layout_names", "boats", "fish", "lessons", "oshax", "first", "day",
                 "current", "phase", "touched", "steps", "jumping", "selected", "extra",
                 "placing", "treasures_due", "took")

    def __init__(self, seats: int, seed: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(seats, seed, options)
        self.rng = Rng(seed, "bag")  # the bag: set-up shuffle and cats returned to it
        cats = list(range(len(CATS)))
        self.rng.shuffle(cats)
        n_counters = RULES["round_counter_cats"]
        self.counters: list[int] = cats[:n_counters]
        self.bag: list[int] = cats[n_counters:]  # draw order: next draw first
        self.deck: list[int] = sorted(CARDS)
        Rng(seed, "deck").shuffle(self.deck)
        self.supply: dict[str, list[int]] = {k: list(v) for k, v in D.treasure_ids.items()}
        self.island: list[int | None] = [None] * (ISLAND_SPACES + 1)  # index = space
        self.on_island = 0
        self.box: list[int] = []  # cats out of the game (left on the island, unplaceable)
        self.discard: list[int] = []  # cards resolved or left on the island
        self.layout_names: list[str | None] = [None, None]
        self.boats: list[Boat | None] = [None, None]
        self.fish = [RULES["start_fish"]] * 2
        self.lessons: list[list[int]] = [[], []]
        self.oshax = ISLAND.start
        self.first = Rng(seed, "first_player").randbelow(2)
        self.day = 0
        self.current = self.first
        self.phase = BOAT
        # The turn in progress.
        self.touched = 0  # bit s: the Oshax touched space s this turn
        self.steps = 0  # steps still due (2 mandatory, 1 bought)
        self.jumping = False
        self.selected = False  # the turn's selection action is used
        self.extra = False  # a bought extra discovery waits to be selected
        self.placing: int | None = None  # the cat tile being placed
        self.treasures_due = 0  # treasures the seat may still take and place
        self.took = [True, True]  # performed a selection on their latest turn this day
        self.log("first_player", seat=self.first)

    # --- the decision API ------------------------------------------------------------------
    def pending(self) -> tuple[int, ...]:
        return () if self.phase == OVER else (self.current,)

    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self, seat: int) -> Sequence[Action]:
        if seat != self.current or self.phase == OVER:
            return ()
        phase = self.phase
        if phase == MOVE:
            targets = ISLAND.targets(self.oshax, self.touched, self.jumping)
            moves = _MOVE_LISTS.get(targets)
            if moves is None:
                moves = _move_list(targets)
            return list(moves)
        if phase == ACT:
            return self._act_actions(seat)
        if phase == PLACE_CAT:
            return PlacementActions([self._cat_placements(seat)])
        if phase == PLACE_TREASURE:
            return PlacementActions(self._treasure_placements(seat), after=(DECLINE,))
        if phase == EXTRA:
            return [SELECTS[s] for s in self._selectable(seat)]
        if phase == RETURN_CAT:
            return [RETURN_CATS[t] for t in self.counters]
        if phase == BOAT:
            return list(CHOOSE_BOAT.values())
        raise AssertionError(phase)  # pragma: no cover

    def _act_actions(self, seat: int) -> list[Action]:
        """The act phase's legal actions: the selections, then the fish actions the seat can
        buy (``_fish_block(seat, name) is None`` by four cheap tests, without its reasons),
        then ``end_turn``."""
        selected = self.selected
        fish = self.fish[seat]
        fit = self._fit_context(seat) if fish >= _COST_TREASURE else None  # else if a cat asks
        out = [] if selected else [SELECTS[s] for s in self._selectable(seat, fit)]
        if fish >= _COST_MOVE and ISLAND.neighbours[self.oshax] & ~self.touched:
            out.append(_FISH_MOVE)
        if fish >= _COST_JUMP:
            out.append(_FISH_JUMP)
        if fish >= _COST_TREASURE and self._treasure_fits(seat, fit):
            out.append(_FISH_TREASURE)
        if fish >= _COST_DISCOVERY and selected and self._selectable(seat, fit):
            out.append(_FISH_DISCOVERY)
        out.append(END_TURN)
        return out

    def playout(self, rng: Rng) -> None:
        """Random moves to the end, exactly as ``Game.playout``'s loop makes them (the same
        draws, moves, history, events and final state: tests/engine/test_playout.py), without
        its per-decision overheads: the phase is read directly instead of through
        ``is_over``/``pending``, and each decision is drawn from the facts its legal actions
        are made of (a count and an index where the list itself is not needed) and applied
        by the rule's own handler (``_select``, ``_end_turn``, ``_place_cat``, ...). The act
        phase without fish (half the decisions) and the Oshax's steps are drawn here, a
        cat's placement by ``_play_cat``, the rarer decisions by ``_PLAYS``. Where a draw is
        made otherwise than from the legal actions, tests/engine/duel/test_playout_draws.py
        checks it against them case by case. A bound of 1 draws nothing, as
        ``Rng.randbelow(1)`` does not; a bound of 0 raises as the loop would."""
        randbelow = rng.randbelow
        history = self.history
        seat_steps = self.seat_steps
        neighbours = ISLAND.neighbours
        # the methods called in the loop, looked up once
        selectable, select, end_turn = self._selectable, self._select, self._end_turn
        play_cat, plays = self._play_cat, _PLAYS
        while True:
            phase = self.phase
            seat = self.current
            if phase == ACT and not self.fish[seat]:
                # without fish no fish action can be bought (each costs one or more):
                # ``_act_actions`` is the selections, then end_turn; counted, not listed
                spaces = () if self.selected else selectable(seat)
                n = len(spaces) + 1
                i = 0 if n == 1 else randbelow(n)
                seat_steps[seat] += 1
                if i < n - 1:
                    space = spaces[i]
                    history.append((seat, SELECTS[space]))
                    select(seat, space)
                else:
                    history.append((seat, END_TURN))
                    end_turn(seat)
            elif phase == MOVE and self.placing is None and not self.treasures_due \
                    and not self.extra:
                # every step of the turn: ``legal_actions``' move list of ``ISLAND.targets``
                # and ``_move``, after which ``_settle`` gives MOVE while steps are due, then
                # ACT (nothing is being placed, no treasure is due, no extra selection waits)
                oshax, touched, steps = self.oshax, self.touched, self.steps
                jumping = self.jumping
                while True:
                    targets = (_SPACES_MASK & ~(1 << oshax) if jumping
                               else neighbours[oshax] & ~touched)
                    moves = _MOVE_LISTS.get(targets)
                    if moves is None:
                        moves = _move_list(targets)
                    n = len(moves)
                    action = moves[0 if n == 1 else randbelow(n)]
                    history.append((seat, action))
                    oshax = action[1]
                    touched |= 1 << oshax
                    steps -= 1
                    jumping = False
                    if not steps:
                        break
                seat_steps[seat] += self.steps  # one decision per step
                self.oshax, self.touched, self.steps = oshax, touched, 0
                self.jumping = False
                self.phase = ACT
            elif phase == PLACE_CAT:
                play_cat(randbelow)
            elif phase == OVER:
                return
            else:
                plays[phase](self, randbelow)

    # --- the playout's draws, by phase ------------------------------------------------------------
    def _play_cat(self, randbelow: Callable[[int], int]) -> None:
        """The cat's placement, drawn by its index in the rows of ``legal_placements``
        (``paired_rows``: one mask built, no action list), placed by ``_place_cat``."""
        seat = self.current
        free, near, anywhere = self._fit_context(seat)
        rows, n = paired_rows(_CAT_PLANS[self.placing], pair_masks(free, near), not anywhere)
        mask = row_placement(rows, 0 if n == 1 else randbelow(n))
        self.history.append((seat, _new_action(Action, ("place", mask))))
        self.seat_steps[seat] += 1
        self._place_cat(seat, mask)

    def _play_treasure(self, randbelow: Callable[[int], int]) -> None:
        """The placements of each treasure shape left that fits, then ``decline``, as
        ``legal_actions`` lists them (the boat's free and touchable cells worked out once for
        every shape), drawn by index; placed by ``_place_treasure``."""
        seat = self.current
        free, near, anywhere = self._fit_context(seat)
        masks = pair_masks(free, near)
        supply = self.supply
        n = 1
        parts = []
        for shape, plan in _TREASURE_PLANS:
            if supply[shape.key]:
                rows, count = paired_rows(plan, masks, not anywhere)
                if count:
                    parts.append((shape, rows, count))
                    n += count
        i = 0 if n == 1 else randbelow(n)
        self.seat_steps[seat] += 1
        for shape, rows, count in parts:
            if i < count:
                mask = row_placement(rows, i)
                self.history.append((seat, _new_action(Action, ("place", mask))))
                self._place_treasure(seat, mask, shape)
                return
            i -= count
        self.history.append((seat, DECLINE))
        self._decline(seat)

    def _play_listed(self, randbelow: Callable[[int], int]) -> None:
        """A decision drawn from its legal actions and applied by ``_apply`` (the act phase
        with fish, an extra selection, returning a cat): ``apply_unchecked`` less the
        checks the loop needs not."""
        seat = self.current
        legal = self.legal_actions(seat)
        n = len(legal)
        action = legal[0 if n == 1 else randbelow(n)]
        self.history.append((seat, action))
        self.seat_steps[seat] += 1
        self._apply(seat, action)

    def _play_any(self, randbelow: Callable[[int], int]) -> None:
        """``Game.playout``'s step (choosing the boats)."""
        seat = self.current
        legal = self.legal_actions(seat)
        self.apply_unchecked(seat, legal[randbelow(len(legal))])

    def illegal_reason(self, seat: int, action: Action) -> str | None:
        if self.phase == OVER:
            return "the game is over"
        if seat != self.current:
            return f"seat {seat} is not due to act (seat {self.current} is)"
        shape_problem = _shape_problem(action)
        if shape_problem is not None:
            return shape_problem
        kind = action[0]
        if kind not in PHASE_KINDS[self.phase]:
            return f"{self.codec.text(action)} is not possible now: {PHASE_NEEDS[self.phase]}"
        return WHY_NOT[kind](self, seat, *action[1:])

    def _apply(self, seat: int, action: Action) -> None:
        kind = action[0]
        if kind == "move":
            self._move(action[1])
        elif kind == "place":
            if self.phase == PLACE_CAT:
                self._place_cat(seat, action[1])
            else:
                self._place_treasure(seat, action[1])
        elif kind == "select":
            self._select(seat, action[1])
        elif kind == "end_turn":
            self._end_turn(seat)
        elif kind == "fish_action":
            self._fish_action(seat, action[1])
        elif kind == "decline":
            self._decline(seat)
        elif kind == "return_cat":
            self._return_cat(seat, action[1])
        elif kind == "choose_boat":
            self._choose_boat(seat, action[1])
        else:  # pragma: no cover - the codec only decodes the catalogue
            raise ValueError(f"unknown action kind {kind!r}")

    # --- read-only helpers for bots and tools ---------------------------------------------------
    @staticmethod
    def layouts() -> dict[str, Any]:
        return dict(D.layouts)

    @staticmethod
    def island_graph() -> Any:
        return ISLAND

    @staticmethod
    def cat_tiles() -> tuple[Any, ...]:
        return CATS

    @staticmethod
    def card(card_id: int) -> Any:
        return CARDS[card_id]

    @staticmethod
    def fish_costs() -> dict[str, int]:
        return dict(COST)

    def island_items(self) -> list[tuple[int, str, int]]:
        """(space, "cat" or "card", tile or card id) of every discovery on the island."""
        kinds = ISLAND.kinds
        return [(s, kinds[s], item) for s, item in enumerate(self.island) if item is not None]

    def treasure_shapes_left(self) -> list[Shape]:
        return self._treasure_shapes()

    # --- facts the rules ask about ---------------------------------------------------------------
    def _boat(self, seat: int) -> Boat:
        boat = self.boats[seat]
        assert boat is not None
        return boat

    def _fit_context(self, seat: int) -> tuple[int, int, bool]:
        """What every "does it fit" question on the seat's boat starts from: its free cells,
        the free cells next to a tile, and whether a tile may go anywhere (an empty boat),
        as ``has_legal_placement`` works them out. Worked out once per question batch (an
        act decision asks about up to three cats and four treasure shapes), not kept:
        a memo by boat state was answered only one time in seven in random playouts and
        cost more than the tests it saved."""
        boat = self.boats[seat]
        occupied = boat.occupied  # (no boat yet: only before the act phase can exist)
        free = boat.layout.cells_mask & ~occupied
        if occupied:  # _touchable(occupied, free), written out: once per act decision
            return free, ((occupied << 1) | (occupied >> 1) | (occupied << STRIDE)
                          | (occupied >> STRIDE)) & free, False
        return free, 0, True

    def _fits_on(self, seat: int, shape: Shape) -> bool:
        """Whether ``shape`` has a legal placement on the seat's boat."""
        return orientations_fit(shape.orientations, *self._fit_context(seat))

    def state_changed(self) -> None:
        """Recount derived fields after editing the state by hand (tests, tools)."""
        self.on_island = sum(1 for item in self.island if item is not None)

    def _selectable(self, seat: int, fit: tuple[int, int, bool] | None = None) -> list[int]:
        """Touched spaces holding a card, or a cat that fits on the seat's boat (``fit``: the
        boat's ``_fit_context``, worked out here when a cat needs it and not given)."""
        out = []
        if fit is not None:
            free, near, anywhere = fit
        island = self.island
        touched = self.touched & _SPACES_MASK
        spaces = _BITS.get(touched)
        if spaces is None:
            spaces = _BITS[touched] = tuple(iter_bits(touched))
        for s in spaces:  # the touched spaces, in order
            item = island[s]
            if item is None:
                continue
            if _IS_CARD[s]:
                out.append(s)
                continue
            if fit is None:
                fit = self._fit_context(seat)
                free, near, anywhere = fit
            if orientations_fit(_CAT_ORIENTATIONS[item], free, near, anywhere):
                out.append(s)
        return out

    def _treasure_shapes(self) -> list[Shape]:
        return [s for s in D.treasure_shapes if self.supply[s.key]]

    def _treasure_fits(self, seat: int, fit: tuple[int, int, bool] | None = None) -> bool:
        """Whether a treasure shape left in the supply fits on the seat's boat."""
        supply = self.supply
        for shape in D.treasure_shapes:
            if supply[shape.key]:
                if fit is None:
                    fit = self._fit_context(seat)
                if orientations_fit(shape.orientations, *fit):
                    return True
        return False

    def _treasure_placements(self, seat: int) -> list:
        boat = self._boat(seat)
        return [legal_placements(s, boat.layout, boat.occupied) for s in self._treasure_shapes()]

    def _cat_placements(self, seat: int):
        boat = self._boat(seat)
        assert self.placing is not None
        return legal_placements(CATS[self.placing].shape, boat.layout, boat.occupied)

    def _treasure_shape_for(self, mask: int) -> Shape | None:
        n = mask.bit_count()
        for shape in self._treasure_shapes():
            if shape.size == n and shape.orientation_of(mask) is not None:
                return shape
        return None

    def _fish_block(self, seat: int, name: str) -> str | None:
        """Why the fish action ``name`` cannot be bought now, or None."""
        cost = COST.get(name)
        if cost is None:
            return f"unknown fish action {name!r}; fish actions: {', '.join(FISH_ACTIONS)}"
        if self.fish[seat] < cost:
            return f"the fish action {name!r} costs {cost} fish; you have {self.fish[seat]}"
        if name == "move":
            if not ISLAND.targets(self.oshax, self.touched):
                return ("every space next to the Oshax was touched this turn: "
                        "there is no extra step to take")
        elif name == "treasure":
            if not self._treasure_shapes():
                return "the treasure supply is empty"
            if not self._treasure_fits(seat):
                return "no treasure left in the supply fits on your boat"
        elif name == "discovery":
            if not self.selected:
                return ("an extra discovery comes in addition to your selection action: "
                        "make your selection first")
            if not self._selectable(seat):
                return "no space the Oshax touched this turn holds a discovery you can take"
        return None

    # --- precise reasons (one per action kind; the phase is already right) -----------------------
    def _why_not_choose_boat(self, seat: int, name: str) -> str | None:
        if name not in D.layouts:
            return f"unknown boat {name!r}; boats: {', '.join(LAYOUT_NAMES)}"
        return None

    def _why_not_move(self, seat: int, to: int) -> str | None:
        if not 1 <= to <= ISLAND_SPACES:
            return f"there is no island space {to}; spaces are 1-{ISLAND_SPACES}"
        if self.jumping:
            if to == self.oshax:
                return f"the Oshax is already on space {to}: a jump goes to another space"
            return None
        if self.touched >> to & 1:
            return f"the Oshax already touched space {to} this turn"
        if not ISLAND.adjacent(self.oshax, to):
            return f"space {to} is not next to the Oshax's space {self.oshax}"
        return None

    def _why_not_select(self, seat: int, space: int) -> str | None:
        if self.phase == ACT and self.selected:
            return ("you already made your selection this turn; an extra discovery costs "
                    f"{COST['discovery']} fish (fish_action discovery)")
        if not 1 <= space <= ISLAND_SPACES:
            return f"there is no island space {space}; spaces are 1-{ISLAND_SPACES}"
        if not self.touched >> space & 1:
            return f"the Oshax did not touch space {space} this turn"
        item = self.island[space]
        if item is None:
            return f"space {space} is empty"
        if ISLAND.kinds[space] == "cat" and not self._fits_on(seat, CATS[item].shape):
            return f"the cat on space {space} does not fit on your boat"
        return None

    def _why_not_place(self, seat: int, mask: int) -> str | None:
        boat = self._boat(seat)
        if self.phase == PLACE_CAT:
            assert self.placing is not None
            shape = CATS[self.placing].shape
        else:
            found = self._treasure_shape_for(mask)
            if found is None:
                left = ", ".join(s.key for s in self._treasure_shapes()) or "none"
                return f"those cells are not a treasure shape left in the supply ({left})"
            shape = found
        return is_legal_placement(shape, boat.layout, boat.occupied, mask)

    def _why_not_fish_action(self, seat: int, name: str) -> str | None:
        return self._fish_block(seat, name)

    def _why_not_decline(self, seat: int) -> str | None:
        return None

    def _why_not_end_turn(self, seat: int) -> str | None:
        return None

    def _why_not_return_cat(self, seat: int, tile: int) -> str | None:
        if tile not in self.counters:
            return (f"tile {tile} is not a round-counter cat; they are "
                    f"{', '.join(map(str, self.counters))}")
        return None

    # --- set-up, days and turns ---------------------------------------------------------------
    def _choose_boat(self, seat: int, name: str) -> None:
        self.layout_names[seat] = name
        self.boats[seat] = Boat(D.layouts[name])
        other = 1 - seat
        if self.boats[other] is None:
            self.current = other
        else:
            self._start_day()

    def _start_day(self) -> None:
        self.day += 1
        island, bag, deck = self.island, self.bag, self.deck
        cats = []
        for s in _CAT_SPACES:
            if bag:
                island[s] = tile = bag.pop(0)
                cats.append([s, tile])
        cards = []
        for s in _CARD_SPACES:
            if deck:
                island[s] = card = deck.pop(0)
                cards.append([s, card])
        self.on_island = len(cats) + len(cards)
        self.took = [True, True]  # a first-turn skip cannot end the day
        self.log("day_start", day=self.day, first_player=self.first, cats=cats, cards=cards)
        self._start_turn(self.first)

    def _start_turn(self, seat: int) -> None:
        self.current = seat
        self.phase = MOVE
        self.touched = 1 << self.oshax
        self.steps = _MANDATORY_STEPS
        self.jumping = False
        self.selected = False
        self.extra = False
        self.took[seat] = False

    def _end_turn(self, seat: int) -> None:
        other = 1 - seat
        if self.on_island == 0:
            self._end_day("the island is empty")
        elif self.took[seat] or self.took[other]:
            self._start_turn(other)
        else:
            self._end_day("both players skipped the selection on consecutive turns")

    def _end_day(self, reason: str) -> None:
        cats, cards = [], []
        island = self.island
        for s in range(1, ISLAND_SPACES + 1):
            item = island[s]
            if item is None:
                continue
            if _IS_CARD[s]:
                self.discard.append(item)
                cards.append(item)
            else:
                self.box.append(item)
                cats.append(item)
            island[s] = None
        self.on_island = 0
        self.log("day_end", day=self.day, reason=reason, cats_removed=cats, cards_removed=cards)
        self.first = 1 - self.first  # the day's second player starts the next day
        self.current = self.first
        if self.counters:
            self.phase = RETURN_CAT
        else:
            self.phase = OVER
            self.log("game_end", days=self.day)

    def _return_cat(self, seat: int, tile: int) -> None:
        self.counters.remove(tile)
        self.bag.insert(self.rng.randbelow(len(self.bag) + 1), tile)  # back into the bag
        self.log("cat_returned", seat=seat, tile=tile)
        self._start_day()

    # --- inside a turn ----------------------------------------------------------------------
    def _decline(self, seat: int) -> None:
        self.treasures_due -= 1
        self.log("treasure_declined", seat=seat)
        self._settle()

    def _settle(self) -> None:
        """Choose the next decision of the seat to act after an action resolved."""
        seat = self.current
        if self.placing is not None:
            self.phase = PLACE_CAT
            return
        if self.treasures_due:
            if self._treasure_fits(seat):  # (False when the supply is empty)
                self.phase = PLACE_TREASURE
                return
            self.log("treasures_lost", seat=seat, count=self.treasures_due)
            self.treasures_due = 0
        if self.extra:
            self.phase = EXTRA
        elif self.steps:
            self.phase = MOVE
        else:
            self.phase = ACT

    def _move(self, to: int) -> None:
        self.oshax = to
        self.touched |= 1 << to
        self.steps -= 1
        self.jumping = False
        self._settle()

    def _fish_action(self, seat: int, name: str) -> None:
        self.fish[seat] -= COST[name]
        if name == "move":
            self.steps = 1
        elif name == "jump":
            self.steps = 1
            self.jumping = True
        elif name == "treasure":
            self.treasures_due += 1
        else:
            self.extra = True
        self._settle()

    def _select(self, seat: int, space: int) -> None:
        item = self.island[space]
        assert item is not None
        self.island[space] = None
        self.on_island -= 1
        if self.extra:
            self.extra = False
        else:
            self.selected = True
        self.took[seat] = True
        if not _IS_CARD[space]:
            self.placing = item
        else:
            self._resolve_card(seat, item)
        self._settle()

    def _resolve_card(self, seat: int, card_id: int) -> None:
        card = CARDS[card_id]
        if card.kind == "lesson":
            self.lessons[seat].append(card_id)
            return
        self.discard.append(card_id)
        if card.kind == "treasure":
            self.treasures_due += card.params["count"]
            return
        if card.params["action"] == "draw_tile_and_place":
            self._draw_tile(seat)
            return
        gain = instant_fish(card.params, self._boat(seat))
        self.fish[seat] += gain
        self.log("fish_gained", seat=seat, card=card_id, fish=gain)

    def _draw_tile(self, seat: int) -> None:
        """Card 7: the next cat from the bag must be placed if it fits, else it is lost."""
        if not self.bag:
            self.log("bag_empty", seat=seat)
            return
        tile = self.bag.pop(0)
        fits = self._fits_on(seat, CATS[tile].shape)
        self.log("tile_drawn", seat=seat, tile=tile, fits=fits)
        if fits:
            self.placing = tile
        else:
            self.box.append(tile)

    def _place_cat(self, seat: int, mask: int) -> None:
        cat = CATS[self.placing]  # type: ignore[index]
        colour = cat.colour
        boat = self.boats[seat]
        _put_tile(boat, "cat", colour, cat.shape.key, mask, cat.id)
        self.placing = None
        if cat.fish:
            self.fish[seat] += 1
        if boat.layout.maps[colour] & mask:
            self.treasures_due += 1
        self._settle()

    def _place_treasure(self, seat: int, mask: int, shape: Shape | None = None) -> None:
        """Place the treasure of cells ``mask`` (``shape``: its shape, when the caller drew
        the mask from that shape's placements; otherwise found from the cells)."""
        if shape is None:
            shape = self._treasure_shape_for(mask)
        assert shape is not None
        key = shape.key
        _put_tile(self.boats[seat], "common_treasure", None, key, mask, self.supply[key].pop())
        self.treasures_due -= 1
        self._settle()

    # --- views and the result --------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        return observation_of(self, seat)

    def spectator_view(self) -> dict[str, Any]:
        return spectator_view_of(self)

    def full_state(self) -> Any:
        return {**self.spectator_view(), "rng": list(self.rng.getstate())}

    def scores(self) -> list[dict[str, Any]]:
        """The score sheets (also meaningful mid-game, e.g. for bots)."""
        boats = [b if b is not None else Boat(D.layouts[LAYOUT_NAMES[0]]) for b in self.boats]
        return score_boats(boats, self.lessons)

    def result(self) -> dict[str, Any]:
        return result_of(self)

    def clone(self) -> DuelGame:
        """A lean copy for look-ahead (no deepcopy of layouts or shapes), its attributes set
        one by one (``__slots__``, ``engine.copies``): the lists and boats that change are
        copied, the rest shared."""
        twin = DuelGame.__new__(DuelGame)
        for name, value in self.__dict__.items():  # ``Game``'s attributes (and any other)
            setattr(twin, name, value)
        twin.history = self.history[:]
        twin.events = self.events[:]
        twin.options = dict(self.options)
        twin.seat_steps = self.seat_steps[:]
        twin.rng = self.rng.copy()
        twin.counters = self.counters[:]
        twin.bag = self.bag[:]
        twin.deck = self.deck[:]
        twin.supply = supply = dict(self.supply)  # (loops, not comprehensions: no frame)
        for key, ids in supply.items():
            supply[key] = ids[:]
        twin.island = self.island[:]
        twin.on_island = self.on_island
        twin.box = self.box[:]
        twin.discard = self.discard[:]
        twin.layout_names = self.layout_names[:]
        twin.boats = boats = []
        for b in self.boats:
            boats.append(None if b is None else Boat(b.layout, b.tiles[:], b.occupied,
                                                     dict(b.colour_masks)))
        twin.fish = self.fish[:]
        twin.lessons = [self.lessons[0][:], self.lessons[1][:]]
        twin.oshax, twin.first, twin.day = self.oshax, self.first, self.day
        twin.current, twin.phase, twin.touched = self.current, self.phase, self.touched
        twin.steps, twin.jumping, twin.selected = self.steps, self.jumping, self.selected
        twin.extra, twin.placing, twin.treasures_due = self.extra, self.placing, self.treasures_due
        twin.took = self.took[:]
        return twin


# The precise reason of each action kind (``illegal_reason``, once the phase is right), by
# kind: every kind of the catalogue has its entry (tests/engine/duel/test_turn.py), so a
# kind renamed fails a test, not a bot's illegal action.
WHY_NOT: dict[str, Callable[..., str | None]] = {
    "choose_boat": DuelGame._why_not_choose_boat,
    "move": DuelGame._why_not_move,
    "select": DuelGame._why_not_select,
    "place": DuelGame._why_not_place,
    "fish_action": DuelGame._why_not_fish_action,
    "decline": DuelGame._why_not_decline,
    "end_turn": DuelGame._why_not_end_turn,
    "return_cat": DuelGame._why_not_return_cat,
}

# The playout's draw of each of the rarer phases (``DuelGame.playout``).
_PLAYS: dict[str, Callable[[DuelGame, Callable[[int], int]], None]] = {
    BOAT: DuelGame._play_any,
    ACT: DuelGame._play_listed,  # with fish
    EXTRA: DuelGame._play_listed,
    PLACE_TREASURE: DuelGame._play_treasure,
    RETURN_CAT: DuelGame._play_listed,
}
