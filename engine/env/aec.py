"""A PettingZoo AEC environment for every mode: one agent per seat, acting in turn.

Agents are ``seat_0`` .. ``seat_{n-1}`` (solo: ``seat_0`` alone; the sister is part of the
game). ``observe(agent)`` is ``{"observation": float32 vector, "action_mask": int8 vector}``:
the flat encoding of the very observation a bot receives (engine/env/encoding.py, layout in
docs/training.md) and the legal mask over the mode's fixed action ids. An action is such an
id (engine/env/action_ids.py): every action of the mode has one for the whole game, so the
action space is ``Discrete(action_ids(mode).size)``. ``infos[agent]`` of the acting seat holds
the bot's dict observation (``"observation"``) and the legal actions' JSON form is
``legal_json(agent)``.

Rewards come once, at the end: with ``reward="rank"`` (default) +1 for first place, -1 for
last and linear in between, seats that tie sharing the mean of their places' rewards (so the
rewards of a game sum to 0, and a 2-player tie gives 0 to each); solo: +1 when you beat the
sister, -1 otherwise. With ``reward="score"``, the final score. The game always ends, so
truncation is never set.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..game import Game
from ..modes import mode_class, new_game
from .action_ids import ActionIds, action_ids
from .encoding import encoder

REWARDS = ("rank", "score")
OBS_HIGH = 1000.0  # encoded values are scaled counts, about 0-1; none comes near this


def final_rewards(result: dict[str, Any], reward: str) -> list[float]:
    """Each seat's reward for a finished game (see the module docstring)."""
    if reward == "score":
        return [float(s) for s in result["scores"]]
    seats = result["seats"]
    if seats == 1:  # solo: against the sister
        return [1.0 if result.get("won") else -1.0]
    ranks = result["ranks"]

    def place_reward(place: int) -> float:
        return 1.0 - 2.0 * (place - 1) / (seats - 1)

    tied = {rank: ranks.count(rank) for rank in ranks}  # competition ranks: 1, 1, 3, ...
    return [sum(place_reward(rank + k) for k in range(tied[rank])) / tied[rank]
            for rank in ranks]


def observation_space(size: int, actions: int) -> spaces.Dict:
    """The observation space of both environments: the flat vector and the action mask."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, OBS_HIGH, (size,), np.float32),
        "action_mask": spaces.Box(0, 1, (actions,), np.int8),
    })


def encode_observation(vector: list[float], ids: ActionIds,
                       legal: Any = ()) -> dict[str, np.ndarray]:
    """What both environments return: the encoded observation and the mask of the ids of
    ``legal`` (all 0 when the seat is not asked)."""
    return {"observation": np.fromiter(vector, np.float32, len(vector)),
            "action_mask": ids.legal_mask(legal)}


class IsleOfCatsEnv(AECEnv):
    """See the module docstring. Build it with ``engine.env.aec_env``."""

    metadata = {"name": "isle_of_cats_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, mode: str = "standard", seats: int | None = None,
                 reward: str = "rank", render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        game_type = mode_class(mode).game_type
        if seats is None:
            seats = game_type.min_seats
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode must be None or 'ansi'")
        self.mode, self.seats, self.reward_kind, self.options = mode, seats, reward, options
        self.render_mode = render_mode
        new_game(mode, seats=seats, seed=0, options=options)  # fails early on a bad config
        self._encoder = encoder(mode)
        self.action_ids = action_ids(mode)
        self.possible_agents = [f"seat_{s}" for s in range(seats)]
        obs_space = observation_space(self._encoder.size, self.action_ids.size)
        act_space = spaces.Discrete(self.action_ids.size)
        self._obs_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self._act_spaces = dict.fromkeys(self.possible_agents, act_space)
        self._seed_rng = np.random.default_rng()
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_spaces[agent]

    # --- the AEC cycle ------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        game_seed = int(self._seed_rng.integers(0, 2**63))
        self.game = new_game(self.mode, seats=self.seats, seed=game_seed, options=self.options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._select_next()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        seat = self._seat(agent)
        chosen = self.action_ids.action_for(action, self.game.legal_actions(seat))
        self._cumulative_rewards[agent] = 0.0
        self.game.apply_unchecked(seat, chosen)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.game.is_over():
            result = self.game.result()
            for a, r in zip(self.agents, final_rewards(result, self.reward_kind), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
            self.infos = {a: {"result": result} for a in self.agents}
            self.agent_selection = self.agents[0]
            return
        self._accumulate_rewards()
        self._select_next()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.game
        assert game is not None
        seat = self._seat(agent)
        # the acting seat's observation is already in its info (built once per step)
        observation = self.infos.get(agent, {}).get("observation") or game.observation(seat)
        asked = not game.is_over() and seat in game.pending()
        return encode_observation(self._encoder.encode(observation), self.action_ids,
                                  game.legal_actions(seat) if asked else ())

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        history = self.game.history
        last = self.game.action_text(history[-1][1]) if history else "(start)"
        return f"{self.mode} step {len(history)}: {last}"

    def close(self) -> None:
        self.game = None

    # --- helpers ------------------------------------------------------------------------------

    def legal_json(self, agent: str) -> list[dict[str, Any]]:
        """The acting seat's legal actions in the bot protocol's JSON form, by index."""
        assert self.game is not None
        return [self.game.encode_action(a) for a in self.game.legal_actions(self._seat(agent))]

    def _seat(self, agent: str) -> int:
        return int(agent.rsplit("_", 1)[1])

    def _select_next(self) -> None:
        assert self.game is not None
        seat = self.game.pending()[0]
        self.agent_selection = self.possible_agents[seat]
        self.infos = {a: {} for a in self.agents}
        self.infos[self.agent_selection] = {"observation": self.game.observation(seat)}
