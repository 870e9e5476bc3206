"""A Gymnasium single-agent environment: you play one seat, opponents play the others.

Opponents are built-in bots by name (``"random"``, ``"greedy"``) or factories
``factory(mode, seat, seed) -> agent`` for anything with the engine's agent interface
(``act(game, seat)``, ``close()``), such as a bot program in the workers' sandbox
(docs/training.md shows how).

The observation and the action are those of the AEC environment (engine/env/aec.py): a dict
of the flat vector and the action mask, and a fixed action id (engine/env/action_ids.py).
``action_masks()`` returns the current mask as a bool vector (the method Stable-Baselines3's
``MaskablePPO`` calls). Your seat is
``seat`` or, with ``seat="rotate"``, drawn at each reset from the episode's seed. Opponents
act inside ``step`` until it is your turn again or the game ends; the reward comes at the end. An
action outside the mask is played as the arena plays a faulty bot's turn, the first legal
action, and ``info["illegal"]`` says so (``illegal="raise"`` raises instead). An id outside
the action space always raises ``UnknownActionId``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from ..actions import Action
from ..bots import builtin_names, is_builtin_bot, make_bot
from ..errors import ConfigError
from ..modes import mode_class, new_game
from .action_ids import IllegalActionId, UnknownActionId, action_ids
from .aec import (
    REWARDS,
    encode_observation,
    final_rewards,
    observation_space,
)
from .encoding import encoder

ILLEGAL = ("default", "raise")

OpponentFactory = Callable[[str, int, int], Any]


class SingleAgentEnv(gym.Env):
    """See the module docstring. Build it with ``engine.env.single_agent_env``."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, mode: str = "duel", seats: int | None = None,
                 opponents: Sequence[str | OpponentFactory] = ("random",),
                 seat: int | str = 0, reward: str = "rank", illegal: str = "default",
                 render_mode: str | None = None, **options: Any) -> None:
        game_type = mode_class(mode).game_type
        seats = game_type.min_seats if seats is None else seats
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {ILLEGAL}, not {illegal!r}")
        others = seats - 1
        opponents = list(opponents)
        if others and len(opponents) == 1:
            opponents = opponents * others
        if len(opponents) != others:
            raise ConfigError(f"{len(opponents)} opponent(s) given for {others} other seat(s)")
        for o in opponents:
            if isinstance(o, str) and not is_builtin_bot(o):
                raise ConfigError(f"unknown built-in bot {o!r} ({builtin_names()}); "
                                  "pass a factory for a bot program")
        if seat != "rotate" and not (isinstance(seat, int) and 0 <= seat < seats):
            raise ConfigError(f"seat must be 0..{seats - 1} or 'rotate', not {seat!r}")
        new_game(mode, seats=seats, seed=0, options=options)  # fails early on a bad config
        self.mode, self.seats, self.options = mode, seats, options
        self.opponents, self.seat_choice, self.reward_kind = opponents, seat, reward
        self.illegal = illegal
        self.render_mode = render_mode
        self._encoder = encoder(mode)
        self.action_ids = action_ids(mode)
        self.observation_space = observation_space(self._encoder.size, self.action_ids.size)
        self.action_space = gym.spaces.Discrete(self.action_ids.size)
        self._mask: np.ndarray | None = None
        self.game = None
        self.seat = 0
        self._agents: dict[int, Any] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self._close_agents()
        game_seed = int(self.np_random.integers(0, 2**63))
        self.seat = (int(self.np_random.integers(self.seats)) if self.seat_choice == "rotate"
                     else int(self.seat_choice))
        self.game = new_game(self.mode, seats=self.seats, seed=game_seed, options=self.options)
        others = [s for s in range(self.seats) if s != self.seat]
        for k, s in enumerate(others):
            spec = self.opponents[k]
            self._agents[s] = (make_bot(spec, self.mode, s, game_seed) if isinstance(spec, str)
                               else spec(self.mode, s, game_seed))
        self._play_opponents()
        return self._observe_with_info()

    def step(self, action: int):
        assert self.game is not None, "call reset() first"
        legal = self.game.legal_actions(self.seat)
        try:
            chosen, was_illegal = self.action_ids.action_for(action, legal), False
        except UnknownActionId:
            if self.illegal == "raise" or not self.action_space.contains(action):
                raise  # an id outside the action space is a bug, never a move
            chosen, was_illegal = legal[0], True  # an id of the space that names no action
        except IllegalActionId:
            if self.illegal == "raise":
                raise
            chosen, was_illegal = legal[0], True  # the arena's default policy for a faulty bot
        self.game.apply_unchecked(self.seat, chosen)
        self._play_opponents()
        if self.game.is_over():
            result = self.game.result()
            reward = final_rewards(result, self.reward_kind)[self.seat]
            final = encode_observation(self._encoder.encode(self.game.observation(self.seat)),
                                       self.action_ids)
            self._mask = final["action_mask"]
            return final, reward, True, False, {"result": result, "illegal": was_illegal}
        observed, info = self._observe_with_info()
        return observed, 0.0, False, False, {**info, "illegal": was_illegal}

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        return f"{self.mode} seat {self.seat}, step {len(self.game.history)}"

    def close(self) -> None:
        self._close_agents()
        self.game = None

    def action_masks(self) -> np.ndarray:
        """The legal mask of the current state as booleans (MaskablePPO's convention)."""
        assert self._mask is not None, "call reset() first"
        return self._mask.astype(bool)

    def legal_json(self) -> list[dict[str, Any]]:
        assert self.game is not None
        return [self.game.encode_action(a) for a in self.game.legal_actions(self.seat)]

    def _play_opponents(self) -> None:
        game = self.game
        assert game is not None
        while not game.is_over():
            seat = game.pending()[0]
            if seat == self.seat:
                return
            agent = self._agents[seat]
            choice = agent.act(game, seat)
            if getattr(agent, "trusted", False) and isinstance(choice, Action):
                game.apply_unchecked(seat, choice)
            else:
                game.apply(seat, choice)

    def _observe_with_info(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Your turn (or the end): the encoded observation and its mask, and the info holding
        the same observation as a dict; the observation is built once for both."""
        game = self.game
        assert game is not None
        observation = game.observation(self.seat)
        legal = () if game.is_over() else game.legal_actions(self.seat)
        observed = encode_observation(self._encoder.encode(observation), self.action_ids, legal)
        self._mask = observed["action_mask"]
        return observed, {"observation": observation}

    def _close_agents(self) -> None:
        for agent in self._agents.values():
            close = getattr(agent, "close", None)
            if close is not None:
                close()
        self._agents = {}
