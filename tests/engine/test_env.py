"""The training environments: PettingZoo's and Gymnasium's own conformance checks for every
mode, and the promises of docs/training.md (same observation as a bot, masks, rewards)."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from engine.env import aec_env, single_agent_env
from engine.env.action_ids import action_ids
from engine.env.aec import final_rewards
from engine.env.encoding import encoder, layout_rows
from engine.errors import ConfigError

CONFIGS = [("standard", 2, {}), ("standard", 4, {}), ("family", 3, {}),
           ("solo", 1, {"difficulty": "expert"}), ("duel", 2, {})]


@pytest.mark.parametrize(("mode", "seats", "options"), CONFIGS)
def test_pettingzoo_api_test_passes(mode, seats, options):
    env = aec_env(mode=mode, seats=seats, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about style, it asserts the API
        api_test(env, num_cycles=400)


@pytest.mark.parametrize(("mode", "seats", "options"), [CONFIGS[0], CONFIGS[4]])
def test_pettingzoo_seeding_is_deterministic(mode, seats, options):
    seed_test(lambda: aec_env(mode=mode, seats=seats, **options), num_cycles=50)


@pytest.mark.parametrize(("mode", "seats", "opponents"), [
    ("duel", 2, ["random"]), ("standard", 3, ["greedy", "random"]), ("solo", 1, []),
    ("family", 2, ["random"]),
])
def test_gymnasium_check_env_passes(mode, seats, opponents):
    env = single_agent_env(mode=mode, seats=seats, opponents=opponents, seat="rotate")
    check_env(env, skip_render_check=True)


def test_observation_is_the_bots_observation_encoded_and_mask_matches_legal():
    env = aec_env(mode="standard", seats=3)
    env.reset(seed=7)
    for _ in range(60):
        agent = env.agent_selection
        obs, _, done, _, info = env.last()
        if done:
            break
        seat = int(agent.split("_")[1])
        assert info["observation"] == env.game.observation(seat)
        expected = encoder("standard").encode(info["observation"])
        assert np.allclose(obs["observation"], expected)
        legal = env.game.legal_actions(seat)
        ids = action_ids("standard")
        assert obs["action_mask"].sum() == len(legal)
        assert set(np.flatnonzero(obs["action_mask"])) == {ids.encode(a) for a in legal}
        env.step(ids.encode(legal[-1]))


def test_a_masked_action_is_refused_with_a_clear_error():
    env = aec_env(mode="duel")
    env.reset(seed=1)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"action id {illegal} .* is not legal"):
        env.step(illegal)


def test_rewards_follow_the_ranks_and_sum_over_a_game():
    assert final_rewards({"seats": 4, "ranks": [2, 1, 4, 3], "scores": [1, 2, 3, 4]},
                         "rank") == pytest.approx([1 / 3, 1.0, -1.0, -1 / 3])
    assert final_rewards({"seats": 2, "ranks": [1, 1], "scores": [5, 5]}, "rank") == [0.0, 0.0]
    assert final_rewards({"seats": 4, "ranks": [1, 1, 3, 4], "scores": [5, 5, 2, 1]},
                         "rank") == pytest.approx([2 / 3, 2 / 3, -1 / 3, -1.0])
    assert final_rewards({"seats": 3, "ranks": [1, 2, 2], "scores": [5, 3, 3]},
                         "rank") == pytest.approx([1.0, -0.5, -0.5])
    assert final_rewards({"seats": 1, "ranks": [1], "won": False, "scores": [3]},
                         "rank") == [-1.0]
    env = single_agent_env(mode="duel", opponents=["random"], reward="score")
    obs, _ = env.reset(seed=3)
    total, done = 0.0, False
    while not done:
        obs, reward, done, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        total += reward
        assert not truncated
    assert total == info["result"]["scores"][env.seat]


def test_layout_covers_the_vector_exactly():
    for mode in ("standard", "family", "solo", "duel"):
        rows = layout_rows(mode)
        assert rows[0][0] == 0
        assert all(a + n == b for (a, n, *_), (b, *_) in zip(rows, rows[1:], strict=False))
        assert rows[-1][0] + rows[-1][1] == encoder(mode).size


def test_bad_configuration_is_a_clear_error():
    with pytest.raises(ConfigError, match="opponent"):
        single_agent_env(mode="standard", seats=4, opponents=["random", "greedy"])
    with pytest.raises(ConfigError, match="unknown built-in bot"):
        single_agent_env(mode="duel", opponents=["mybot.py"])


def test_importing_the_engine_needs_none_of_the_training_packages():
    code = ("import sys, engine, engine.modes, engine.bots; "
            "print(sorted(m for m in ('numpy', 'gymnasium', 'pettingzoo') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
