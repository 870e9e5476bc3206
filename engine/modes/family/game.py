"""``FamilyGame``: the family variant (2-4 players) on the standard game's flow.

Each seat keeps 2 of 3 family lessons (151-168) once, at the start; then five days of
fill the fields (2 cats per player per field) and free rescue turns: take one cat from
either field and place it, or pass for the rest of the day. A cat on the map of its own
colour earns one common treasure (maps work "as usual", summary 002). The first player
moves to the end of the order each new day. No fish, discovery cards, baskets or Oshax.
Scored by ``engine.scoring`` (mode "family"); ties are broken by filled rooms.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, ClassVar

from ...actions import ActionCodec, ActionSpec
from ...cards import FAMILY_LESSON_IDS
from ...game import GameType
from ...scoring import score_table
from ...version import ENGINE_VERSION
from ..standard.game import StandardGame, Step
from ..standard.result import competition_ranks, final_boats, table_facts
from ..standard.rules import Rules, standard_rules
from ..standard.setup import new_state
from ..standard.state import State
from .frames import FamilyRescuePhaseFrame, KeepLessonsFrame

CODEC = ActionCodec([
    ActionSpec("keep", (("cards", "ints"),), "keep 2 of the 3 family lessons dealt to you"),
    ActionSpec("take", (("field", "str"), ("index", "int")),
               "take cat number `index` (0-based) of the 'left' or 'right' field, for free"),
    ActionSpec("place", (("cells", "cells"),), "place the tile you hold on these cells"),
    ActionSpec("take_treasure", (("shape", "str"),),
               "map reward: take a common treasure of this shape (then place it)"),
    ActionSpec("decline", (), "do not take the map reward"),
    ActionSpec("pass", (), "take no more cats today"),
])


@cache
def family_rules() -> dict[str, Any]:
    """The family numbers (lessons dealt and kept) from family.json."""
    raw = json.loads(resources.files(__package__).joinpath("family.json").read_text())
    raw.pop("_doc", None)
    return raw


class FamilyGame(StandardGame):
    game_type = GameType(
        name="family", min_seats=2, max_seats=4, simultaneous=True, hidden_information=True,
        description="Family variant: keep 2 of 3 family lessons, then take one free cat per "
                    "turn for 5 days; no fish, cards, baskets or Oshax (filled rooms break "
                    "ties).",
        options={},
    )
    codec = CODEC
    DAY_STEPS: ClassVar[tuple[Step, ...]] = (Step.FILL, Step.READ, Step.RESCUE, Step.END_OF_DAY)
    map_reward_pool = "common_any"  # summary 002: maps work "as usual" (a common treasure)
    scoring_mode = "family"

    def make_rules(self) -> Rules:
        return standard_rules().with_overrides(fish_per_day=0)

    def make_state(self) -> State:
        return new_state(self.seats, self.seed, self.rules, card_ids=FAMILY_LESSON_IDS,
                         with_oshax=False)

    # --- the steps that differ ------------------------------------------------------------------
    def step_read(self) -> None:
        """Day 1 only: deal the family lessons and let everybody keep 2."""
        if self.state.day != 1:
            return
        rules = family_rules()
        for _ in range(rules["lessons_dealt"]):
            for seat in self.state.turn_order:
                drawn = self.state.draw_card()
                if drawn is not None:
                    self.state.players[seat].add_card(drawn)
        self.log("lessons_dealt", hidden=True,
                 cards={str(p.seat): sorted(p.hand) for p in self.state.players})
        self.push(KeepLessonsFrame(rules["lessons_kept"]))

    def step_rescue(self) -> None:
        self.push(FamilyRescuePhaseFrame(self.state.turn_order))

    def step_end_of_day(self) -> None:
        super().step_end_of_day()
        if self._day_ended_with_more_to_come:
            order = self.state.turn_order
            self.state.turn_order = order[1:] + order[:1]
            self.log("turn_order", day=self.state.day, turn_order=list(self.state.turn_order))

    def step_final_anytime(self) -> None:
        """No anytime cards in the family variant."""

    # --- result ----------------------------------------------------------------------------------
    def scores(self) -> list[dict[str, Any]]:
        """Every seat's score sheet as the boats stand (final once the game is over)."""
        return score_table(table_facts(self))

    def result(self) -> dict[str, Any]:
        if not self.is_over():
            raise RuntimeError("the game is not over")
        sheets = self.scores()
        scores = [s["total"] for s in sheets]
        filled = [p.boat.filled_rooms() for p in self.state.players]
        ranks = competition_ranks(list(zip(scores, filled, strict=True)))
        return {
            "mode": self.mode,
            "seats": self.seats,
            "seed": self.seed,
            "options": dict(self.options),
            "engine_version": ENGINE_VERSION,
            "scores": scores,
            "ranks": ranks,
            "winners": [i for i, r in enumerate(ranks) if r == 1],
            "breakdown": sheets,
            "tiebreak": {"name": "filled_rooms", "values": filled},
            "lessons": [sorted(p.private_lessons) for p in self.state.players],
            "boats": final_boats(self),
            "turn_order": list(self.state.turn_order),
            "state_hash": self.state_hash(),
        }
