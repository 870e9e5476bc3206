"""Recording a game played by built-in bots as a replay log (benchmarks, tests, demos).

Pure (no Django). Matches between uploaded bots are recorded by ``workers/runner.py``; this
is the same log for games the engine plays by itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import Game, new_game
from engine.bots import make_bot
from engine.play import play_game


def play_recorded(
    mode: str,
    seats: int,
    seed: int,
    *,
    bots: Sequence[str] | str = "random",
    options: Mapping[str, Any] | None = None,
) -> tuple[Game, list[dict[str, Any]]]:
    """Play one game with built-in bots; return the finished game and its step log
    (``{"seat", "action", "seconds", "note"}``, the shape ``document_from_game`` takes)."""
    names = [bots] * seats if isinstance(bots, str) else list(bots)
    game = new_game(mode, seats, seed, options)
    agents = [make_bot(names[s], mode, s, seed) for s in range(seats)]
    steps: list[dict[str, Any]] = []

    def on_step(g: Game, seat: int, action: Any, seconds: float) -> None:
        steps.append({"seat": seat, "action": g.encode_action(action), "seconds": seconds,
                      "note": getattr(agents[seat], "last_note", None)})

    try:
        play_game(game, agents, on_step=on_step)
    finally:
        for agent in agents:
            agent.close()
    return game, steps


def header_for_bots(seats: int, bots: Sequence[str] | str = "random") -> dict[str, Any]:
    """A header ``players`` section naming built-in bots."""
    names = [bots] * seats if isinstance(bots, str) else list(bots)
    return {"players": [{"seat": s, "bot": names[s], "version": "builtin", "sha256": None}
                        for s in range(seats)]}
