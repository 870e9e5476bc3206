"""The decision API shared by every mode (standard, family, solo, duel).

A game is a state machine driven from outside: ``pending()`` names the seats
that must decide now (several in simultaneous phases), ``legal_actions(seat)``
lists what a seat may do, ``apply(seat, action)`` checks and applies bot input
(``apply_unchecked`` is the fast path for trusted callers such as built-in
bots and replays). ``observation(seat)`` is built in one place per mode and
holds only what that player may know; ``spectator_view()`` holds everything.
Every chance outcome and automatic step is appended to ``events``.
"""

from __future__ import annotations

import copy
import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .actions import Action, ActionCodec
from .errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from .rng import Rng
from .version import ENGINE_VERSION


@dataclass(frozen=True)
class GameType:
    """What a mode is, declared up front (as OpenSpiel does)."""

    name: str
    min_seats: int
    max_seats: int
    simultaneous: bool
    hidden_information: bool
    description: str
    options: Mapping[str, Any] = field(default_factory=dict)  # option -> allowed values


def canonical_json(value: Any) -> bytes:
    """The byte form hashed by ``state_hash``: sorted keys, no spaces."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


class Game(ABC):
    """Base class of every mode. Subclasses implement the abstract methods."""

    game_type: ClassVar[GameType]
    codec: ClassVar[ActionCodec]

    def __init__(self, seats: int, seed: int, options: Mapping[str, Any] | None = None) -> None:
        self.seats = seats
        self.seed = seed
        self.options = dict(options or {})
        self.history: list[tuple[int, Action]] = []
        self.events: list[dict[str, Any]] = []
        self.seat_steps: list[int] = [0] * seats  # decisions taken by each seat so far

    # --- configuration -----------------------------------------------------------------
    @property
    def mode(self) -> str:
        return self.game_type.name

    @property
    def config(self) -> dict[str, Any]:
        return {"mode": self.mode, "seats": self.seats, "seed": self.seed,
                "options": self.options, "engine_version": ENGINE_VERSION}

    # --- the decision API ----------------------------------------------------------------
    @abstractmethod
    def pending(self) -> tuple[int, ...]:
        """Seats that must decide now; empty once the game is over."""

    @abstractmethod
    def legal_actions(self, seat: int) -> Sequence[Action]:
        """The actions ``seat`` may take now (empty if it need not act)."""

    def asked_together(self) -> tuple[int, ...]:
        """The pending seats that may all be asked now, ``pending()[0]`` first.

        More than one only in a step where the seats choose in secret and independently
        (a draft pick, buying, laying rescue cards face down): there, until a seat's own
        turn comes, the other seats' answers change neither its observation nor its legal
        actions, so a runner may send it its question early and take its answer when its
        turn comes, with the same result as asking the seats one after another
        (tests/engine/test_asked_together.py checks this at every such step). The default:
        the first pending seat alone."""
        return self.pending()[:1]

    def seat_step(self, seat: int) -> int:
        """The ``step`` number a bot is sent: how many decisions ``seat`` has taken so far.

        It counts only the seat's own actions, which the seat knows anyway. The number of
        all actions would tell a seat what the table cannot see: how many other seats were
        asked in an anytime round (only holders of a playable card are), how many cards
        they bought or laid face down before a reveal."""
        return self.seat_steps[seat]

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> None:
        """Apply a legal action (no checks)."""

    @abstractmethod
    def observation(self, seat: int) -> dict[str, Any]:
        """JSON-serialisable; only what the player in ``seat`` may know."""

    def protocol_observation(self, seat: int) -> dict[str, Any]:
        """``observation(seat)`` as the bot protocol encodes it: the same keys in the same
        order, where a value may be an ``engine.jsontext.JSONText``, its compact JSON text
        built ahead (``workers.protocol.wire.ObservationEncoder`` sends the text as it is). Modes
        whose observation holds big parts that seldom change (boats) override this to build
        those texts from what they keep; the default is the observation itself."""
        return self.observation(seat)

    @abstractmethod
    def spectator_view(self) -> dict[str, Any]:
        """JSON-serialisable; everything, for replays and the viewer."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> dict[str, Any]:
        """Scores, breakdown, ranks, winners and final boats (see docs/engine.md)."""

    def illegal_reason(self, seat: int, action: Action) -> str | None:
        """Why ``action`` is illegal for ``seat`` now, or None. Modes override this
        with precise reasons; the default only checks membership."""
        if action in self.legal_actions(seat):
            return None
        return f"{self.codec.text(action)} is not a legal action now"

    def apply(self, seat: int, action: Action | Mapping[str, Any] | int) -> Action:
        """Checked apply for untrusted input. Returns the decoded action."""
        if self.is_over():
            raise GameOver("the game is over")
        if seat not in self.pending():
            raise NotYourTurn(f"seat {seat} is not due to act (pending: {list(self.pending())})")
        if isinstance(action, Action):
            decoded = action
        elif isinstance(action, bool):
            raise MalformedAction("an action is a JSON object or the index of a legal action")
        elif isinstance(action, int):
            legal = self.legal_actions(seat)
            if not 0 <= action < len(legal):
                raise IllegalAction(f"index {action} is out of range: {len(legal)} legal actions")
            decoded = legal[action]
        else:
            decoded = self.codec.decode(action)
        reason = self.illegal_reason(seat, decoded)
        if reason is not None:
            raise IllegalAction(reason)
        self.apply_unchecked(seat, decoded)
        return decoded

    def apply_unchecked(self, seat: int, action: Action) -> None:
        """Trusted fast path: built-in bots, replays, tests."""
        self.history.append((seat, action))
        self.seat_steps[seat] += 1
        self._apply(seat, action)

    def playout(self, rng: Rng) -> None:
        """Play uniformly random legal moves to the end of the game, as a search bot's
        rollout does (Ludii's ``playout()``): at each step the first pending seat takes
        ``legal_actions(seat)[rng.randbelow(len(legal))]``.

        The moves, the draws from ``rng``, ``history``, ``events`` and the final state are
        exactly those of that loop written out by the caller; modes may override this with a
        faster loop that keeps all of them the same (tests/engine/test_playout.py)."""
        while not self.is_over():
            seat = self.pending()[0]
            legal = self.legal_actions(seat)
            self.apply_unchecked(seat, legal[rng.randbelow(len(legal))])

    # --- helpers ---------------------------------------------------------------------------
    def encode_action(self, action: Action) -> dict[str, Any]:
        return self.codec.encode(action)

    def decode_action(self, obj: Any) -> Action:
        return self.codec.decode(obj)

    def action_text(self, action: Action) -> str:
        return self.codec.text(action)

    def log(self, event_type: str, **data: Any) -> None:
        """Record a chance outcome or automatic step (draws, reveals, sister moves)."""
        self.events.append({"step": len(self.history), "type": event_type, **data})

    def full_state(self) -> Any:
        """Everything that determines the future; hashed by ``state_hash``."""
        return self.spectator_view()

    def state_hash(self) -> str:
        return hashlib.sha256(canonical_json(self.full_state())).hexdigest()

    def clone(self) -> Game:
        return copy.deepcopy(self)
