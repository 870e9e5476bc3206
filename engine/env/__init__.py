"""Training environments for every mode: PettingZoo (AEC, every seat an agent), Gymnasium
(one seat against bots) and a vector of Gymnasium games stepped together. Optional: they need
``requirements-env.txt`` (NumPy, Gymnasium, PettingZoo); ``import engine`` never imports this
package. Actions are the mode's fixed action ids (engine/env/action_ids.py). docs/training.md
describes the observation layout, the action ids and the rewards.
"""

from __future__ import annotations

from typing import Any


def aec_env(mode: str = "standard", seats: int | None = None, **options: Any):
    """A PettingZoo AEC environment (engine/env/aec.py). ``options``: the mode's options
    (e.g. ``difficulty="hard"`` in solo), ``reward="rank"|"score"``, ``render_mode``."""
    from .aec import IsleOfCatsEnv  # noqa: PLC0415 - PettingZoo, an optional package

    return IsleOfCatsEnv(mode=mode, seats=seats, **options)


def single_agent_env(mode: str = "duel", seats: int | None = None, **options: Any):
    """A Gymnasium environment for one seat against ``opponents`` (engine/env/single.py)."""
    from .single import SingleAgentEnv  # noqa: PLC0415 - Gymnasium, an optional package

    return SingleAgentEnv(mode=mode, seats=seats, **options)


def vector_env(mode: str = "duel", num_envs: int = 8, **options: Any):
    """``num_envs`` Gymnasium games stepped together (engine/env/vector.py)."""
    from .vector import vector_env as make  # noqa: PLC0415 - Gymnasium, optional

    return make(mode=mode, num_envs=num_envs, **options)
