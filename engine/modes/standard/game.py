"""``StandardGame``: The Isle of Cats for 2-4 players, as a state machine over frames.

A day is a fixed list of steps (``DAY_STEPS``); each step either runs automatically (fill the
fields, fishing, end of day) or pushes a frame that asks for decisions (the draft, buying,
rescue turns, ...). ``_advance`` runs automatic work until some frame waits for a seat.
Family and solo subclass this class: they replace ``DAY_STEPS``, the step handlers, the
rules and the rescue hooks (``after_rescue_turn``, ``on_rescue_pass``: ``RescueHooks``),
and reuse the rest.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any, ClassVar

from ...actions import Action, PlacementActions
from ...copies import twin_of
from ...game import Game, GameType
from ...rng import Rng
from ...scoring import score_table
from .catalogue import CODEC
from .fields import fill_fields
from .frames import Frame
from .observation import full_state as full_state_of
from .observation import observation as observation_of
from .observation import spectator_view as spectator_view_of
from .phases.anytime import AnytimeRoundFrame
from .phases.buy import BuyFrame
from .phases.draft import DraftFrame, deal
from .phases.lessons import read_lessons
from .phases.rare_finds import RareFindsPhaseFrame
from .phases.rescue import ChooseRescueFrame, RescuePhaseFrame, RescueTurnFrame
from .playable import holds_playable
from .playout import plays_rescue_turns, rescue_turns
from .rescue_hooks import RescueHooks
from .result import build_result, table_facts
from .rules import Rules, standard_rules
from .setup import new_state
from .state import CAT, State

# What ``StandardGame.clone`` copies by hand; other attributes are deep-copied.
_CLONED = frozenset({"state", "frames", "history", "events", "seat_steps", "_legal"})


class Step(StrEnum):
    BEFORE_FILL = "anytime_before_fill"
    FILL = "fill_fields"
    FISHING = "fishing"
    BEFORE_DEAL = "anytime_before_deal"
    DRAFT = "draft"
    BEFORE_BUY = "anytime_before_buy"
    BUY = "buy"
    BEFORE_READ = "anytime_before_read"
    READ = "read_lessons"
    BEFORE_CHOOSE = "anytime_before_choose"
    CHOOSE = "choose_rescue"
    AFTER_REVEAL = "anytime_after_reveal"
    RESCUE = "rescue"
    RARE_FINDS = "rare_finds"
    END_OF_DAY = "end_of_day"
    FINAL_ANYTIME = "anytime_final"
    OVER = "over"


_OVER = Step.OVER  # a module constant: reading an enum member off its class costs more


class StandardGame(RescueHooks, Game):
    game_type = GameType(
        name="standard",
        min_seats=2,
        max_seats=4,
        simultaneous=True,
        hidden_information=True,
        description="The Isle of Cats, 2-4 players: five days of drafting, buying, lessons, "
                    "rescuing cats and rare finds; scored by rats, rooms, families, rare "
                    "treasures and lessons (fish break ties).",
        options={},
    )
    codec = CODEC
    DAY_STEPS: ClassVar[tuple[Step, ...]] = (
        Step.BEFORE_FILL, Step.FILL, Step.FISHING, Step.BEFORE_DEAL, Step.DRAFT,
        Step.BEFORE_BUY, Step.BUY, Step.BEFORE_READ, Step.READ, Step.BEFORE_CHOOSE,
        Step.CHOOSE, Step.AFTER_REVEAL, Step.RESCUE, Step.RARE_FINDS, Step.END_OF_DAY,
    )
    map_reward_pool = "common_any"  # what covering a map of one's colour gives
    scoring_mode = "standard"

    def __init__(self, seats: int, seed: int, options: dict[str, Any] | None = None) -> None:
        super().__init__(seats, seed, options)
        self.rules: Rules = self.make_rules()
        self.state: State = self.make_state()
        self.frames: list[Frame] = []
        self.step: Step | None = None
        self._legal: dict[tuple[int, int], Sequence[Action]] = {}
        self._result: dict[str, Any] | None = None
        self._day_ended_with_more_to_come = True
        self.state.day = 1
        self.log("setup", boats=[p.boat.layout.name for p in self.state.players],
                 turn_order=list(self.state.turn_order))
        self._advance()

    @classmethod
    def resumed(cls, seats: int, seed: int, options: dict[str, Any] | None, state: State,
                step: Step, **extras: Any) -> StandardGame:
        """A game at ``step`` of ``state``'s day, built without playing up to it: how a
        forward model (``determinize``) makes a game of a state it sampled. Nothing is logged
        and the decision stack is empty: the caller pushes the frames that ask the decision
        the seat was asked. ``extras``: what the mode keeps beside the state
        (``resume_state``). The attributes are set in ``__init__``'s order, so the game and
        its clones read them as quickly (engine/copies.py)."""
        game = cls.__new__(cls)
        Game.__init__(game, seats, seed, options)
        game.rules = game.make_rules()
        game.state = game.resume_state(state, **extras)
        game.frames = []
        game.step = step
        game._legal = {}
        game._result = None
        game._day_ended_with_more_to_come = step not in (Step.FINAL_ANYTIME, _OVER)
        return game

    # --- construction hooks (family / solo override) ------------------------------------------
    def make_rules(self) -> Rules:
        return standard_rules()

    def make_state(self) -> State:
        return new_state(self.seats, self.seed, self.rules)

    def resume_state(self, state: State) -> State:
        """``make_state`` for ``resumed``: the state given, and what the mode keeps beside it
        set from ``resumed``'s extras (solo: the sister)."""
        return state

    # --- the decision API -------------------------------------------------------------------------
    def pending(self) -> tuple[int, ...]:
        return self.frames[-1].waiting if self.frames else ()

    def asked_together(self) -> tuple[int, ...]:
        if not self.frames:
            return ()
        top = self.frames[-1]
        return top.waiting if top.simultaneous else top.waiting[:1]

    def legal_actions(self, seat: int) -> Sequence[Action]:
        if not self.frames:
            return ()
        top = self.frames[-1]
        if seat not in top.waiting:
            return ()
        return self.legal_actions_of(top, seat)

    def clone(self) -> StandardGame:
        """An independent copy (look-ahead, search): what ``copy.deepcopy`` gives, at a
        fraction of its cost. The state and the frames copy themselves (``State.clone``,
        ``Frame.clone``); the rules, the tile catalogue, the placed tiles and the actions are
        immutable and shared; ``events`` is a new list of the same event records (an event
        is never changed once logged). The cache of legal actions starts empty. Attributes
        a mode adds (the solo sister) go through ``copy.deepcopy``."""
        twin = twin_of(self)
        state = twin.state = self.state.clone()
        memo: dict[int, Any] = {id(self): twin, id(self.state): state}
        for old, new in zip(self.state.players, state.players, strict=True):
            memo[id(old)] = new
            memo[id(old.boat)] = new.boat
        memo[id(self.state.fields)] = state.fields
        memo[id(self.state.supply)] = state.supply
        twin.frames = [frame.clone(memo) for frame in self.frames]
        twin.history = self.history[:]
        twin.events = self.events[:]
        twin.seat_steps = self.seat_steps[:]
        twin._legal = {}
        for name, value in self.__dict__.items():
            if name in _CLONED or isinstance(value, (int, str, float, type(None), Rules)):
                continue
            setattr(twin, name, copy.deepcopy(value, memo))
        return twin

    def playout(self, rng: Rng) -> None:
        """``Game.playout``'s loop (the first pending seat plays ``legal[randbelow(len)]``)
        with the generic calls read off the frames directly: the seat is the top frame's
        first waiting seat, its legal actions come from the cache that ``progress`` fills
        (or from the frame's ``pick``, which may draw without building the list), and
        ``apply_unchecked`` and ``_apply`` are written out. The game is over exactly when
        no frame is left (``_advance`` returns with a waiting frame or at ``Step.OVER``).
        Rescue turns, half the decisions, are played by one loop of their own
        (``playout.rescue_turns``), which hands back to this one at anything rarer.
        The same draws, moves, history and events as the loop: tests/engine/test_playout.py."""
        frames = self.frames
        played = self.history.append
        seat_steps = self.seat_steps
        cache = self._legal
        cached = cache.get
        forget = cache.clear
        randbelow = rng.randbelow
        advance = self._advance
        while frames:
            top = frames[-1]
            if type(top) is RescueTurnFrame and plays_rescue_turns(self, top):
                rescue_turns(self, top, randbelow)
                continue
            seat = top.waiting[0]
            legal = cached((id(top), seat))
            if legal is None:
                action = top.pick(self, seat, randbelow)
            else:
                action = legal[randbelow(len(legal))]
            played((seat, action))
            seat_steps[seat] += 1
            forget()
            top.apply(self, seat, action)
            forget()
            advance()

    def legal_actions_of(self, frame: Frame, seat: int) -> Sequence[Action]:
        """``frame.legal`` cached until the state next changes."""
        key = (id(frame), seat)
        legal = self._legal.get(key)
        if legal is None:
            legal = self._legal[key] = frame.legal(self, seat)
        return legal

    def remember_legal(self, frame: Frame, seat: int, legal: Sequence[Action]) -> None:
        """Cache ``frame``'s legal actions of ``seat`` found while progressing, so that
        ``legal_actions`` does not build them again (valid until the state next changes)."""
        self._legal[(id(frame), seat)] = legal

    def state_changed(self) -> None:
        """Forget cached legal actions: call after editing ``state`` by hand (tests, tools)."""
        self._legal.clear()
        for frame in self.frames:
            frame.state_edited()

    def illegal_reason(self, seat: int, action: Action) -> str | None:
        """Membership in the (cached) legal actions first: it is what decides, and cheaper
        than the frame's precise reason (a placement's is a full legality check), which only
        an illegal action needs."""
        top = self.frames[-1]
        legal = self.legal_actions(seat)
        if action in legal:
            return None
        if action.kind in self.codec.specs:
            reason = top.reason(self, seat, action)
            if reason is not None:
                return reason
        if isinstance(legal, PlacementActions):
            kinds = sorted({"place", *(a.kind for a in legal.extra)})
        else:
            kinds = sorted({a.kind for a in legal})
        return (f"{self.codec.text(action)} is not legal now: the game asks seat {seat} for "
                f"'{top.name}' (legal kinds: {', '.join(kinds)})")

    def _apply(self, seat: int, action: Action) -> None:
        self._legal.clear()
        self.frames[-1].apply(self, seat, action)
        self._legal.clear()
        self._advance()

    def is_over(self) -> bool:
        return self.step is _OVER

    def observation(self, seat: int) -> dict[str, Any]:
        return observation_of(self, seat)

    def protocol_observation(self, seat: int) -> dict[str, Any]:
        return observation_of(self, seat, texts=True)

    def spectator_view(self) -> dict[str, Any]:
        return spectator_view_of(self)

    def full_state(self) -> Any:
        return full_state_of(self)

    def scores(self) -> list[dict[str, Any]]:
        """Every seat's score sheet as it stands (final once over), as family and duel give
        it: the replay viewer shows the score so far from it."""
        return score_table(table_facts(self))

    def result(self) -> dict[str, Any]:
        if not self.is_over():
            raise RuntimeError("the game is not over")
        if self._result is None:
            self._result = build_result(self)
        return self._result

    # --- the flow ---------------------------------------------------------------------------------
    def push(self, frame: Frame) -> None:
        self.frames.append(frame)
        self._legal.clear()

    def _advance(self) -> None:
        frames = self.frames
        while True:
            if frames:
                top = frames[-1]
                if not top.done:
                    top.progress(self)
                    if frames[-1] is not top:
                        continue
                if top.done:
                    frames.pop()
                    self._legal.clear()
                    continue
                if not top.waiting:
                    raise AssertionError(f"frame {top.name} neither waits nor finishes")
                return
            if self.step is _OVER:
                return
            self._next_step()

    def _next_step(self) -> None:
        steps = self.DAY_STEPS
        if self.step is None:
            nxt = steps[0]
        elif self.step is Step.END_OF_DAY:
            nxt = steps[0] if self._day_ended_with_more_to_come else Step.FINAL_ANYTIME
        elif self.step is Step.FINAL_ANYTIME:
            nxt = Step.OVER
        else:
            nxt = steps[steps.index(self.step) + 1]
        self.step = nxt
        self.run_step(nxt)

    def run_step(self, step: Step) -> None:
        type(self).step_runners[step](self)

    # What each step of a day runs, by step: the method of the game's class (family and solo
    # override some), looked up when the class is made (``__init_subclass__``). Every step
    # has its entry (tests/engine/standard/test_day.py), and a method renamed fails the
    # import, not a game at that step.
    step_runners: ClassVar[dict[Step, Callable[[StandardGame], None]]]

    @classmethod
    def _step_runners(cls) -> dict[Step, Callable[[StandardGame], None]]:
        return {
            Step.BEFORE_FILL: cls.step_before_fill,
            Step.FILL: cls.step_fill,
            Step.FISHING: cls.step_fishing,
            Step.BEFORE_DEAL: cls.step_before_deal,
            Step.DRAFT: cls.step_draft,
            Step.BEFORE_BUY: cls.step_before_buy,
            Step.BUY: cls.step_buy,
            Step.BEFORE_READ: cls.step_before_read,
            Step.READ: cls.step_read,
            Step.BEFORE_CHOOSE: cls.step_before_choose,
            Step.CHOOSE: cls.step_choose,
            Step.AFTER_REVEAL: cls.step_after_reveal,
            Step.RESCUE: cls.step_rescue,
            Step.RARE_FINDS: cls.step_rare_finds,
            Step.END_OF_DAY: cls.step_end_of_day,
            Step.FINAL_ANYTIME: cls.step_final_anytime,
            Step.OVER: cls.step_over,
        }

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.step_runners = cls._step_runners()

    def anytime_round(self, window: str) -> None:
        # skipped when nobody holds a playable anytime card: such a round ends at once,
        # asking nobody and logging nothing
        for p in self.state.players:
            if p.anytime_count and holds_playable(self, p):
                self.push(AnytimeRoundFrame(self.state.turn_order, window))
                return

    # --- the steps of a day -----------------------------------------------------------------------
    def step_before_fill(self) -> None:
        self.anytime_round("before_fill_fields")

    def step_fill(self) -> None:
        state = self.state
        fill_fields(state.bag, state.fields, state.supply.rare,
                    self.rules.cats_per_player_per_field * self.seats,
                    lambda t: state.tiles[t].kind == CAT, self.log)

    def step_fishing(self) -> None:
        for p in self.state.players:
            p.fish += self.rules.fish_per_day
        self.log("fishing", fish=self.rules.fish_per_day)

    def step_before_deal(self) -> None:
        self.anytime_round("before_deal_cards")

    def step_draft(self) -> None:
        deal(self, self.rules.cards_dealt)
        self.push(DraftFrame(self.rules.draft_direction(self.state.day), self.rules.draft_keep))

    def step_before_buy(self) -> None:
        self.anytime_round("before_buy_cards")

    def step_buy(self) -> None:
        self.push(BuyFrame(self))

    def step_before_read(self) -> None:
        self.anytime_round("before_read_lessons")

    def step_read(self) -> None:
        read_lessons(self)

    def step_before_choose(self) -> None:
        self.anytime_round("before_choose_rescue_cards")

    def step_choose(self) -> None:
        self.push(ChooseRescueFrame(self))

    def step_after_reveal(self) -> None:
        self.anytime_round("after_choose_rescue_cards")

    def step_rescue(self) -> None:
        self.push(RescuePhaseFrame(self.state.turn_order))

    def step_rare_finds(self) -> None:
        self.push(RareFindsPhaseFrame(self.state.turn_order))

    def step_end_of_day(self) -> None:
        state = self.state
        fled = state.fields.clear()
        state.removed.extend(fled)
        for p in state.players:
            p.baskets_used = 0
        self.log("end_of_day", day=state.day, fled=fled)
        self._day_ended_with_more_to_come = state.day < self.rules.days
        if self._day_ended_with_more_to_come:
            state.day += 1

    def step_final_anytime(self) -> None:
        self.anytime_round("end_of_game")

    def step_over(self) -> None:
        self.log("game_over")


StandardGame.step_runners = StandardGame._step_runners()
