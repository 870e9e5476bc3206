"""``SoloGame``: one player against the automated sister, on the standard game's flow.

Differences from the standard game (rulebook 000 solo rules, FACTS §7), each an override:
4 cats per field, Oshax in a shuffled numbered line, the solo draft (``draft.py``), the
sister's basket cards drawn after the rescue cards are revealed (her speed sets who goes
first), her turns interleaved with the player's rescue turns and played out when the player
passes or the fields empty, one solo colour card revealed at setup and at the end of days
1-4, and the result: the player's score (public lessons halved) against the sister's.
"""

from __future__ import annotations

from typing import Any

from ...cards import base_cards
from ...game import GameType
from ...rng import Rng
from ...scoring import score_table, sister_score
from ...version import ENGINE_VERSION
from ..standard.game import StandardGame
from ..standard.phases.rescue import RescuePhaseFrame
from ..standard.result import final_boats, table_facts
from ..standard.rules import Rules, standard_rules
from ..standard.setup import new_state
from ..standard.state import State
from .draft import SoloDraftFrame
from .sister import Sister, SisterTable, difficulties, difficulty_of, play_card, solo_rules

SEAT = 0


class SoloRescuePhaseFrame(RescuePhaseFrame):
    """The rescue phase; when it ends (the player passed or the fields are empty) the
    sister plays every card she has left before the unused rescue cards are discarded."""

    def finish(self, game: StandardGame) -> None:
        assert isinstance(game, SoloGame)
        game.sister_plays_all()
        super().finish(game)


class SoloGame(StandardGame):
    game_type = GameType(
        name="solo",
        min_seats=1,
        max_seats=1,
        simultaneous=False,
        hidden_information=True,
        description="Solo: one player against the automated sister, whose basket cards "
                    "remove tiles; she scores colour cards and her lessons on YOUR boat. "
                    "Option difficulty: easy (default), medium, hard, very_hard, expert.",
        options={"difficulty": difficulties()},
    )
    scoring_mode = "solo"

    # --- construction -------------------------------------------------------------------------
    @property
    def difficulty(self) -> str:
        return difficulty_of(self.options)

    def make_rules(self) -> Rules:
        return standard_rules().with_overrides(
            cats_per_player_per_field=solo_rules()["cats_per_field"])

    def make_state(self) -> State:
        state = new_state(1, self.seed, self.rules,
                          common_per_shape=solo_rules()["common_per_shape"])
        Rng(self.seed, "oshax_line").shuffle(state.supply.oshax)  # Oshax 1-6, fixed
        self.sister = Sister.setup(self.seed, self.difficulty)
        colour = self.sister.reveal_colour()
        self.log("sister_setup", difficulty=self.difficulty, lessons=list(self.sister.lessons),
                 colour_card=colour, oshax_line=list(state.supply.oshax))
        return state

    def resume_state(self, state: State, *, sister: Sister | None = None) -> State:
        """``resumed``'s state with the sister as a forward model sampled her."""
        if sister is None:
            raise ValueError("a resumed solo game needs its sister")
        self.sister = sister
        return state

    # --- the sister -----------------------------------------------------------------------------
    def _table(self) -> SisterTable:
        s = self.state
        return SisterTable(s.fields, s.supply, s.tiles, s.removed)

    def sister_plays_one(self) -> bool:
        """Her next card of the day, if any; returns whether she played."""
        card = self.sister.next_card()
        if card is None:
            return False
        for done in play_card(self._table(), base_cards()[card]):
            self.sister.actions_today.append({"card": card, **done})
            self.log("sister", card=card, **done)
        self.state_changed()
        return True

    def sister_plays_all(self) -> None:
        while self.sister_plays_one():
            pass

    def after_rescue_turn(self, seat: int) -> None:
        """One sister card after each rescue turn, while the player is still rescuing and
        cats remain (otherwise the phase ends and she plays out her cards)."""
        top = next((f for f in reversed(self.frames) if isinstance(f, RescuePhaseFrame)), None)
        if top is not None and seat not in top.passed and not self.state.fields.is_empty():
            self.sister_plays_one()

    def on_rescue_pass(self, seat: int) -> None:
        self.sister_plays_all()

    # --- the steps that differ ------------------------------------------------------------------
    def step_draft(self) -> None:
        self.push(SoloDraftFrame())

    def step_after_reveal(self) -> None:
        drawn = self.sister.draw_day()
        me = self.state.players[SEAT]
        first = self.sister.decide_order(me.speed)
        self.log("sister_cards", first_card=drawn[0] if drawn else None, count=len(drawn),
                 speed=self.sister.speed, player_speed=me.speed, sister_first=first)
        super().step_after_reveal()

    def step_rescue(self) -> None:
        if self.sister.first:
            self.sister_plays_one()
        self.push(SoloRescuePhaseFrame(self.state.turn_order))

    def step_end_of_day(self) -> None:
        super().step_end_of_day()
        self.sister.end_day()
        if self._day_ended_with_more_to_come:
            card = self.sister.reveal_colour()
            self.log("sister_colour", card=card, order=self.sister.colour_order)

    # --- views ------------------------------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        view = super().observation(seat)
        view["sister"] = self.sister.to_json(full=False)
        view["difficulty"] = self.difficulty
        return view

    def protocol_observation(self, seat: int) -> dict[str, Any]:
        view = super().protocol_observation(seat)
        view["sister"] = self.sister.to_json(full=False)
        view["difficulty"] = self.difficulty
        return view

    def spectator_view(self) -> dict[str, Any]:
        view = super().spectator_view()
        view["sister"] = self.sister.to_json(full=True)
        view["difficulty"] = self.difficulty
        return view

    def full_state(self) -> Any:
        view = super().full_state()
        view["sister"] = self.sister.to_json(full=True)
        view["difficulty"] = self.difficulty
        return view

    def result(self) -> dict[str, Any]:
        if not self.is_over():
            raise RuntimeError("the game is not over")
        if self._result is None:
            self._result = self._build_result()
        return self._result

    def _build_result(self) -> dict[str, Any]:
        facts = table_facts(self)
        # The sister takes part in the turn order (rulebook 000): lesson 119 "first player"
        # scores only if the player is ahead of her at the end.
        facts.players[0].turn_position = 1 if self.sister.first else 0
        sheet = score_table(facts)[0]
        sister = sister_score(facts.players[0], self.sister.colour_order, self.sister.lessons)
        margin = sheet["total"] - sister["total"]
        won = margin > 0  # a tie goes to the sister
        return {
            "mode": self.mode,
            "seats": 1,
            "seed": self.seed,
            "options": {"difficulty": self.difficulty},
            "engine_version": ENGINE_VERSION,
            "scores": [sheet["total"]],
            "ranks": [1 if won else 2],
            "winners": [0] if won else [],
            "breakdown": [sheet],
            "sister": {"total": sister["total"], "breakdown": sister},
            "margin": margin,
            "won": won,
            "difficulty": self.difficulty,
            "boats": final_boats(self),
            "state_hash": self.state_hash(),
        }
