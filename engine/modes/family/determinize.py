"""Determinizing the family variant: the standard game's determinization (the table, the
tiles and the cards sampled alike) with the family's own frames: the lessons kept at the
start, and free turns taking cats in the rescue phase. The lessons face down on the table
are family lessons."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...rng import Rng
from ..standard.determinize import StandardDeterminizer
from ..standard.frames import Frame
from ..standard.phases.turns import TurnsFrame
from ..standard.restack import StandardStack
from .frames import FamilyRescuePhaseFrame, FamilyTurnFrame, KeepLessonsFrame
from .game import FamilyGame


class FamilyStack(StandardStack):
    rescue_phase = FamilyRescuePhaseFrame

    def single_frames(self) -> dict[str, Callable[[], None]]:
        return {**super().single_frames(), "keep_lessons": self.keep_lessons}

    def keep_lessons(self) -> None:
        """The seats the observation shows as done have kept lessons in secret: as many of
        the lessons dealt to them here."""
        keep = int(self.decision["keep"])
        players = self.game.state.players
        picks = {s: tuple(sorted(players[s].hand[:keep]))
                 for s, chosen in enumerate(self.decision["chosen"]) if chosen and s != self.seat}
        self.progress(KeepLessonsFrame.resumed(keep, picks))

    def rescue_turn(self, phase: TurnsFrame) -> Frame:
        return FamilyTurnFrame(phase, self.seat,  # type: ignore[arg-type]
                               taken=self.kind != "family_turn")


class FamilyDeterminizer(StandardDeterminizer):
    game_class = FamilyGame
    stack_class = FamilyStack
    table_lessons = ("family_lesson",)


def determinize_family(start: Mapping[str, Any], obs: Mapping[str, Any], rng: Rng) -> FamilyGame:
    return FamilyDeterminizer(start, obs, rng).game()  # type: ignore[return-value]
