"""Phase 2a, the draft: everybody keeps 2 cards of the pile in front of them and passes the
rest, simultaneously, until the piles are gone (7 cards: keep 2, 2, 2, then the last one).

A pile of ``keep`` cards or fewer is kept without a decision, so a short deck (it is never
reshuffled) only shortens the draft. Picks stay hidden in the frame until everybody chose.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ....actions import Action
from ..frames import Frame, PickActions, without

if TYPE_CHECKING:
    from ..game import StandardGame


_KEEP_ACTIONS: dict[tuple[int, ...], Action] = {}  # actions are immutable: built once


@cache
def _positions(n: int, keep: int) -> tuple[tuple[int, ...], ...]:
    """The positions in a sorted pile of ``n`` cards of every pick of ``keep`` of them, in
    the order of ``legal`` (``combinations``: lexicographic). A draft has a few sizes."""
    return tuple(combinations(range(n), keep))


def _keep_action(pick: tuple[int, ...]) -> Action:
    action = _KEEP_ACTIONS[pick] = Action("keep", pick)
    return action


class KeepFromPileFrame(Frame):
    """A decision to keep exactly ``self.keep`` cards of one's draft pile (the standard and
    the solo drafts share it, so bots see one ``keep`` decision in both)."""

    name = "draft"
    keep: int

    def legal(self, game: StandardGame, seat: int) -> Sequence[Action]:
        if seat not in self.waiting:
            return ()
        pile = sorted(game.state.players[seat].draft_pile)
        kept = _KEEP_ACTIONS
        return PickActions([kept.get(pick) or _keep_action(pick)
                            for pick in combinations(pile, self.keep)])

    def pick(self, game: StandardGame, seat: int, randbelow: Callable[[int], int]) -> Action:
        """The ``i``-th pick of ``legal`` (combinations in lexicographic order) read from the
        positions of every pick of ``keep`` cards of ``n`` (``_positions``), without listing
        the picks' actions: the same draw, the same pick."""
        pile = sorted(game.state.players[seat].draft_pile)
        positions = _positions(len(pile), self.keep)
        pick = tuple([pile[j] for j in positions[randbelow(len(positions))]])
        return _KEEP_ACTIONS.get(pick) or _keep_action(pick)

    def reason(self, game: StandardGame, seat: int, action: Action) -> str | None:
        if action.kind != "keep":
            return None
        cards = action[1]
        pile = game.state.players[seat].draft_pile
        if len(cards) != self.keep or len(set(cards)) != len(cards):
            return f"keep exactly {self.keep} different cards of your pile"
        missing = [c for c in cards if c not in pile]
        if missing:
            return f"card {missing[0]} is not in your draft pile {sorted(pile)}"
        return None


class DraftFrame(KeepFromPileFrame):
    # Everybody with a pile picks at once; who has picked already is not shown (pending
    # names only the observer), so a pick never shows before everybody has picked.
    public_waiting = False
    simultaneous = True

    def __init__(self, direction: int, keep: int) -> None:
        super().__init__()
        self.direction = direction
        self.keep = keep
        self.round = 1
        self.picks: dict[int, tuple[int, ...]] = {}

    @classmethod
    def resumed(cls, direction: int, keep: int, draft_round: int) -> DraftFrame:
        """The draft in ``draft_round`` before anybody has picked (a forward model puts the
        other seats back to where the round began, their picks being hidden)."""
        frame = cls(direction, keep)
        frame.round = draft_round
        return frame

    # set by ``apply``: the seats still waiting are exactly the ones ``progress`` would find
    # (a pick only records the seat's choice; no pile changes before everybody has picked)
    _just_picked = False

    def progress(self, game: StandardGame) -> None:
        if self._just_picked:
            self._just_picked = False
            if self.waiting:  # the others still to pick: nothing else to look at
                return
        players = game.state.players
        keep, picks = self.keep, self.picks
        while True:
            need = []
            left = False  # whether any pile is left (loops: no comprehension per pick)
            for p in players:
                pile = p.draft_pile
                if pile:
                    left = True
                    if len(pile) > keep and p.seat not in picks:
                        need.append(p.seat)
            if need:
                self.waiting = tuple(need)
                return
            if not left:
                self.done = True
                self.waiting = ()
                return
            self._pass_piles(game)

    def _pass_piles(self, game: StandardGame) -> None:
        players = game.state.players
        remainders = []
        for p in players:
            chosen = self.picks.get(p.seat)
            if chosen is None:  # (a pile of ``keep`` cards or fewer: all of it is kept)
                chosen = tuple(p.draft_pile)
            for c in chosen:
                p.draft_pile.remove(c)
                p.kept.append(c)
            remainders.append(p.draft_pile)
        n = len(players)
        for seat, pile in enumerate(remainders):
            players[(seat + self.direction) % n].draft_pile = pile
        game.log("draft_passed", round=self.round, direction=self.direction)
        self.picks.clear()
        self.round += 1

    def state_edited(self) -> None:
        self._just_picked = False  # piles edited by hand: ``progress`` looks at them again

    def apply(self, game: StandardGame, seat: int, action: Action) -> None:
        self.picks[seat] = tuple(sorted(action[1]))
        self.waiting = without(self.waiting, seat)
        self._just_picked = True

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        out: dict[str, Any] = {"decision": self.name, "round": self.round, "keep": self.keep,
                               "direction": self.direction}
        if seat in self.picks:
            out["picked"] = list(self.picks[seat])
        return out

    def to_state(self) -> dict[str, Any]:
        out = super().to_state()
        out["picks"] = {str(s): list(p) for s, p in sorted(self.picks.items())}
        return out


def deal(game: StandardGame, count: int) -> None:
    """Deal ``count`` cards to each player, one at a time in turn order (fewer if the deck
    runs out: it is never reshuffled)."""
    state = game.state
    for _ in range(count):
        for seat in state.turn_order:
            drawn = state.draw_card()
            if drawn is None:
                break
            state.players[seat].draft_pile.append(drawn)
    game.log("dealt", piles={str(p.seat): sorted(p.draft_pile) for p in state.players},
             hidden=True)
