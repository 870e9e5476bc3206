"""Putting a tile on a boat, as a decision: the placement frame and the treasure choice.

``PlaceFrame`` asks one seat for the cells of a tile it already holds (a rescued cat, an
Oshax, a treasure, a tile drawn by card 75); its legal actions are a lazy sequence over the
engine's placement enumeration. Placing a cat or Oshax on the treasure map of its colour
pushes a ``TreasureFrame`` (the optional common-treasure reward). ``TreasureFrame`` is also
what treasure cards push. Family and solo reuse both unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ...actions import Action, PlacementActions
from ...boat import STRIDE, Boat, Tile, cells_of
from ...shapes import (
    PairMasks,
    PairPlan,
    Placements,
    Shape,
    base_shapes,
    is_legal_placement,
    legal_placements,
    orientations_fit,
    pair_masks,
    pair_plan,
    paired_fit,
    paired_rows,
    row_placement,
)
from .frames import Frame
from .playable import play_card, playable_cards
from .state import CAT, OSHAX, PlayerState

if TYPE_CHECKING:
    from .game import StandardGame

# Which supply tiles a treasure choice may take.
POOLS = ("common_any", "common_small", "rare")


def shape_of(key: str) -> Shape:
    shape = _SHAPES.get(key)
    if shape is None:
        shape = _SHAPES[key] = base_shapes().by_key(key)
    return shape


_SHAPES: dict[str, Shape] = {}  # shape_of's answers: the base shapes never change


def placements_for(
    player: PlayerState, shape_key: str, *, ignore_touch: bool = False
) -> Placements:
    """Where a tile may go on this player's boat now (the anywhere effect included)."""
    boat = player.boat
    return legal_placements(shape_of(shape_key), boat.layout, boat.occupied,
                            anywhere=ignore_touch or player.anywhere)


def fits(player: PlayerState, shape_key: str, *, ignore_touch: bool = False) -> bool:
    """Whether the tile has a legal placement on this player's boat now."""
    boat = player.boat
    return _fits(shape_key, boat.layout.cells_mask, boat.occupied,
                 ignore_touch or player.anywhere or not boat.occupied)


def fit_test(player: PlayerState, *, ignore_touch: bool = False) -> Callable[[str], bool]:
    """``fits(player, key, ignore_touch=...)`` as a function of the shape key, for callers
    that ask one boat about several tiles (rescue options, treasure and Oshax offers): the
    boat's free and touchable cells are worked out once, and each shape's answer is kept.
    The player keeps the last test while its boat (the object), the boat's cells and the
    anywhere effect stay the same (a rare-finds turn asks once per Oshax and treasure
    option, the offer after it and the next rescue turn ask the same boat again)."""
    return fit_answers(player, ignore_touch=ignore_touch)[1]


def fit_answers(player: PlayerState, *, ignore_touch: bool = False
                ) -> tuple[dict[str, bool], Callable[[str], bool]]:
    """``fit_test``'s answers so far (shape key -> fits) beside the test itself, for a caller
    that asks about many tiles in a loop (``rescue_options``, a dozen cats per rescue turn):
    it reads a kept answer from the dict and calls the test only for a shape not asked yet.
    The player keeps ``(boat, occupied, anywhere, (answers, test), pair masks)``: the masks
    are read by ``draw_placement`` (the placement of the cat just asked about) and by
    ``rescue_options``, which calls ``paired_fit`` itself."""
    boat = player.boat
    occupied = boat.occupied
    anywhere = ignore_touch or player.anywhere or not occupied
    kept = player._fit
    if kept is not None and kept[0] is boat and kept[1] == occupied and kept[2] == anywhere:
        return kept[3]
    masks = _boat_pair_masks(boat, occupied, anywhere)
    answers: dict[str, bool] = {}

    def test(shape_key: str) -> bool:
        found = answers.get(shape_key)
        if found is None:
            plan = PAIR_PLANS.get(shape_key) or _pair_plan_of(shape_key)
            found = answers[shape_key] = paired_fit(plan, masks, anywhere)
        return found

    found = player._fit = (boat, occupied, anywhere, (answers, test), masks)
    return found[3]


def _boat_pair_masks(boat: Boat, occupied: int, anywhere: bool) -> PairMasks:
    """``pair_masks`` of the boat's free cells and, under the touch rule, the free cells
    next to a tile."""
    free = boat.layout.cells_mask & ~occupied
    near_cells = 0 if anywhere else (
        (occupied << 1) | (occupied >> 1) | (occupied << STRIDE) | (occupied >> STRIDE)) & free
    return pair_masks(free, near_cells)


def _pair_plan_of(shape_key: str) -> PairPlan:
    """The shape's ``pair_plan``, worked out once (``PAIR_PLANS``)."""
    plan = PAIR_PLANS.get(shape_key)
    if plan is None:
        plan = PAIR_PLANS[shape_key] = pair_plan(shape_of(shape_key).orientations)
    return plan


def _fits_free(shape_key: str, free: int, near_cells: int, anywhere: bool) -> bool:
    orientations = _ORIENTATIONS.get(shape_key)
    if orientations is None:
        orientations = _ORIENTATIONS[shape_key] = shape_of(shape_key).orientations
    return orientations_fit(orientations, free, near_cells, anywhere)


_ORIENTATIONS: dict[str, tuple[Any, ...]] = {}  # shape key -> its orientations
# shape key -> its ``pair_plan``, worked out once (the fit tests, the placements drawn, and
# ``rescue_options``, which calls ``paired_fit`` itself for the shapes not asked yet)
PAIR_PLANS: dict[str, PairPlan] = {}


def _fits(shape_key: str, cells: int, occupied: int, anywhere: bool) -> bool:
    """``legal_placements`` stopped at the first hit (``has_legal_placement``). Not cached:
    in random games three calls in four ask about a boat that changed since (an LRU cache of
    8192 answers cost 7% of a 4-player game and saved little); callers that ask one boat
    about many tiles remember the answers per shape themselves (``rescue_options``)."""
    free = cells & ~occupied
    near_cells = 0 if anywhere else (
        (occupied << 1) | (occupied >> 1) | (occupied << STRIDE) | (occupied >> STRIDE)) & free
    return _fits_free(shape_key, free, near_cells, anywhere)


# ``Action("place", mask)`` without ``Action.__new__``'s frame: the same tuple subclass and items
_new_action = tuple.__new__


class PlaceFrame(Frame):
    """One seat places one tile it holds. ``colour`` is the cat's (or chosen Oshax) colour."""

    name = "place"

    def __init__(self, seat: int, tile: int, colour: str | None, *, reward: bool = True,
                 allow_anywhere_cards: bool = False) -> None:
        super().__init__()
        self.seat = seat
        self.tile = tile
        self.colour = colour
        self.reward = reward
        self.allow_anywhere_cards = allow_anywhere_cards  # card 75: 69/70 may be played now

    @classmethod
    def made(cls, seat: int) -> PlaceFrame:
        """A placement already made, left below the map reward it earned (``apply`` pushes
        the ``TreasureFrame`` above it): how a forward model rebuilds it, the tile unknown."""
        frame = cls(seat, -1, None, reward=True)
        frame.done = True
        return frame

    def _extra(self, game: StandardGame) -> list[Action]:
        if not self.allow_anywhere_cards:
            return []
        return [Action("play", c) for c in playable_cards(game, self.seat, "placing")]

    def legal(self, game: StandardGame, seat: int) -> Sequence[Action]:
        if seat != self.seat:
            return ()
        player = game.state.players[seat]
        info = game.state.tiles[self.tile]
        placements = placements_for(player, info.shape)
        if not self.allow_anywhere_cards:
            return PlacementActions(placements)
        return PlacementActions(placements, before=self._extra(game))

    def progress(self, game: StandardGame) -> None:
        if self.done:
            return
        if not self.allow_anywhere_cards:
            # whether the tile fits, from the player's kept fit test (the offer that gave the
            # tile asked the same boat about the same shape): the placements themselves are
            # enumerated once, by the bot's ``legal_actions`` or the playout's ``pick``
            answers, fit = fit_answers(game.state.players[self.seat])
            shape = game.state.tiles[self.tile].shape
            found = answers.get(shape)
            if found is None:
                found = fit(shape)
            if found:
                self.waiting = (self.seat,)
                return
        # through the game's cache: the bot's ``legal_actions`` call reuses this list (card 75's
        # choice, which may offer the anywhere cards beside the placements)
        if not game.legal_actions_of(self, self.seat):
            # Nothing fits (only possible for a tile drawn by card 75): it leaves the game.
            game.state.in_transit.remove(self.tile)
            game.state.removed.append(self.tile)
            game.log("tile_discarded", seat=self.seat, tile=self.tile, why="does not fit")
            self.done = True
            return
        self.waiting = (self.seat,)

    def pick(self, game: StandardGame, seat: int, randbelow: Callable[[int], int]) -> Action:
        """``legal[randbelow(len(legal))]`` with only the drawn placement built
        (``draw_placement``). Card 75's choice (anywhere cards first) takes the list."""
        if self.allow_anywhere_cards:
            return super().pick(game, seat, randbelow)
        return draw_placement(game.state.players[seat], game.state.tiles[self.tile].shape,
                              randbelow)

    def reason(self, game: StandardGame, seat: int, action: Action) -> str | None:
        if action.kind != "place":
            return None
        player = game.state.players[seat]
        info = game.state.tiles[self.tile]
        boat = player.boat
        return is_legal_placement(shape_of(info.shape), boat.layout, boat.occupied, action[1],
                                  anywhere=player.anywhere)

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        if action[0] == "play":
            play_card(game, seat, action[1])
            return
        self.done = True
        self.waiting = ()
        if put_tile(game, seat, self.tile, self.colour, action[1], self.reward):
            game.log("map_reward", seat=seat, colour=self.colour)
            game.push(TreasureFrame(seat, game.map_reward_pool, count=1, required=0))

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        info = game.state.tiles[self.tile]
        return {"decision": self.name, "tile": {**info.to_json(), "colour": self.colour},
                "anywhere": game.state.players[self.seat].anywhere}


def draw_placement(player: PlayerState, shape_key: str,
                   randbelow: Callable[[int], int]) -> Action:
    """``PlacementActions(placements_for(player, shape_key))[randbelow(n)]`` with only the
    drawn placement built: the count of placements per orientation by popcount of its
    anchors (``shapes.paired_rows``), in ``legal_placements``' order, and one draw. A
    random playout's placement (``PlaceFrame.pick``, the playout's rescue loop)."""
    boat = player.boat
    occupied = boat.occupied
    anywhere = player.anywhere or not occupied
    kept = player._fit  # the fit test's masks, when it asked this boat (a rescue's cat)
    if kept is not None and kept[0] is boat and kept[1] == occupied and kept[2] == anywhere:
        masks = kept[4]
    else:
        masks = _boat_pair_masks(boat, occupied, anywhere)
    plan = PAIR_PLANS.get(shape_key) or _pair_plan_of(shape_key)
    rows, count = paired_rows(plan, masks, not anywhere)
    return _new_action(Action, ("place", row_placement(rows, randbelow(count))))


def put_tile(game: StandardGame, seat: int, tile: int, colour: str | None, mask: int,
             reward: bool) -> bool:
    """Place a held tile at ``mask`` on ``seat``'s boat (``PlaceFrame``'s action, and the
    playout's rescue loop): the anywhere effect is used up and ``placed`` logged. Returns
    whether it earns the map reward (a cat or Oshax of ``colour`` on a map of that colour,
    where the placement gives one): the caller logs it and offers the treasure."""
    state = game.state
    player = state.players[seat]
    info = state.tiles[tile]
    kind = info.kind
    player.boat.place(Tile.quick(kind, colour, info.shape, mask, info.id))
    state.in_transit.remove(tile)
    player.anywhere = False  # the anywhere effect covers exactly one placement
    game.log("placed", seat=seat, tile=tile, kind=kind, colour=colour, cells=cells_of(mask))
    return bool(reward and kind in (CAT, OSHAX) and colour is not None
                and mask & player.boat.layout.maps.get(colour, 0))


def treasure_offer(game: StandardGame, seat: int, pool: str) -> list[str]:
    """The shapes of ``pool`` in the supply that fit on ``seat``'s boat now, in supply order:
    a treasure choice's offer (``TreasureFrame.options``)."""
    keys = _pool_shapes(game, pool)
    if not keys:
        return keys
    answers, fit = fit_answers(game.state.players[seat])
    out = []
    for k in keys:  # a kept answer is read without calling the test (a loop: no frame)
        if answers[k] if k in answers else fit(k):
            out.append(k)
    return out


def treasure_offered(game: StandardGame, seat: int, pool: str) -> bool:
    """``bool(treasure_offer(...))``, stopped at the first shape that fits: asked of each
    option of a treasure card in a rare-finds turn, without building the frame."""
    keys = _pool_shapes(game, pool)
    if not keys:
        return False
    answers, fit = fit_answers(game.state.players[seat])
    for k in keys:  # noqa: SIM110 (a loop: no generator per rare-finds option)
        if answers[k] if k in answers else fit(k):
            return True
    return False


def _pool_shapes(game: StandardGame, pool: str) -> list[str]:
    """The shapes of ``pool`` in the supply, in supply order, each once."""
    supply = game.state.supply
    keys: list[str] = []
    if pool == "common_any" or pool == "common_small":
        small = base_shapes().small_common
        for key, ids in supply.common.items():
            if ids and (pool != "common_small" or key in small):
                keys.append(key)
    elif pool == "rare":
        tiles = game.state.tiles
        for tile in supply.rare:
            key = tiles[tile].shape
            if key not in keys:
                keys.append(key)
    return keys


_DECLINE = Action("decline")
_TAKE: dict[str, Action] = {}  # shape key -> its take_treasure action (immutable: built once)


def _take_action(shape_key: str) -> Action:
    action = _TAKE[shape_key] = Action("take_treasure", shape_key)
    return action


class TreasureFrame(Frame):
    """Take up to ``count`` treasures from ``pool`` and place each; the first ``required``
    must be taken when any fits, the rest may be declined (rulebook FAQ: treasure is
    optional). A choice with nothing left that fits lapses."""

    name = "take_treasure"

    def __init__(self, seat: int, pool: str, *, count: int, required: int,
                 taken: int = 0) -> None:
        super().__init__()
        if pool not in POOLS:
            raise ValueError(f"unknown treasure pool {pool!r}")
        self.seat = seat
        self.pool = pool
        self.count = count
        self.required = required
        self.taken = taken  # treasures taken so far

    def options(self, game: StandardGame) -> list[str]:
        """Shapes on offer that fit on the seat's boat now."""
        return treasure_offer(game, self.seat, self.pool)

    def progress(self, game: StandardGame) -> None:
        # the offer is read from the seat's legal actions (the game's cache), which the
        # bot's ``legal_actions`` call then reuses instead of building the offer again
        # (the offer's ``take_treasure`` actions come first, ``decline`` last)
        legal = game.legal_actions_of(self, self.seat) if self.taken < self.count else ()
        if not legal or legal[0][0] != "take_treasure":
            self.done = True
            self.waiting = ()
            return
        self.waiting = (self.seat,)

    def legal(self, game: StandardGame, seat: int) -> Sequence[Action]:
        if seat != self.seat:
            return ()
        out = []
        for k in self.options(game):
            out.append(_TAKE.get(k) or _take_action(k))
        if self.taken >= self.required:
            out.append(_DECLINE)
        return out

    def reason(self, game: StandardGame, seat: int, action: Action) -> str | None:
        if action.kind == "decline" and self.taken < self.required:
            return "this card must give at least one treasure: take one"
        if action.kind == "take_treasure" and action[1] not in self.options(game):
            return (f"no {action[1]!r} treasure that fits your boat is on offer "
                    f"(offer: {', '.join(self.options(game)) or 'none'})")
        return None

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        if action[0] == "decline":
            game.log("treasure_declined", seat=seat)
            self.done = True
            self.waiting = ()
            return
        key = action[1]
        state = game.state
        tile = self._take(game, key)
        state.in_transit.append(tile)
        self.taken += 1
        self.waiting = ()
        game.log("treasure_taken", seat=seat, tile=tile, shape=key)
        game.push(PlaceFrame(seat, tile, None, reward=False))

    def _take(self, game: StandardGame, key: str) -> int:
        supply = game.state.supply
        ids = supply.common.get(key)
        if ids:
            return ids.pop()
        # identical rare treasures form a stack and a player takes the top copy, the one
        # drawn last (solo numbers stacks by first appearance, so the stack keeps its number)
        tiles = game.state.tiles
        for i in range(len(supply.rare) - 1, -1, -1):
            if tiles[supply.rare[i]].shape == key:
                return supply.rare.pop(i)
        raise AssertionError(f"no {key} in the supply")  # pragma: no cover - legal() guards

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        return {"decision": self.name, "pool": self.pool, "remaining": self.count - self.taken,
                "must_take": self.taken < self.required, "offer": self.options(game)}

