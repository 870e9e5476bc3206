"""Phase 4, rescuing cats: choosing rescue cards (simultaneous and hidden), the reveal that
sets the turn order by speed, and the rescue turns.

A rescue turn is ``rescue field=left|right index=i basket=permanent|full|half`` followed by
the placement of the cat (and the optional map reward), or ``pass`` (out for the phase), or
``play`` of anytime cards. A turn rescues one cat, one more per pending card 80-82 (after the
first, ``done`` ends the turn). Only cats that fit somewhere on the boat may be rescued.
The phase ends when everybody has passed or the fields are empty; revealed rescue cards not
used are then discarded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from ....actions import Action
from ....cards import base_cards
from ....shapes import paired_fit
from ..fields import SIDES
from ..frames import Frame
from ..observation import public_snapshot
from ..placement import PAIR_PLANS, PlaceFrame, fit_answers, fits
from ..playable import is_playable, play_actions, play_card, unplayable_reason
from ..state import PlayerState, card
from .turns import TurnsFrame

if TYPE_CHECKING:
    from ..game import StandardGame

BASKETS = ("permanent", "full", "half")
_DONE, _PASS = Action("done"), Action("pass")


def is_rescue_card(card_id: int) -> bool:
    return card_id in _RESCUE_IDS


_RESCUE_IDS = frozenset(i for i, c in base_cards().items() if c.family == "rescue")


class ChooseRescueFrame(Frame):
    """Every seat holding rescue cards lays any of them face down (``choose_rescue``), then
    ``done``; all are revealed together once everybody is done."""

    name = "choose_rescue"
    public_waiting = False  # who is asked shows who holds rescue cards
    simultaneous = True

    def __init__(self, game: StandardGame) -> None:
        super().__init__()
        self.finished: list[int] = []
        self.snapshot = public_snapshot(game)  # what others see until the reveal

    def _options(self, p: PlayerState) -> list[int]:
        return sorted(_RESCUE_IDS.intersection(p.hand))  # (card ids are unique)

    def progress(self, game: StandardGame) -> None:
        none_held = _RESCUE_IDS.isdisjoint
        finished = self.finished
        waiting = []
        for p in game.state.players:  # a loop: asked after every choice (no comprehension)
            if not none_held(p.hand) and p.seat not in finished:
                waiting.append(p.seat)
        if waiting:
            self.waiting = tuple(waiting)
            return
        reveal(game)
        self.done = True
        self.waiting = ()

    def legal(self, game: StandardGame, seat: int) -> Sequence[Action]:
        if seat not in self.waiting:
            return ()
        p = game.state.players[seat]
        return [*(_choose(c) for c in self._options(p)), _DONE]

    def pick(self, game: StandardGame, seat: int, randbelow: Callable[[int], int]) -> Action:
        """``legal``'s draw without the list: the cards in order, then ``done``."""
        options = self._options(game.state.players[seat])
        i = randbelow(len(options) + 1)
        return _choose(options[i]) if i < len(options) else _DONE

    def reason(self, game: StandardGame, seat: int, action: Action) -> str | None:
        if action.kind == "choose_rescue" and action[1] not in self._options(
                game.state.players[seat]):
            return f"card {action[1]} is not a rescue card in your hand"
        return None

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        p = game.state.players[seat]
        if action[0] == "choose_rescue":
            p.remove_card(action[1])
            p.chosen_rescue.append(action[1])
        else:
            self.finished.append(seat)
        self.waiting = ()  # recomputed by progress

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        return {"decision": self.name, "done": seat in self.finished}


@cache
def _choose(card_id: int) -> Action:
    """``choose_rescue`` of a card, built once (actions are immutable values)."""
    return Action("choose_rescue", card_id)


def reveal(game: StandardGame) -> None:
    """Turn the chosen cards face up; speed sets the new turn order (ties keep their order)."""
    state = game.state
    for p in state.players:
        p.revealed_rescue = sorted(p.chosen_rescue)
        p.chosen_rescue = []
        p.speed = sum(card(c).speed for c in p.revealed_rescue)
    state.turn_order = sorted(state.turn_order, key=lambda s: -state.players[s].speed)
    # copies: the revealed lists are used up later, the event keeps what was shown
    game.log("rescue_revealed",
             cards={str(p.seat): list(p.revealed_rescue) for p in state.players},
             speeds=[p.speed for p in state.players], turn_order=list(state.turn_order))


def basket_kinds(p: PlayerState) -> tuple[str, ...]:
    """The kinds of basket this player can use for a rescue now."""
    kinds = []
    if p.baskets > p.baskets_used:  # ``free_baskets``, without a property call per turn
        kinds.append("permanent")
    full = half = 0
    baskets = _BASKETS
    for c in p.revealed_rescue:
        b = baskets[c]
        if b == "full":
            full += 1
        elif b == "half":
            half += 1
    if full:
        kinds.append("full")
    if half >= 2:
        kinds.append("half")
    return tuple(kinds)


_BASKETS = {i: c.basket for i, c in base_cards().items()}  # card -> its basket kind, or None


def rescue_options(game: StandardGame, seat: int) -> list[Action]:
    """Every (field, index, basket) this seat can rescue now: a basket, the fish, and a cat
    that fits somewhere on the boat. One pass over the line of cats, whose left-field cats
    all come before the right-field ones (``Fields``): the left field's options first, as
    ``SIDES`` orders them."""
    p = game.state.players[seat]
    kinds = basket_kinds(p)
    if not kinds:
        return []
    prices = game.rules.field_prices
    fish = p.fish
    left_ok = fish >= prices["left"]
    right_ok = fish >= prices["right"]
    if not (left_ok or right_ok):
        return []
    tiles = game.state.tiles
    answers, fit = fit_answers(p)  # a kept answer is read without calling the test
    _, _, anywhere, _, masks = p._fit  # what the test reads: asked here for most shapes
    plans = PAIR_PLANS
    lefts, rights = _rescue_actions(kinds)
    cats = game.state.fields.cats
    if len(lefts) < len(cats) or len(rights) < len(cats):  # no field holds more cats
        _grow(lefts, "left", len(cats) - 1, kinds)
        _grow(rights, "right", len(cats) - 1, kinds)
    out: list[Action] = []
    side, ok, rows = "left", left_ok, lefts
    index = -1  # the cat's index in its field
    for cat in cats:
        index += 1
        if cat.side != side:  # the first right-field cat
            if not right_ok:
                break
            side, ok, rows = "right", True, rights
            index = 0
        if ok:
            shape = tiles[cat.tile].shape
            found = answers.get(shape)
            if found is None:
                plan = plans.get(shape)
                if plan is None:
                    found = fit(shape)
                else:  # ``fit(shape)`` written out (a dozen cats per turn)
                    found = answers[shape] = paired_fit(plan, masks, anywhere)
            if found:
                out.extend(rows[index])
    return out


@cache
def _rescue_actions(kinds: tuple[str, ...]) -> tuple[list[tuple[Action, ...]], ...]:
    """For the left and the right field, the rescue actions of the cat at each index with
    these basket kinds, built once (actions are immutable values, and these few dozen recur
    at every rescue turn of every game): looked up once per ``rescue_options`` call rather
    than once per cat. ``_grow`` adds the indices not needed before."""
    return [], []


def _grow(rows: list[tuple[Action, ...]], side: str, index: int,
          kinds: tuple[str, ...]) -> None:
    """One side's ``_rescue_actions`` rows, built up to ``index``."""
    for i in range(len(rows), index + 1):
        rows.append(tuple(Action("rescue", side, i, k) for k in kinds))


def use_basket(game: StandardGame, p: PlayerState, kind: str) -> list[int]:
    """Spend one basket of ``kind``; returns the rescue cards it used up."""
    if kind == "permanent":
        p.baskets_used += 1
        return []
    wanted = 1 if kind == "full" else 2
    used = []
    for c in p.revealed_rescue:  # the first ``wanted`` of that kind (a loop: every rescue)
        if _BASKETS[c] == kind:
            used.append(c)
            if len(used) == wanted:
                break
    for c in used:
        p.revealed_rescue.remove(c)
        game.state.played.append(c)
    return used


def rescue_cat(game: StandardGame, seat: int, action: Action) -> int:
    """A ``rescue`` action's payment and pick-up: the fish and the basket are spent, the cat
    leaves its field for the seat's hands (``in_transit``) and ``rescued`` is logged. Returns
    the tile, which the caller has placed (``RescueTurnFrame``, the playout's rescue loop)."""
    side, index, basket = action[1], action[2], action[3]
    state = game.state
    p = state.players[seat]
    price = game.rules.field_prices[side]
    p.fish -= price
    used = use_basket(game, p, basket)
    tile = state.fields.take(side, index)
    state.in_transit.append(tile)
    game.log("rescued", seat=seat, tile=tile, field=side, fish=price, basket=basket,
             cards=used)
    return tile


class RescuePhaseFrame(TurnsFrame):
    name = "rescue"
    window = "before_rescue_turn"

    def over(self, game: StandardGame) -> bool:
        return len(self.passed) == len(self.order) or not game.state.fields.cats

    def turn_frame(self, game: StandardGame, seat: int) -> Frame:
        return RescueTurnFrame(self, seat)

    def after_turn(self, game: StandardGame, seat: int) -> None:
        game.after_rescue_turn(seat)

    def finish(self, game: StandardGame) -> None:
        for p in game.state.players:
            game.state.discard.extend(p.revealed_rescue)
            p.revealed_rescue = []
        game.log("rescue_over")


class RescueTurnFrame(Frame):
    name = "rescue_turn"

    def __init__(self, phase: RescuePhaseFrame, seat: int, rescued: int = 0) -> None:
        super().__init__()
        self._phase = phase
        self.seat = seat
        self.rescued = rescued  # cats rescued so far this turn

    def allowed(self, game: StandardGame) -> int:
        return 1 + game.state.players[self.seat].extra_cats

    def progress(self, game: StandardGame) -> None:
        if self.done:
            return
        if self.rescued and self.rescued_all(game):
            self._end(game)
            return
        legal = game.legal_actions_of(self, self.seat)
        if not self.play_only(game, legal):
            self.waiting = (self.seat,)

    def rescued_all(self, game: StandardGame) -> bool:
        """Whether the turn may rescue no more cats: as many as it may (one, one more per
        pending card 80-82), or the fields are empty."""
        return self.rescued >= self.allowed(game) or not game.state.fields.cats

    def play_only(self, game: StandardGame, legal: Sequence[Action]) -> bool:
        """Play the turn's only legal action (``pass``, or ``done``), with nothing to decide,
        and log it as played by itself; False when there is a choice."""
        if len(legal) != 1:
            return False
        only = legal[0]
        self.apply(game, self.seat, only)
        game.log("auto", seat=self.seat, action=only[0])
        return True

    def legal(self, game: StandardGame, seat: int) -> Sequence[Action]:
        if seat != self.seat or self.done:
            return ()
        out = rescue_options(game, seat)
        out.extend(play_actions(game, seat))
        out.append(_DONE if self.rescued else _PASS)
        return out

    def reason(self, game: StandardGame, seat: int, action: Action) -> str | None:
        p = game.state.players[seat]
        if action.kind == "pass" and self.rescued:
            return "you rescued a cat this turn: end the turn with 'done', not 'pass'"
        if action.kind == "done" and not self.rescued:
            return "a turn must rescue a cat or pass"
        if action.kind == "play" and not is_playable(game, seat, action[1], "window"):
            return unplayable_reason(game, seat, action[1], "window")
        if action.kind != "rescue":
            return None
        side, index, basket = action[1], action[2], action[3]
        if side not in SIDES:
            return f"field must be 'left' or 'right', not {side!r}"
        cats = game.state.fields.side(side)
        if not 0 <= index < len(cats):
            return f"there is no cat {index} in the {side} field ({len(cats)} cats there)"
        price = game.rules.field_prices[side]
        if p.fish < price:
            return f"not enough fish: a cat in the {side} field costs {price}, you have {p.fish}"
        if basket not in BASKETS:
            return f"basket must be one of {', '.join(BASKETS)}, not {basket!r}"
        if basket not in basket_kinds(p):
            return {"permanent": "you have no unused permanent basket",
                    "full": "you have no revealed full-basket rescue card",
                    "half": "you need two revealed half-basket rescue cards"}[basket]
        shape = game.state.tiles[cats[index]].shape
        if not fits(p, shape):
            return f"that cat ({shape}) does not fit anywhere on your boat"
        return None

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        kind = action[0]
        self.waiting = ()
        if kind == "pass":
            self._phase.passed.append(seat)
            game.log("passed", seat=seat, phase="rescue")
            game.on_rescue_pass(seat)
            self.done = True
            return
        if kind == "done":
            self._end(game)
            return
        if kind == "play":
            play_card(game, seat, action[1])
            return
        tile = self.rescue(game, seat, action)
        game.push(PlaceFrame(seat, tile, game.state.tiles[tile].colour, reward=True))

    def rescue(self, game: StandardGame, seat: int, action: Action) -> int:
        """A ``rescue`` action up to the cat's placement: counted, paid for and the cat taken
        (``rescue_cat``). Returns the tile, which the caller has placed (``apply``: a
        ``PlaceFrame``; the playout's rescue loop: at once)."""
        self.rescued += 1
        return rescue_cat(game, seat, action)

    def _end(self, game: StandardGame) -> None:
        if self.rescued:
            game.state.players[self.seat].extra_cats = 0  # the extra-cat effect is used up
        self.done = True
        self.waiting = ()

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        return {"decision": self.name, "rescued": self.rescued, "allowed": self.allowed(game)}
