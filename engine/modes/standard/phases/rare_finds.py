"""Phase 5, rare finds: round the turn order, each turn plays one Oshax or treasure card (and
places what it gives), or passes for the rest of the phase; anytime cards may be played first.

``oshax card=N shape=S colour=C`` takes Oshax S from the supply with colour C (it then counts
as a cat of that colour) and asks for its placement. ``treasure card=N option=0|1`` picks one
of the card's two options (cards.json ``options``): the treasures are then taken one by one
with ``take_treasure``; the first is compulsory, the second may be declined.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from ....actions import Action
from ....boat import COLOURS
from ....cards import base_cards
from ..frames import Frame
from ..placement import PlaceFrame, TreasureFrame, fit_test, fits, treasure_offered
from ..playable import holds_playable, is_playable, play_actions, play_card, unplayable_reason
from ..state import card
from .turns import TurnsFrame

if TYPE_CHECKING:
    from ..game import StandardGame

_PASS = Action("pass")


class RareFindsPhaseFrame(TurnsFrame):
    name = "rare_finds"
    window = "before_rare_finds_turn"

    def turn_frame(self, game: StandardGame, seat: int) -> Frame:
        return RareFindsTurnFrame(self, seat)

    def pass_at_once(self, game: StandardGame, seat: int) -> bool:
        # ``RareFindsTurnFrame.legal`` is only ``pass`` when the seat holds no Oshax or
        # treasure card and no anytime card it may play (and when none of those it holds can
        # be used, which the frame finds out): its ``progress`` would then pass, as this
        # does, and log ``auto``. tests/engine/standard/test_pass_at_once.py tries every
        # card of the game as the seat's hand against the frame.
        p = game.state.players[seat]
        if not _RARE_IDS.isdisjoint(p.hand) or (p.anytime_count and holds_playable(game, p)):
            return False
        pass_turn(game, self, seat)
        game.log("auto", seat=seat, action="pass")
        return True

    def finish(self, game: StandardGame) -> None:
        game.log("rare_finds_over")


def pass_turn(game: StandardGame, phase: RareFindsPhaseFrame, seat: int) -> None:
    """``pass`` in a rare-finds turn: the seat is out for the rest of the phase."""
    phase.passed.append(seat)
    game.log("passed", seat=seat, phase="rare_finds")


def oshax_options(game: StandardGame, seat: int) -> list[Action]:
    p = game.state.players[seat]
    held = _OSHAX_IDS.intersection(p.hand)  # (card ids are unique: no copy is lost)
    if not held:
        return []
    cards = sorted(held)
    tiles = game.state.tiles
    shapes = [tiles[t].shape for t in game.state.supply.oshax]
    fit = fit_test(p)
    shapes = [s for s in shapes if fit(s)]
    out: list[Action] = []
    for c in cards:
        for s in shapes:
            out.extend(_oshax_actions(c, s))
    return out


@cache
def _oshax_actions(card_id: int, shape: str) -> tuple[Action, ...]:
    """``oshax`` of a card and a shape in every colour, built once (immutable values)."""
    return tuple(Action("oshax", card_id, shape, colour) for colour in COLOURS)


def option_feasible(game: StandardGame, seat: int, card_id: int, option: int) -> str | None:
    """None if the option can give at least one treasure now, else why not."""
    p = game.state.players[seat]
    options = card(card_id).options
    if not 0 <= option < len(options):
        return f"card {card_id} has options 0..{len(options) - 1}"
    opt = options[option]
    extra = opt.get("extra_cost_fish", 0)
    if extra > p.fish:
        return (f"not enough fish: option {option} of card {card_id} costs {extra}, "
                f"you have {p.fish}")
    if not treasure_offered(game, seat, opt["take"][0]["kind"]):
        return f"no treasure of option {option} of card {card_id} is on offer and fits your boat"
    return None


def treasure_options(game: StandardGame, seat: int) -> list[Action]:
    """``option_feasible`` of every option of every treasure card in hand, each pool's offer
    looked at once (two cards often share a pool)."""
    p = game.state.players[seat]
    held = _TREASURE_IDS.intersection(p.hand)
    if not held:
        return []
    cards = sorted(held)
    out = []
    fish = p.fish
    offered: dict[str, bool] = {}
    for c in cards:
        for extra, pool, action in _TREASURE_OPTIONS[c]:
            if extra > fish:
                continue
            ok = offered.get(pool)
            if ok is None:
                ok = offered[pool] = treasure_offered(game, seat, pool)
            if ok:
                out.append(action)
    return out


_OSHAX_IDS = frozenset(i for i, c in base_cards().items() if c.family == "oshax")
_TREASURE_IDS = frozenset(i for i, c in base_cards().items() if c.family == "treasure")
_RARE_IDS = _OSHAX_IDS | _TREASURE_IDS  # the cards a rare-finds turn plays
# treasure card -> per option: its extra cost in fish, the pool of its first treasure, and
# its ``treasure`` action (read from the cards' options once, not at every turn)
_TREASURE_OPTIONS = {
    c: tuple((opt.get("extra_cost_fish", 0), opt["take"][0]["kind"], Action("treasure", c, i))
             for i, opt in enumerate(card(c).options))
    for c in sorted(_TREASURE_IDS)}


class RareFindsTurnFrame(Frame):
    name = "rare_finds_turn"

    def __init__(self, phase: RareFindsPhaseFrame, seat: int) -> None:
        super().__init__()
        self._phase = phase
        self.seat = seat

    @classmethod
    def resumed(cls, phase: RareFindsPhaseFrame, seat: int, *,
                card_played: bool) -> RareFindsTurnFrame:
        """The turn, asking for its card or, once ``card_played``, done but for the frames
        the card pushed above it (a forward model's rebuilt stack)."""
        frame = cls(phase, seat)
        frame.done = card_played
        return frame

    def progress(self, game: StandardGame) -> None:
        if self.done:
            return
        legal = game.legal_actions_of(self, self.seat)
        if len(legal) == 1:  # only pass
            self.apply(game, self.seat, legal[0])
            game.log("auto", seat=self.seat, action="pass")
            return
        self.waiting = (self.seat,)

    def legal(self, game: StandardGame, seat: int) -> Sequence[Action]:
        if seat != self.seat or self.done:
            return ()
        if _RARE_IDS.isdisjoint(game.state.players[seat].hand):  # most turns: no such card
            out = play_actions(game, seat)  # a new list
            out.append(_PASS)
            return out
        return [*oshax_options(game, seat), *treasure_options(game, seat),
                *play_actions(game, seat), _PASS]

    def reason(self, game: StandardGame, seat: int, action: Action) -> str | None:
        p = game.state.players[seat]
        if action.kind == "play" and not is_playable(game, seat, action[1], "window"):
            return unplayable_reason(game, seat, action[1], "window")
        if action.kind in ("oshax", "treasure") and action[1] not in p.hand:
            return f"card {action[1]} is not in your hand"
        if action.kind == "oshax":
            if card(action[1]).family != "oshax":
                return f"card {action[1]} is not an Oshax card"
            if action[2] not in [game.state.tiles[t].shape for t in game.state.supply.oshax]:
                return f"Oshax {action[2]} is not in the supply"
            if not fits(p, action[2]):
                return f"Oshax {action[2]} does not fit anywhere on your boat"
        if action.kind == "treasure":
            if card(action[1]).family != "treasure":
                return f"card {action[1]} is not a treasure card"
            return option_feasible(game, seat, action[1], action[2])
        return None

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        state = game.state
        p = state.players[seat]
        self.waiting = ()
        if action[0] == "pass":
            pass_turn(game, self._phase, seat)
            self.done = True
            return
        if action[0] == "play":
            play_card(game, seat, action[1])
            return
        p.remove_card(action[1])
        state.played.append(action[1])
        self.done = True
        if action[0] == "oshax":
            _, card_id, shape, colour = action
            tile = next(t for t in state.supply.oshax if state.tiles[t].shape == shape)
            state.supply.oshax.remove(tile)
            state.in_transit.append(tile)
            game.log("oshax_taken", seat=seat, card=card_id, tile=tile, colour=colour)
            game.push(PlaceFrame(seat, tile, colour, reward=True))
            return
        _, card_id, option = action
        opt = card(card_id).options[option]
        p.fish -= opt.get("extra_cost_fish", 0)
        take = opt["take"][0]
        game.log("treasure_card", seat=seat, card=card_id, option=option)
        game.push(TreasureFrame(seat, take["kind"], count=take["count"], required=1))

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        return {"decision": self.name}
