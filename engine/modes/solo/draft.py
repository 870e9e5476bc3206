"""The solo draft (rulebook 000, solo phase 2a): draw 5 keep 3, draw 5 keep 3, then one
more card blind, so the player has 7 cards to buy.

The numbers come from solo.json (``draft_rounds``, ``blind_extra_cards``). The frame is
named "draft" and has ``keep`` like the standard draft, so bots written for the standard
game play it unchanged. A short deck (never reshuffled) shortens the draft; a pile of
``keep`` cards or fewer is kept without a decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...actions import Action
from ..standard.phases.draft import KeepFromPileFrame
from .sister import solo_rules

if TYPE_CHECKING:
    from ..standard.game import StandardGame

SEAT = 0


class SoloDraftFrame(KeepFromPileFrame):

    def __init__(self) -> None:
        super().__init__()
        self.rounds = [(r["draw"], r["keep"]) for r in solo_rules()["draft_rounds"]]
        self.round = 0  # rounds dealt so far
        self.keep = self.rounds[0][1]

    @classmethod
    def resumed(cls, draft_round: int, keep: int) -> SoloDraftFrame:
        """The draft asking to keep ``keep`` cards of round ``draft_round``'s pile (a
        forward model's rebuilt stack)."""
        frame = cls()
        frame.round = draft_round
        frame.keep = keep
        return frame

    def progress(self, game: StandardGame) -> None:
        state = game.state
        me = state.players[SEAT]
        while True:
            if me.draft_pile and len(me.draft_pile) > self.keep:
                self.waiting = (SEAT,)
                return
            if me.draft_pile:  # a short pile is kept whole
                self._keep(game, tuple(me.draft_pile))
            if self.round == len(self.rounds):
                extra = [c for c in (state.draw_card()
                                     for _ in range(solo_rules()["blind_extra_cards"]))
                         if c is not None]
                me.kept.extend(extra)
                game.log("draft_blind", cards=extra, hidden=True)
                self.done = True
                self.waiting = ()
                return
            draw, self.keep = self.rounds[self.round]
            self.round += 1
            me.draft_pile = [c for c in (state.draw_card() for _ in range(draw)) if c is not None]
            game.log("draft_drawn", round=self.round, cards=sorted(me.draft_pile), hidden=True)
            if not me.draft_pile:
                continue

    def _keep(self, game: StandardGame, cards: tuple[int, ...]) -> None:
        me = game.state.players[SEAT]
        for c in cards:
            me.draft_pile.remove(c)
            me.kept.append(c)
        game.state.discard.extend(me.draft_pile)
        game.log("draft_kept", round=self.round, kept=sorted(cards),
                 discarded=sorted(me.draft_pile), hidden=True)
        me.draft_pile = []

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        self._keep(game, tuple(sorted(action[1])))
        self.waiting = ()

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        return {"decision": self.name, "round": self.round, "keep": self.keep,
                "drawn": len(game.state.players[seat].draft_pile)}
