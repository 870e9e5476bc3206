"""Shared by the delta and patch tests: play a game in which seat 0 is a sandboxed bot that
rebuilds its observation from what it is sent and says, in each reply's debug note, how it
got it and the hash of what it rebuilt ("full <sha256>", "delta <sha256>", ...)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from engine import Game
from workers.agents import ProgramAgent


def digest(observation: dict[str, Any]) -> str:
    """The hash the test bots print: sha256 of the observation's JSON, keys sorted."""
    return hashlib.sha256(json.dumps(observation, sort_keys=True).encode()).hexdigest()


def rebuilt_notes(game: Game, agent: ProgramAgent, others: Sequence[Any]) -> list[str]:
    """Play ``game`` to its end with ``agent`` in seat 0 and ``others[seat]`` elsewhere;
    check at each of seat 0's decisions that the bot rebuilt exactly the engine's observation,
    and return how it got each one (the first word of its notes). Closes the agent."""
    agent.launch(game)
    agent.await_ready(game)
    hows: list[str] = []
    try:
        while not game.is_over():
            seat = game.pending()[0]
            if seat == 0:
                expected = digest(game.observation(0))
                action = agent.act(game, 0)
                assert agent.fault is None, agent.fault
                assert agent.last_note is not None
                how, rebuilt = agent.last_note.split()
                assert rebuilt == expected, f"decision {len(hows)}: rebuilt observation differs"
                hows.append(how)
            else:
                action = others[seat].act(game, seat)
            game.apply_unchecked(seat, action)
    finally:
        agent.close()
    return hows
