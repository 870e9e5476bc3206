"""The decision stack of a determinized standard game: the frames that ask one seat the
decision its observation shows, rebuilt from the phase and that decision.

Each frame comes from its own class's constructors (``resumed``, ``made``, the fields a
constructor takes for the progress it has made), never from fields written from outside.
What the observation does not tell takes the likeliest value: nobody has passed in a rescue
or rare-finds phase, and an anytime window comes before the next seat's turn. In a
simultaneous step (draft, buying, choosing rescue cards) the other seats start the step
again, their choices being hidden. Family and solo subclass ``StandardStack`` for the
frames they replace.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ...errors import DeterminizeError
from .frames import Frame
from .game import Step
from .phases.anytime import (
    AnytimeRoundFrame,
    DiscardLessonsFrame,
    DrawnCardsFrame,
    DrawToFieldsFrame,
    MoveCatsFrame,
    RemoveTreasuresFrame,
)
from .phases.buy import BuyFrame
from .phases.draft import DraftFrame
from .phases.lessons import LessonColourFrame
from .phases.rare_finds import RareFindsPhaseFrame, RareFindsTurnFrame
from .phases.rescue import ChooseRescueFrame, RescuePhaseFrame, RescueTurnFrame
from .phases.turns import TurnsFrame
from .placement import PlaceFrame, TreasureFrame
from .state import CAT, OSHAX, RARE

if TYPE_CHECKING:
    from .game import StandardGame

Decision = Mapping[str, Any]


def ints(values: Any) -> list[int]:
    return [int(v) for v in values]


def _drawn_tile(decision: Decision) -> int | None:
    tile = decision.get("tile")
    return int(tile["id"]) if tile else None


# The frames of anytime cards' effects, by the decision they ask, from that decision.
CARD_EFFECTS: dict[str, Callable[[int, Decision], Frame]] = {
    "buy_drawn": lambda seat, d: DrawnCardsFrame(seat),
    "move_cats": lambda seat, d: MoveCatsFrame(seat, int(d["limit"]), ints(d["moved"])),
    "draw_to_fields": lambda seat, d: DrawToFieldsFrame(seat, int(d["remaining"]),
                                                        _drawn_tile(d)),
    "discard_lessons": lambda seat, d: DiscardLessonsFrame(seat),
    "remove_treasures": lambda seat, d: RemoveTreasuresFrame(seat),
}

# The anytime window of each anytime step (``StandardGame``'s ``step_before_*``).
WINDOWS = {
    Step.BEFORE_FILL: "before_fill_fields", Step.BEFORE_DEAL: "before_deal_cards",
    Step.BEFORE_BUY: "before_buy_cards", Step.BEFORE_READ: "before_read_lessons",
    Step.BEFORE_CHOOSE: "before_choose_rescue_cards",
    Step.AFTER_REVEAL: "after_choose_rescue_cards", Step.FINAL_ANYTIME: "end_of_game",
}


class StandardStack:
    """Pushes onto ``game`` the frames that ask ``seat`` ``decision`` (``rebuild``)."""

    rescue_phase: ClassVar[type[TurnsFrame]] = RescuePhaseFrame

    def __init__(self, game: StandardGame, seat: int, decision: Decision) -> None:
        self.game = game
        self.seat = seat
        self.decision = decision
        self.kind: str = decision["decision"]

    def rebuild(self) -> None:
        build = self.single_frames().get(self.kind)
        if build is not None:
            build()
            return
        phases = {Step.RESCUE: self.rescue_phase, Step.RARE_FINDS: RareFindsPhaseFrame}
        phase = phases.get(self.game.step)  # type: ignore[arg-type]
        if self.kind == "anytime" or phase is None:
            self.window(phase)
        else:
            self.turn(phase)

    def single_frames(self) -> dict[str, Callable[[], None]]:
        """The decisions asked by one frame alone, and how each is rebuilt."""
        return {"draft": self.draft, "buy": self.buy, "choose_rescue": self.choose_rescue,
                "lesson_colour": self.lesson_colour}

    def push(self, frame: Frame) -> None:
        self.game.push(frame)

    def ask(self) -> None:
        """The top frame asks the seat, as the observation says."""
        self.game.frames[-1].resume_asking(self.seat)

    def progress(self, frame: Frame) -> None:
        """Push a frame that finds whom it asks by itself (a simultaneous step)."""
        self.push(frame)
        frame.progress(self.game)

    # --- the decisions of one frame -------------------------------------------------------
    def draft(self) -> None:
        d = self.decision
        self.push(DraftFrame.resumed(int(d["direction"]), int(d["keep"]), int(d["round"])))
        self.ask()

    def buy(self) -> None:
        self.progress(BuyFrame(self.game))

    def choose_rescue(self) -> None:
        self.progress(ChooseRescueFrame(self.game))

    def lesson_colour(self) -> None:
        """The seat's lesson first, then the others still awaiting a colour, dealt round the
        other seats (whose lessons they are is not shown)."""
        state, seat = self.game.state, self.seat
        card = int(self.decision["card"])
        owed = [(seat, card)]
        others = [s for s in state.turn_order if s != seat]
        for i, c in enumerate(c for c in state.public_lessons_pending if c != card):
            owed.append((others[i % len(others)] if others else seat, c))
        self.push(LessonColourFrame(owed))
        self.ask()

    # --- turn-taking phases and anytime windows -------------------------------------------
    def window(self, phase_class: type[TurnsFrame] | None) -> None:
        """An anytime round: in a turn-taking phase the one before the next seat's turn,
        elsewhere the step's own. It asks the seat, or the card the seat played in it asks
        the decision."""
        order = list(self.game.state.turn_order)
        seat = self.seat
        played = self.kind != "anytime"
        if phase_class is not None:
            current = order[(order.index(seat) + 1) % len(order)]
            phase = phase_class.resumed(order, current, "window")
            self.push(phase)
            round_order, window = [s for s in order if s != current], phase.window
        else:
            step = self.game.step
            assert step is not None
            round_order = order
            window = (None if played else self.decision.get("window")) or WINDOWS.get(
                step, step.value)
        self.push(AnytimeRoundFrame.resumed(round_order, window, seat, played=played))
        if played:
            self.card_played()

    def card_played(self) -> None:
        """What an anytime card played in a window asks next: its own frame, or the
        placement of the tile card 75 drew (and the map reward that placement may give)."""
        seat, kind = self.seat, self.kind
        effect = CARD_EFFECTS.get(kind)
        if effect is not None:
            self.push(effect(seat, self.decision))
        elif kind == "place":
            tile = self.decision["tile"]
            self.push(PlaceFrame(seat, int(tile["id"]), tile["colour"], reward=True,
                                 allow_anywhere_cards=True))
        elif kind == "take_treasure":
            self.push(PlaceFrame.made(seat))
            self.push(self.treasure())
        else:
            raise DeterminizeError(f"decision {kind!r} cannot be asked in phase "
                                   f"{self.game.step.value!r}")  # type: ignore[union-attr]
        self.ask()

    def turn(self, phase_class: type[TurnsFrame]) -> None:
        """The seat's turn in a turn-taking phase: the turn asks, or what the turn did."""
        phase = phase_class.resumed(list(self.game.state.turn_order), self.seat, "turn")
        self.push(phase)
        turns = {Step.RESCUE: self.rescue_turn, Step.RARE_FINDS: self.rare_finds_turn}
        turn = turns[self.game.step](phase)  # type: ignore[index]
        self.push(turn)
        if self.kind != turn.name:
            self.turn_action()
        self.ask()

    def rescue_turn(self, phase: TurnsFrame) -> Frame:
        kind = self.kind
        if kind == "rescue_turn":
            rescued = int(self.decision.get("rescued", 1))
        else:  # a card played from the turn, or the placement of the cat rescued
            rescued = 0 if kind in CARD_EFFECTS else 1
        return RescueTurnFrame(phase, self.seat, rescued)  # type: ignore[arg-type]

    def rare_finds_turn(self, phase: TurnsFrame) -> Frame:
        return RareFindsTurnFrame.resumed(phase, self.seat,  # type: ignore[arg-type]
                                          card_played=self.kind != "rare_finds_turn")

    def turn_action(self) -> None:
        """The frames above a turn that has acted: a card's effect, a treasure to take, or
        the tile to place."""
        kind = self.kind
        effect = CARD_EFFECTS.get(kind)
        if effect is not None:
            self.push(effect(self.seat, self.decision))
        elif kind == "take_treasure":
            self.map_reward_below()
            self.push(self.treasure())
        elif kind == "place":
            self.placement()
        else:
            raise DeterminizeError(f"unknown decision {kind!r}")

    def placement(self) -> None:
        """A cat or an Oshax placed straight from the turn; a treasure taken first."""
        seat = self.seat
        tile = self.decision["tile"]
        tile_id = int(tile["id"])
        kind = self.game.state.tiles[tile_id].kind
        if kind in (CAT, OSHAX):
            self.push(PlaceFrame(seat, tile_id, tile["colour"], reward=True))
            return
        self.map_reward_below()
        pool = "rare" if kind == RARE else "common_any"
        self.push(TreasureFrame(seat, pool, count=1, required=1, taken=1))
        self.push(PlaceFrame(seat, tile_id, None, reward=False))

    def map_reward_below(self) -> None:
        """A treasure outside rare finds is a map reward: the placement that earned it lies
        below."""
        if self.game.step is not Step.RARE_FINDS:
            self.push(PlaceFrame.made(self.seat))

    def treasure(self) -> TreasureFrame:
        d = self.decision
        remaining = int(d["remaining"])
        return TreasureFrame(self.seat, d["pool"], count=remaining,
                             required=remaining if d["must_take"] else 0)
