"""Phase 2b, buying: simultaneously, each seat pays for any of its kept cards, one ``buy``
at a time, and says ``done``; gain-fish anytime cards held since before the step may be
played in between, so their fish pay for later purchases. Unbought cards are discarded
face down. Nobody sees another seat's purchases before everybody is done.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ....actions import Action
from ..frames import Frame
from ..observation import public_snapshot
from ..state import card
from .anytime import is_playable, pay_and_take, play_card, playable_cards, unplayable_reason

if TYPE_CHECKING:
    from ..game import StandardGame


class BuyFrame(Frame):
    name = "buy"

    def __init__(self, game: StandardGame) -> None:
        super().__init__()
        self.finished: list[int] = []
        self.snapshot = public_snapshot(game)  # what others see until everybody is done

    def _options(self, game: StandardGame, seat: int) -> list[Action]:
        p = game.state.players[seat]
        out = [Action("buy", c) for c in sorted(p.kept) if (card(c).cost or 0) <= p.fish]
        out.extend(Action("play", c) for c in playable_cards(game, seat, "buy"))
        return out

    def progress(self, game: StandardGame) -> None:
        waiting = []
        for p in game.state.players:
            if p.seat in self.finished:
                continue
            if not self._options(game, p.seat):
                self.finished.append(p.seat)  # nothing to decide: done without asking
                continue
            waiting.append(p.seat)
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

    def legal(self, game: StandardGame, seat: int) -> Sequence[Action]:
        if seat not in self.waiting:
            return ()
        return [*self._options(game, seat), Action("done")]

    def reason(self, game: StandardGame, seat: int, action: Action) -> str | None:
        from .anytime import buy_reason

        if action.kind == "buy":
            return buy_reason(game.state.players[seat], action[1], "kept")
        if action.kind == "play" and not is_playable(game, seat, action[1], "buy"):
            return unplayable_reason(game, seat, action[1], "buy")
        return None

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        p = game.state.players[seat]
        if action.kind == "buy":
            pay_and_take(p, action[1], p.kept)
            p.bought_now.append(action[1])
        elif action.kind == "play":
            play_card(game, seat, action[1])
        else:
            self.finished.append(seat)
            self.waiting = tuple(s for s in self.waiting if s != seat)

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        return {"decision": self.name, "done": seat in self.finished}
