"""Phase 2b, buying: simultaneously, each seat pays for any of its kept cards, one ``buy``
at a time, and says ``done``; gain-fish anytime cards held since before the step may be
played in between, so their fish pay for later purchases. Unbought cards are discarded
face down. Nobody sees another seat's purchases before everybody is done.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ....actions import Action
from ....cards import base_cards
from ..frames import Frame, without
from ..observation import public_snapshot
from ..playable import is_playable, play_action, play_card, playable_cards, unplayable_reason
from .anytime import buy_reason, pay_and_take

if TYPE_CHECKING:
    from ..game import StandardGame


_DONE = Action("done")
_COST = {i: c.cost or 0 for i, c in base_cards().items()}  # card -> its price in fish
_BUY: dict[int, Action] = {}  # card -> its buy action (actions are immutable: built once)


def _buy(card_id: int) -> Action:
    action = _BUY[card_id] = Action("buy", card_id)
    return action


class BuyFrame(Frame):
    name = "buy"
    public_waiting = False  # who is asked shows who can afford a kept card
    simultaneous = True

    def __init__(self, game: StandardGame) -> None:
        super().__init__()
        self.finished: list[int] = []
        self.snapshot = public_snapshot(game)  # what others see until everybody is done
        self._recheck: tuple[int, ...] | None = None  # seats whose options may have changed

    def _options(self, game: StandardGame, seat: int) -> list[Action]:
        p = game.state.players[seat]
        fish = p.fish
        out = []
        for c in sorted(p.kept):  # a loop: asked after every purchase, of two or three cards
            if _COST[c] <= fish:
                out.append(_BUY.get(c) or _buy(c))
        if p.anytime_count:  # (most seats hold none: no generator for nothing)
            out.extend(play_action(c) for c in playable_cards(game, seat, "buy"))
        return out

    def progress(self, game: StandardGame) -> None:
        # A purchase or a gain-fish card changes only the acting seat's fish, hand and kept
        # cards, so only that seat's options are looked at again (the first pass looks at
        # everybody). The options found are the seat's legal actions, kept in the game's
        # cache so that ``legal`` does not build them a second time.
        recheck = self._recheck
        if recheck:
            # after one seat's action (every call but the first): that seat's options alone,
            # the others waiting as they were
            seat = recheck[0]
            self._recheck = ()
            if seat not in self.finished:
                options = self._options(game, seat)
                if options:
                    options.append(_DONE)  # (a new list: ``_options`` builds one per call)
                    game.remember_legal(self, seat, options)
                    return
                self.finished.append(seat)  # nothing left to decide: done without asking
                self.waiting = without(self.waiting, seat)
            if self.waiting:
                return
        waiting = []
        for p in game.state.players:
            seat = p.seat
            if seat in self.finished:
                continue
            if recheck is None or seat in recheck:
                options = self._options(game, seat)
                if not options:
                    self.finished.append(seat)  # nothing to decide: done without asking
                    continue
                options.append(_DONE)
                game.remember_legal(self, seat, options)
            waiting.append(seat)
        self._recheck = ()
        if waiting:
            self.waiting = tuple(waiting)
            return
        for p in game.state.players:
            game.state.discard.extend(p.kept)
            game.log("buy_done", seat=p.seat, bought=sorted(p.bought_now), hidden=True)
            p.kept.clear()
            p.bought_now.clear()
        self.done = True
        self.waiting = ()

    def state_edited(self) -> None:
        self._recheck = None

    def legal(self, game: StandardGame, seat: int) -> Sequence[Action]:
        if seat not in self.waiting:
            return ()
        return [*self._options(game, seat), _DONE]

    def reason(self, game: StandardGame, seat: int, action: Action) -> str | None:
        if action.kind == "buy":
            return buy_reason(game.state.players[seat], action[1], "kept")
        if action.kind == "play" and not is_playable(game, seat, action[1], "buy"):
            return unplayable_reason(game, seat, action[1], "buy")
        return None

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        p = game.state.players[seat]
        self._recheck = (seat,)
        if action[0] == "buy":
            pay_and_take(p, action[1], p.kept)
            p.bought_now.append(action[1])
        elif action[0] == "play":
            play_card(game, seat, action[1])
        else:
            self.finished.append(seat)
            self.waiting = without(self.waiting, seat)

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        return {"decision": self.name, "done": seat in self.finished}
