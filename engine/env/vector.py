"""Many games at once: Gymnasium's vector environment over ``SingleAgentEnv``.

``vector_env(mode, num_envs, ...)`` plays ``num_envs`` games side by side, each one seat
against bots, and steps them together: observations come as arrays with a first axis of
``num_envs`` (``observation`` and ``action_mask``), ``step`` takes one action id per game.
A finished game is reset within the same step (Gymnasium's ``SAME_STEP`` autoreset): what
``step`` returns is always a state where you must act, the finished game's last observation
and result are in ``info["final_obs"]`` and ``info["final_info"]``, so a training loop never
sees an all-zero mask. Infos are flat, to stack: ``seat`` and ``illegal`` at every step and, at
a game's end, ``score``, ``opponent_best`` (the best other score) and ``won`` of your seat (the
dict observation and the whole result stay in the single environment's info).
``action_masks()`` stacks every game's mask (``num_envs`` x the mode's number of action ids),
as Stable-Baselines3's ``MaskablePPO`` asks of a vector env.

``asynchronous=True`` runs each game in its own process (``AsyncVectorEnv``), to use more
than one core; the default keeps them all in this process.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

from .action_ids import MaskLengthError, action_ids
from .single import SingleAgentEnv


class FlatInfo(gym.Wrapper):
    """A ``SingleAgentEnv`` whose infos hold numbers only (see the module docstring)."""

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        return obs, self._flat(info)

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, reward, terminated, truncated, self._flat(info)

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()

    def _flat(self, info: dict[str, Any]) -> dict[str, Any]:
        seat = self.env.unwrapped.seat
        out = {"seat": seat, "illegal": bool(info.get("illegal", False))}
        result = info.get("result")
        if result is not None:
            scores = result["scores"]
            others = [s for k, s in enumerate(scores) if k != seat]
            out.update(score=float(scores[seat]),
                       opponent_best=float(max(others)) if others else float("nan"),
                       won=seat in result.get("winners", ()) or bool(result.get("won")))
        return out


class _Masks:
    """``action_masks()`` and ``mode`` for both kinds of vector env."""

    mode: str
    num_envs: int

    def action_masks(self) -> np.ndarray:
        return np.stack(self.call("action_masks"))  # type: ignore[attr-defined]

    def check_actions(self, actions: Any) -> np.ndarray:
        """``actions`` as an int array of one id per game; a clear error otherwise."""
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise MaskLengthError(f"{array.shape} actions given: a vector of {self.num_envs} "
                                  "games takes one action id per game")
        return array.astype(np.int64)


class SyncGames(_Masks, SyncVectorEnv):
    def step(self, actions: Any):
        return super().step(self.check_actions(actions))


class AsyncGames(_Masks, AsyncVectorEnv):
    def step(self, actions: Any):
        return super().step(self.check_actions(actions))


def vector_env(mode: str = "duel", num_envs: int = 8, *, asynchronous: bool = False,
               **kwargs: Any) -> SyncGames | AsyncGames:
    """``num_envs`` games of ``SingleAgentEnv(mode=mode, **kwargs)`` stepped together (see
    the module docstring). ``reset(seed=s)`` seeds game ``k`` with ``s + k``."""
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")
    SingleAgentEnv(mode=mode, **kwargs).close()  # a bad configuration fails here, once

    def make() -> FlatInfo:
        return FlatInfo(SingleAgentEnv(mode=mode, **kwargs))

    cls = AsyncGames if asynchronous else SyncGames
    env = cls([make] * num_envs, autoreset_mode=AutoresetMode.SAME_STEP)
    env.mode = mode
    env.action_size = action_ids(mode).size
    return env
