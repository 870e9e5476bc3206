"""Training environments for every mode: PettingZoo (AEC, every seat an agent) and
Gymnasium (one seat against bots). Optional: they need ``requirements-env.txt`` (NumPy,
Gymnasium, PettingZoo); ``import engine`` never imports this package. docs/training.md
describes the observation layout, the actions and the rewards.
"""

from __future__ import annotations

from typing import Any


def aec_env(mode: str = "standard", seats: int | None = None, **options: Any):
    """A PettingZoo AEC environment (engine/env/aec.py). ``options``: the mode's options
    (e.g. ``difficulty="hard"`` in solo), ``reward="rank"|"score"``, ``render_mode``."""
    from .aec import IsleOfCatsEnv

    return IsleOfCatsEnv(mode=mode, seats=seats, **options)


def single_agent_env(mode: str = "duel", seats: int | None = None, **options: Any):
    """A Gymnasium environment for one seat against ``opponents`` (engine/env/single.py)."""
    from .single import SingleAgentEnv

    return SingleAgentEnv(mode=mode, seats=seats, **options)
