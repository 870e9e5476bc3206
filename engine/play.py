"""The decision loop that drives a game with one agent per seat.

Used by the CLI, the benchmarks, the arena and (wrapped with the sandbox and
fault handling) the workers. An agent is anything with ``act(game, seat)``;
built-in agents are ``trusted`` and go through the fast ``apply_unchecked``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from .actions import Action
from .game import Game


class Agent(Protocol):
    """What the loop needs from a player. ``act`` returns an Action, its JSON
    form or the index of a legal action; it may set ``last_note`` (a short
    debug string stored in replays)."""

    name: str
    trusted: bool

    def act(self, game: Game, seat: int) -> Action | Mapping[str, Any] | int: ...

    def close(self) -> None: ...


StepHook = Callable[[Game, int, Action, float], None]


def play_game(
    game: Game,
    agents: Sequence[Agent],
    *,
    on_step: StepHook | None = None,
    max_steps: int = 100_000,
) -> Game:
    """Play until the game is over. ``on_step(game, seat, action, seconds)`` runs
    after every applied action (replay recording, progress)."""
    steps = 0
    while not game.is_over():
        pending = game.pending()
        if not pending:
            raise RuntimeError("the game is not over but no seat is pending")
        seat = pending[0]
        agent = agents[seat]
        started = time.perf_counter()
        choice = agent.act(game, seat)
        elapsed = time.perf_counter() - started
        if agent.trusted and isinstance(choice, Action):
            game.apply_unchecked(seat, choice)
            action = choice
        else:
            action = game.apply(seat, choice)
        if on_step is not None:
            on_step(game, seat, action, elapsed)
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"the game did not end within {max_steps} steps")
    return game
