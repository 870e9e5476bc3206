"""Turn-taking phases (rescue, rare finds; family's rescue too): round and round the turn
order, skipping seats that passed, with an anytime round for the other seats before each
turn. Subclasses say when the phase is over, which frame plays a turn, and what happens after
a turn and at the end (hooks that solo mode uses for the sister)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from ..frames import Frame
from ..playable import holds_playable
from .anytime import AnytimeRoundFrame

if TYPE_CHECKING:
    from ..game import StandardGame


def others_may_play(game: StandardGame, order: list[int], seat: int) -> bool:
    """Whether a seat of ``order`` other than ``seat`` holds an anytime card it may play:
    the anytime round before ``seat``'s turn asks them. A round where nobody does would end
    at once, asking nobody and logging nothing: it is skipped (most turns of most games).
    Also asked by the playout's rescue loop (``playout.rescue_turns``)."""
    players = game.state.players
    for s in order:
        if s != seat:
            p = players[s]
            if p.anytime_count and holds_playable(game, p):
                return True
    return False


class TurnsFrame(Frame):
    name = "turns"
    window = "before_turn"
    anytime_windows = True

    def __init__(self, order: list[int]) -> None:
        super().__init__()
        self.order = list(order)
        self.passed: list[int] = []
        self.current: int | None = None
        self.stage = "next"

    @classmethod
    def resumed(cls, order: list[int], current: int, stage: str) -> Self:
        """The phase at ``stage`` of ``current``'s turn: ``"window"``, the anytime round
        before it running, or ``"turn"``, its turn frame running (a forward model rebuilds
        the phase so, from a decision asked in it; nobody has passed, as far as it knows)."""
        frame = cls(order)
        frame.current = current
        frame.stage = stage
        return frame

    # --- to override -------------------------------------------------------------------------
    def over(self, game: StandardGame) -> bool:
        return len(self.passed) == len(self.order)

    def turn_frame(self, game: StandardGame, seat: int) -> Frame:
        raise NotImplementedError

    def after_turn(self, game: StandardGame, seat: int) -> None:
        """Runs after every turn (pass included)."""

    def finish(self, game: StandardGame) -> None:
        """Runs once when the phase is over."""

    def pass_at_once(self, game: StandardGame, seat: int) -> bool:
        """Whether ``seat``'s turn is a pass with nothing to decide, played here, with the
        events its turn frame would log, instead of by a turn frame pushed, progressed and
        popped (most rare-finds turns). Never, by default."""
        return False

    # --- the loop ----------------------------------------------------------------------------
    def _next_seat(self) -> int:
        order, passed = self.order, self.passed
        start = 0 if self.current is None else order.index(self.current) + 1
        n = len(order)
        if not passed:  # (the first round: nobody is out yet)
            return order[start] if start < n else order[0]
        for k in range(start, start + n):
            seat = order[k % n]
            if seat not in passed:
                return seat
        raise AssertionError("no seat left to play")  # pragma: no cover - over() guards

    def progress(self, game: StandardGame) -> None:
        while True:
            if self.stage == "next":
                if self.over(game):
                    self.finish(game)
                    self.done = True
                    self.waiting = ()
                    return
                self.current = self._next_seat()
                self.stage = "window"
                current = self.current
                if self.anytime_windows and others_may_play(game, self.order, current):
                    others = [s for s in self.order if s != current]
                    game.push(AnytimeRoundFrame(others, self.window))
                    return
            if self.stage == "window":
                self.stage = "turn"
                if not self.pass_at_once(game, self.current):  # type: ignore[arg-type]
                    game.push(self.turn_frame(game, self.current))  # type: ignore[arg-type]
                    return
            if self.stage == "turn":
                self.after_turn(game, self.current)  # type: ignore[arg-type]
                self.stage = "next"

    def describe(self, game: StandardGame, seat: int) -> dict[str, Any]:
        return {"decision": self.name, "current": self.current}
