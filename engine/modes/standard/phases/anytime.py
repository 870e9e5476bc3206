"""Anytime cards (67-97): what each does, and the anytime rounds (when each may be played is
``playable.py``'s).

Windows (FACTS §4): on one's own rescue and rare-finds turns; in anytime rounds before fill,
before dealing, before buying, before reading lessons, before and after choosing rescue cards,
before each other player's rescue or rare-finds turn and before final scoring; in the buy step
only the gain-fish cards already held when it began; while placing the tile of card 75 only
69/70. A round asks, in turn order, only seats holding a card playable at that moment; each may
play one card per pass, and the round goes round again while somebody played.

A card's effect is chosen by its ``anytime_type`` and reads its numbers from the card's
``params``. Effects that need a choice push a small frame (cards to buy, cats to move, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ....actions import Action
from ....boat import COLOURS
from ..fields import SIDES
from ..frames import Frame, PickActions
from ..placement import PlaceFrame, fits
from ..playable import (
    EFFECTS,
    holds_playable,
    is_playable,
    play_action,
    play_actions,
    play_card,
    playable_cards,
    treasures_on_boat,
    unplayable_reason,
)
from ..state import CAT, COMMON, OSHAX, RARE, PlayerState, card

if TYPE_CHECKING:
    from ..game import StandardGame

_DONE = Action("done")


# --- what a gain-fish card counts -------------------------------------------------------------


def _tiles_of_kind(p: PlayerState, kind: str) -> int:
    return sum(1 for t in p.boat.tiles if t.kind == kind)


def _colour_counts(p: PlayerState, kinds: tuple[str, ...] = (CAT, OSHAX)) -> list[int]:
    return [sum(1 for t in p.boat.tiles if t.colour == c and t.kind in kinds) for c in COLOURS]


ITEM_COUNTS: dict[str, Callable[[PlayerState], int]] = {
    "oshax_on_boat": lambda p: _tiles_of_kind(p, OSHAX),
    "private_lessons_on_table": lambda p: len(p.private_lessons),
    "rare_treasures_on_boat": lambda p: _tiles_of_kind(p, RARE),
    "common_treasures_on_boat": lambda p: _tiles_of_kind(p, COMMON),
    # The printed card 90/91: Oshax do not count as colours (FACTS §8.7: BGA counts them).
    "distinct_colours_on_boat": lambda p: sum(1 for n in _colour_counts(p, (CAT,)) if n),
    # FACTS §8.9: the best colour is taken (more fish is never worse, so no choice is asked).
    "cats_and_oshax_of_chosen_colour": lambda p: max(_colour_counts(p)),
}


def fish_gain(p: PlayerState, card_id: int) -> int:
    """Fish a gain-fish card would give this player now."""
    params = card(card_id).params
    if "item" not in params:
        return int(params.get("fish", 0))
    count = ITEM_COUNTS[params["item"]](p)
    if "max" in params:
        count = min(count, params["max"])
    return params["fish_per_item"] * count


# --- effects ----------------------------------------------------------------------------------


def _gain_fish(game: StandardGame, p: PlayerState, card_id: int) -> None:
    gain = fish_gain(p, card_id)
    p.fish += gain
    game.log("fish_gained", seat=p.seat, card=card_id, fish=gain)


def _discard_basket(game: StandardGame, p: PlayerState, card_id: int) -> None:
    # A used basket goes first: the player keeps every rescue still open to them today.
    p.baskets -= 1
    if p.baskets_used > 0:
        p.baskets_used -= 1
    _gain_fish(game, p, card_id)


def _gain_basket(game: StandardGame, p: PlayerState, card_id: int) -> None:
    p.baskets += card(card_id).params.get("baskets", 1)


def _anywhere(game: StandardGame, p: PlayerState, card_id: int) -> None:
    p.anywhere = True


def _extra_cat(game: StandardGame, p: PlayerState, card_id: int) -> None:
    p.extra_cats += card(card_id).params["extra_cats"]


def _draw_cards(game: StandardGame, p: PlayerState, card_id: int) -> None:
    for _ in range(card(card_id).params["draw"]):
        drawn = game.state.draw_card()
        if drawn is None:
            break
        p.drawn.append(drawn)
    game.log("cards_drawn", seat=p.seat, cards=list(p.drawn), hidden=True)
    game.push(DrawnCardsFrame(p.seat))


def _draw_tile_to_boat(game: StandardGame, p: PlayerState, card_id: int) -> None:
    state = game.state
    tile = state.bag.pop()
    info = state.tiles[tile]
    game.log("tile_drawn", seat=p.seat, tile=tile, kind=info.kind, colour=info.colour,
             shape=info.shape)
    placeable = fits(p, info.shape) or (
        fits(p, info.shape, ignore_touch=True) and bool(playable_cards(game, p.seat, "placing")))
    if not placeable:
        state.removed.append(tile)
        game.log("tile_discarded", seat=p.seat, tile=tile, why="does not fit")
        return
    state.in_transit.append(tile)
    game.push(PlaceFrame(p.seat, tile, info.colour if info.kind == CAT else None,
                         reward=True, allow_anywhere_cards=True))


def _move_cats(game: StandardGame, p: PlayerState, card_id: int) -> None:
    game.push(MoveCatsFrame(p.seat, card(card_id).params["max_cats"]))


def _draw_to_fields(game: StandardGame, p: PlayerState, card_id: int) -> None:
    game.push(DrawToFieldsFrame(p.seat, card(card_id).params["tiles"]))


def _discard_lessons(game: StandardGame, p: PlayerState, card_id: int) -> None:
    game.push(DiscardLessonsFrame(p.seat))


def _remove_treasures(game: StandardGame, p: PlayerState, card_id: int) -> None:
    game.push(RemoveTreasuresFrame(p.seat))


# --- the anytime round --------------------------------------------------------------------------


class AnytimeRoundFrame(Frame):
    """Seats in ``order`` that hold a playable card may each play one (or say ``done``);
    the round repeats while somebody played."""

    name = "anytime"
    public_waiting = False  # who is asked shows who holds a playable anytime card

    def __init__(self, order: Sequence[int], window: str) -> None:
        super().__init__()
        self.order = list(order)
        self.window = window
        self.index = 0
        self.played = False

    @classmethod
    def resumed(cls, order: Sequence[int], window: str, seat: int, *,
                played: bool) -> AnytimeRoundFrame:
        """The round at ``seat``'s place in it: asking ``seat``, or, once it ``played`` a
        card (whose frames lie above this one), past it (a forward model's rebuilt stack)."""
        frame = cls(order, window)
        frame.index = frame.order.index(seat) if seat in frame.order else 0
        if played:
            frame.index += 1
            frame.played = True
        else:
            frame.resume_asking(seat)
        return frame

    def progress(self, game: StandardGame) -> None:
        players = game.state.players
        while True:
            while self.index < len(self.order):
                seat = self.order[self.index]
                if players[seat].anytime_count and holds_playable(game, players[seat]):
                    self.waiting = (seat,)
                    return
                self.index += 1
            if not self.played:
                self.done = True
                self.waiting = ()
                return
            self.index = 0
            self.played = False

    def legal(self, game: StandardGame, seat: int) -> Sequence[Action]:
        if seat not in self.waiting:
            return ()
        return [*play_actions(game, seat), _DONE]

    def pick(self, game: StandardGame, seat: int, randbelow: Callable[[int], int]) -> Action:
        """``legal``'s draw without the list: the playable cards in order, then ``done``."""
        cards = playable_cards(game, seat)
        i = randbelow(len(cards) + 1)
        return play_action(cards[i]) if i < len(cards) else _DONE

    def reason(self, game: StandardGame, seat: int, action: Action) -> str | None:
        if action.kind == "play" and not is_playable(game, seat, action[1], "window"):
            return unplayable_reason(game, seat, action[1], "window")
        return None

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        self.index += 1
        self.waiting = ()
        if action[0] == "play":
            self.played = True
            play_card(game, seat, action[1])

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        return {"decision": self.name, "window": self.window}


# --- frames of card effects that need a choice ------------------------------------------------


class DrawnCardsFrame(Frame):
    """Cards 71-74: buy any of the drawn cards at their cost; the rest are discarded."""

    name = "buy_drawn"

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def _affordable(self, game: StandardGame) -> list[int]:
        p = game.state.players[self.seat]
        return sorted(c for c in p.drawn if (card(c).cost or 0) <= p.fish)

    def progress(self, game: StandardGame) -> None:
        if not self._affordable(game):
            self._finish(game)
            return
        self.waiting = (self.seat,)

    def _finish(self, game: StandardGame) -> None:
        p = game.state.players[self.seat]
        game.state.discard.extend(p.drawn)
        p.drawn.clear()
        self.done = True
        self.waiting = ()

    def legal(self, game: StandardGame, seat: int) -> Sequence[Action]:
        if seat != self.seat:
            return ()
        return [*(Action("buy", c) for c in self._affordable(game)), Action("done")]

    def reason(self, game: StandardGame, seat: int, action: Action) -> str | None:
        if action.kind == "buy":
            return buy_reason(game.state.players[seat], action[1], "drawn")
        return None

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        if action.kind == "done":
            self._finish(game)
            return
        p = game.state.players[seat]
        pay_and_take(p, action[1], p.drawn)
        game.log("bought", seat=seat, card=action[1], hidden=True)
        self.waiting = ()

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        return {"decision": self.name, "cards": sorted(game.state.players[self.seat].drawn)}


def buy_reason(p: PlayerState, card_id: int, pile: str) -> str | None:
    """Why ``p`` cannot buy ``card_id`` from its ``pile`` ("kept" or "drawn"), or None."""
    if card_id not in getattr(p, pile):
        where = "your draft picks" if pile == "kept" else "the cards you drew"
        return f"card {card_id} is not among {where}"
    cost = card(card_id).cost or 0
    if cost > p.fish:
        return f"not enough fish: card {card_id} costs {cost}, you have {p.fish}"
    return None


def pay_and_take(p: PlayerState, card_id: int, pile: list[int]) -> None:
    cost = card(card_id).cost or 0
    if cost > p.fish:
        raise AssertionError("fish would go negative")  # pragma: no cover - legal() guards
    pile.remove(card_id)
    p.fish -= cost
    p.add_card(card_id)


class MoveCatsFrame(Frame):
    """Card 77: move up to 3 different cats, each to the opposite field."""

    name = "move_cats"

    def __init__(self, seat: int, limit: int, moved: Sequence[int] = ()) -> None:
        super().__init__()
        self.seat = seat
        self.limit = limit
        self.moved: list[int] = list(moved)  # the cats moved so far

    def progress(self, game: StandardGame) -> None:
        if len(self.moved) >= self.limit or not self.legal_moves(game):
            self.done = True
            self.waiting = ()
            return
        self.waiting = (self.seat,)

    def legal_moves(self, game: StandardGame) -> list[Action]:
        fields = game.state.fields
        out = []
        for side in SIDES:
            for i, tile in enumerate(fields.side(side)):
                if tile not in self.moved:
                    out.append(Action("move_cat", side, i))
        return out

    def legal(self, game: StandardGame, seat: int) -> Sequence[Action]:
        if seat != self.seat:
            return ()
        return [*self.legal_moves(game), Action("done")]

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        self.waiting = ()
        if action.kind == "done":
            self.done = True
            return
        tile = game.state.fields.move(action[1], action[2])
        self.moved.append(tile)
        game.log("cat_moved", seat=seat, tile=tile, to="right" if action[1] == "left" else "left")

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        # the cats moved so far are in the seat's own past moves; shown so that the latest
        # observation alone says what the card still allows (engine/forward)
        return {"decision": self.name, "moved": list(self.moved), "limit": self.limit}


class DrawToFieldsFrame(Frame):
    """Card 83: draw tiles one by one; each cat goes to the field the player picks, each rare
    treasure to the supply (it still uses up a draw)."""

    name = "draw_to_fields"

    def __init__(self, seat: int, draws: int, current: int | None = None) -> None:
        super().__init__()
        self.seat = seat
        self.remaining = draws
        self.current = current  # the cat drawn and not yet laid in a field

    def progress(self, game: StandardGame) -> None:
        state = game.state
        while self.current is None:
            if self.remaining <= 0 or not state.bag:
                self.done = True
                self.waiting = ()
                return
            tile = state.bag.pop()
            self.remaining -= 1
            info = state.tiles[tile]
            game.log("tile_drawn", seat=self.seat, tile=tile, kind=info.kind, colour=info.colour,
                     shape=info.shape)
            if info.kind == CAT:
                self.current = tile
                state.in_transit.append(tile)
            else:
                state.supply.rare.append(tile)
        self.waiting = (self.seat,)

    def legal(self, game: StandardGame, seat: int) -> Sequence[Action]:
        if seat != self.seat:
            return ()
        return [Action("to_field", side) for side in SIDES]

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        assert self.current is not None
        game.state.in_transit.remove(self.current)
        game.state.fields.add(self.current, action[1])
        game.log("cat_to_field", seat=seat, tile=self.current, field=action[1])
        self.current = None
        self.waiting = ()

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        tile = game.state.tiles[self.current] if self.current is not None else None
        return {"decision": self.name, "tile": tile.to_json() if tile else None,
                "remaining": self.remaining}


class TradePairForBasketFrame(Frame):
    """Give up two things of one kind for a permanent basket (cards 86-89). Subclasses say
    which things (``choices``) and how they leave (``give_up``); the action's name is the
    frame's name."""

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def choices(self, game: StandardGame, seat: int) -> list[int]:
        raise NotImplementedError

    def give_up(self, game: StandardGame, seat: int, pair: tuple[int, ...]) -> None:
        raise NotImplementedError

    def progress(self, game: StandardGame) -> None:
        self.waiting = (self.seat,)

    def legal(self, game: StandardGame, seat: int) -> Sequence[Action]:
        if seat != self.seat:
            return ()
        items = sorted(self.choices(game, seat))
        return PickActions(Action(self.name, pair) for pair in combinations(items, 2))

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        self.give_up(game, seat, action[1])
        game.state.players[seat].baskets += 1
        self.done = True
        self.waiting = ()


class DiscardLessonsFrame(TradePairForBasketFrame):
    """Cards 86/87: give up two private lessons from the table for a permanent basket."""

    name = "discard_lessons"

    def choices(self, game: StandardGame, seat: int) -> list[int]:
        return game.state.players[seat].private_lessons

    def give_up(self, game: StandardGame, seat: int, pair: tuple[int, ...]) -> None:
        p = game.state.players[seat]
        for lesson in pair:
            p.private_lessons.remove(lesson)
            game.state.discard.append(lesson)
        game.log("lessons_discarded", seat=seat, cards=list(pair))


class RemoveTreasuresFrame(TradePairForBasketFrame):
    """Cards 88/89: take two treasures off the boat (out of the game) for a permanent basket."""

    name = "remove_treasures"

    def choices(self, game: StandardGame, seat: int) -> list[int]:
        return list(treasures_on_boat(game.state.players[seat]))

    def give_up(self, game: StandardGame, seat: int, pair: tuple[int, ...]) -> None:
        p = game.state.players[seat]
        for tile_id in pair:
            tile = next(t for t in p.boat.tiles if t.tile_id == tile_id)
            p.boat.remove(tile)
            game.state.removed.append(tile_id)
        game.log("treasures_removed", seat=seat, tiles=list(pair))


EFFECTS.update({
    "gain_fish_per_oshax": _gain_fish,
    "gain_fish_per_private_lesson": _gain_fish,
    "gain_fish_per_rare_treasure": _gain_fish,
    "gain_fish_per_common_treasure": _gain_fish,
    "gain_fish_per_colour": _gain_fish,
    "gain_fish_per_cat_of_colour": _gain_fish,
    "discard_basket_gain_fish": _discard_basket,
    "gain_basket": _gain_basket,
    "next_shape_anywhere": _anywhere,
    "rescue_extra_cat": _extra_cat,
    "draw_2_cards": _draw_cards,
    "draw_3_cards": _draw_cards,
    "draw_tile_to_boat": _draw_tile_to_boat,
    "move_cats_between_fields": _move_cats,
    "draw_tiles_to_fields": _draw_to_fields,
    "discard_2_lessons_gain_basket": _discard_lessons,
    "discard_2_treasures_gain_basket": _remove_treasures,
})
