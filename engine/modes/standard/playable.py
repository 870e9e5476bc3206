"""Anytime cards in hand: which a seat may play now, and playing one.

A card is playable by its family and ``anytime_type`` in a context: ``window`` (anytime
rounds and one's own turns), ``buy`` (only gain-fish cards held since the buy step began) or
``placing`` (only 69/70, while placing the tile card 75 drew). ``play_card`` moves the card
to the played pile and runs its effect from ``EFFECTS``, which ``phases/anytime.py`` fills:
the effects push frames (placements among them), so they live above ``placement.py``, which
asks this module about cards 69/70 without importing them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ...actions import Action
from ...cards import base_cards
from .state import ANYTIME_IDS, COMMON, RARE, PlayerState, card

if TYPE_CHECKING:
    from .game import StandardGame

CONTEXTS = ("window", "buy", "placing")
_CARDS = base_cards()  # id -> card (``state.card``'s table)

# a card's ``anytime_type`` -> what playing it does (registered by phases/anytime.py)
EFFECTS: dict[str, Callable[[StandardGame, PlayerState, int], None]] = {}


def treasures_on_boat(p: PlayerState) -> list[int]:
    return [t.tile_id for t in p.boat.tiles if t.kind in (COMMON, RARE)]


_PRECONDITION: dict[str, Callable[[StandardGame, PlayerState], bool]] = {
    "next_shape_anywhere": lambda g, p: not p.anywhere,
    "draw_2_cards": lambda g, p: bool(g.state.deck),
    "draw_3_cards": lambda g, p: bool(g.state.deck),
    "draw_tile_to_boat": lambda g, p: bool(g.state.bag),
    "draw_tiles_to_fields": lambda g, p: bool(g.state.bag),
    "move_cats_between_fields": lambda g, p: not g.state.fields.is_empty(),
    "discard_basket_gain_fish": lambda g, p: p.baskets >= 1,
    "discard_2_lessons_gain_basket": lambda g, p: len(p.private_lessons) >= 2,
    "discard_2_treasures_gain_basket": lambda g, p: len(treasures_on_boat(p)) >= 2,
}


def is_playable(game: StandardGame, seat: int, card_id: int, context: str) -> bool:
    p = game.state.players[seat]
    return card_id in p.hand and _playable(game, p, card_id, context)


def _playable(game: StandardGame, p: PlayerState, card_id: int, context: str) -> bool:
    """``is_playable`` of a card known to be in ``p``'s hand."""
    c = _CARDS[card_id]  # ``card(card_id)`` without the call: asked of every card held
    if c.family != "anytime":
        return False
    if context == "buy" and (not c.playable_in_buy_phase or card_id in p.bought_now):
        return False
    if context == "placing" and c.anytime_type != "next_shape_anywhere":
        return False
    check = _PRECONDITION.get(c.anytime_type or "")
    return check is None or check(game, p)


def unplayable_reason(game: StandardGame, seat: int, card_id: int, context: str) -> str:
    """Why ``is_playable`` said no, in words."""
    p = game.state.players[seat]
    if card_id not in p.hand:
        return f"card {card_id} is not in your hand"
    c = card(card_id)
    if c.family != "anytime":
        return f"card {card_id} is not an anytime card ({c.family})"
    if context == "buy":
        if not c.playable_in_buy_phase:
            return f"card {card_id} cannot be played while buying (only gain-fish cards can)"
        return f"card {card_id} was bought in this buy step; it can be played later"
    if context == "placing":
        return "while placing this tile only cards 69/70 (place anywhere) may be played"
    return f"card {card_id} ({c.label}) cannot be played now: " + {
        "next_shape_anywhere": "a place-anywhere effect is already pending",
        "draw_2_cards": "the deck is empty",
        "draw_3_cards": "the deck is empty",
        "draw_tile_to_boat": "the bag is empty",
        "draw_tiles_to_fields": "the bag is empty",
        "move_cats_between_fields": "the fields are empty",
        "discard_basket_gain_fish": "you have no permanent basket",
        "discard_2_lessons_gain_basket": "you have fewer than 2 private lessons on the table",
        "discard_2_treasures_gain_basket": "you have fewer than 2 treasures on your boat",
    }.get(c.anytime_type or "", "not allowed now")


def playable_cards(game: StandardGame, seat: int, context: str = "window") -> list[int]:
    """The anytime cards ``seat`` may play now, lowest id first (cheap when none held)."""
    p = game.state.players[seat]
    if not p.anytime_count:
        return []
    # only anytime cards can be playable: the others are skipped before the full check
    out = []
    for c in p.hand:  # a loop: asked before most turns of a seat holding anytime cards
        if c in ANYTIME_IDS and _playable(game, p, c, context):
            out.append(c)
    out.sort()
    return out


def holds_playable(game: StandardGame, p: PlayerState, context: str = "window") -> bool:
    """``bool(playable_cards(game, p.seat, context))``, stopped at the first playable card
    (an anytime round asks it of every seat holding anytime cards, before every turn)."""
    # a loop, not ``any`` over a generator (a frame per call): asked before every turn
    for c in p.hand:  # noqa: SIM110
        if c in ANYTIME_IDS and _playable(game, p, c, context):
            return True
    return False


def play_actions(game: StandardGame, seat: int, context: str = "window") -> list[Action]:
    cards = playable_cards(game, seat, context)
    return [play_action(c) for c in cards] if cards else cards  # (most turns: none)


def play_action(card_id: int) -> Action:
    """``play`` of a card, built once (actions are immutable values)."""
    action = _PLAY.get(card_id)
    if action is None:
        action = _PLAY[card_id] = Action("play", card_id)
    return action


_PLAY: dict[int, Action] = {}


def play_card(game: StandardGame, seat: int, card_id: int) -> None:
    """Play an anytime card from ``seat``'s hand: it goes to the played pile, then acts."""
    p = game.state.players[seat]
    p.remove_card(card_id)
    game.state.played.append(card_id)
    c = card(card_id)
    game.log("card_played", seat=seat, card=card_id, anytime_type=c.anytime_type)
    EFFECTS[c.anytime_type or ""](game, p, card_id)
