"""The fixed action ids (engine/env/action_ids.py): one id per action for the whole game, in
every mode; id -> action -> id round-trips; the mask marks exactly the legal actions; the
environments act by id; bad ids and masks get one clear error each."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.actions import Action
from engine.env import aec_env, single_agent_env, vector_env
from engine.env.action_ids import (
    IllegalActionId,
    MaskLengthError,
    UnknownActionId,
    action_ids,
    action_space_size,
)
from engine.modes import new_game

CONFIGS = [("standard", 4, {}), ("standard", 2, {}), ("family", 3, {}),
           ("solo", 1, {"difficulty": "expert"}), ("duel", 2, {})]


def _random_game(mode, seats, options, seed):
    """Every decision of one random game: (seat, legal actions)."""
    game = new_game(mode, seats, seed, options)
    rng = random.Random(seed)
    while not game.is_over():
        seat = game.pending()[0]
        legal = game.legal_actions(seat)
        yield game, seat, legal
        game.apply_unchecked(seat, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("mode", "seats", "options"), CONFIGS)
def test_every_legal_action_round_trips_and_the_mask_is_exactly_the_legal_ids(
        mode, seats, options):
    ids = action_ids(mode)
    kinds_seen = set()
    for seed in (11, 12):
        for _, _, legal in _random_game(mode, seats, options, seed):
            encoded = [ids.encode(a) for a in legal]
            assert len(set(encoded)) == len(legal)  # one id per legal action
            assert all(0 <= i < ids.size for i in encoded)
            for action, action_id in zip(legal, encoded, strict=True):
                back = ids.decode(action_id)  # id -> action -> id
                assert ids.encode(back) == action_id
                assert back in legal and back.kind == action.kind
                kinds_seen.add(action.kind)
            mask = ids.legal_mask(legal)  # built from the bitboards, not action by action
            assert mask.dtype == np.int8 and mask.shape == (ids.size,)
            assert np.flatnonzero(mask).tolist() == sorted(encoded)
    assert {"place"} < kinds_seen


def test_decoding_every_id_of_the_duel_gives_an_action_with_that_id_or_a_clear_refusal():
    ids = action_ids("duel")
    actions = 0
    for action_id in range(ids.size):
        try:
            action = ids.decode(action_id)
        except UnknownActionId as exc:
            assert "would leave the 22x9 board" in str(exc)
            continue
        assert ids.encode(action) == action_id
        actions += 1
    assert 0 < actions < ids.size


def test_an_actions_id_is_the_same_in_two_states_of_one_game():
    """The same action, legal at two different decisions of one game (different states, at
    different positions of the legal list), has one id."""
    ids = action_ids("standard")
    first_seen: dict[Action, tuple[int, int, int]] = {}
    repeated = 0
    for game, _, legal in _random_game("standard", 4, {}, 5):
        step = len(game.history)
        for position, action in enumerate(legal):
            action_id = ids.encode(action)
            if action in first_seen:
                seen_step, seen_position, seen_id = first_seen[action]
                if seen_step != step and seen_position != position:
                    assert seen_id == action_id
                    repeated += 1
            else:
                first_seen[action] = (step, position, action_id)
    assert repeated > 100
    # and the actions behind the issue: index 0 was "move to space 2" in one state and a
    # placement in the next; here each keeps its id whatever else is legal
    duel = action_ids("duel")
    move = duel.encode(Action("move", 2))
    assert duel.decode(move) == Action("move", 2)
    assert duel.legal_mask([Action("move", 2)])[move] == 1
    assert duel.legal_mask([Action("end_turn"), Action("move", 2)])[move] == 1


def test_sizes_and_layout_are_fixed_per_mode():
    for mode in ("standard", "family", "solo", "duel"):
        ids = action_ids(mode)
        rows = ids.layout_rows()
        assert rows[0][0] == 0
        assert all(a + n == b for (a, n, *_), (b, *_) in zip(rows, rows[1:], strict=False))
        assert rows[-1][0] + rows[-1][1] == ids.size == action_space_size(mode)
    assert action_space_size("duel") == 19748
    assert action_space_size("standard") == 47566


def test_bad_ids_and_masks_get_one_clear_error():
    ids = action_ids("duel")
    with pytest.raises(UnknownActionId, match=r"unknown action id 19748: mode 'duel' has ids "
                                              r"0 to 19747"):
        ids.decode(19748)
    with pytest.raises(UnknownActionId, match="unknown action id -1"):
        ids.decode(-1)
    with pytest.raises(MaskLengthError, match=r"mask of length 2048 .* 'duel' has 19748"):
        ids.check_mask(np.ones(2048, np.int8))
    assert ids.check_mask(np.zeros(ids.size)).shape == (ids.size,)
    with pytest.raises(IllegalActionId, match=r"action id \d+ \(move 2\) is not legal now"):
        ids.action_for(ids.encode(Action("move", 2)), [Action("end_turn")])

    env = aec_env(mode="duel")
    env.reset(seed=2)
    with pytest.raises(UnknownActionId, match="unknown action id 10000000"):
        env.step(10_000_000)
    single = single_agent_env(mode="duel", opponents=["random"])
    single.reset(seed=2)
    with pytest.raises(UnknownActionId, match="unknown action id 99999"):
        single.step(99_999)  # never played as the default: an id of no action is a bug
    games = vector_env("duel", 2, opponents=["random"])
    games.reset(seed=2)
    with pytest.raises(MaskLengthError, match=r"\(3,\) actions given: .* 2 games"):
        games.step([0, 0, 0])
    games.close()


def test_the_gymnasium_env_offers_action_masks_for_maskable_ppo():
    env = single_agent_env(mode="duel", opponents=["random"], seat="rotate")
    obs, info = env.reset(seed=4)
    done, steps = False, 0
    while not done:
        masks = env.action_masks()
        assert masks.dtype == bool and masks.shape == (env.action_space.n,)
        assert (masks == obs["action_mask"].astype(bool)).all()
        legal = env.game.legal_actions(env.seat)
        assert masks.sum() == len(legal)
        obs, _, done, _, info = env.step(int(np.flatnonzero(masks)[-1]))
        assert not info["illegal"]
        steps += 1
    assert steps > 10 and not env.action_masks().any()


def test_the_vector_runner_plays_many_games_and_resets_finished_ones():
    games = vector_env("duel", 3, opponents=["random"], seat="rotate", reward="rank")
    obs, info = games.reset(seed=10)
    assert obs["observation"].shape == (3, 4188)
    assert obs["action_mask"].shape == (3, 19748) and games.action_space.shape == (3,)
    rng = np.random.default_rng(0)
    finished, rewards = 0, []
    while finished < 6:
        masks = games.action_masks()
        assert masks.shape == (3, 19748) and masks.any(axis=1).all()  # always asked to act
        obs, reward, terminated, truncated, info = games.step(
            [rng.choice(np.flatnonzero(row)) for row in masks])
        assert not truncated.any()
        for k in np.flatnonzero(terminated):
            finished += 1
            rewards.append(reward[k])
            final = info["final_info"]
            assert final["won"][k] == (reward[k] == 1.0)
            assert np.isfinite(final["score"][k]) and np.isfinite(final["opponent_best"][k])
        assert (reward[~terminated] == 0).all()
    assert set(rewards) <= {-1.0, 0.0, 1.0}
    games.close()


def test_the_asynchronous_vector_runner_plays_the_same_games_as_the_synchronous_one():
    """One process per game (AsyncVectorEnv) changes where games run, not what they are."""
    runs = []
    for asynchronous in (False, True):
        games = vector_env("duel", 2, asynchronous=asynchronous, opponents=["random"],
                           seat="rotate")
        obs, _ = games.reset(seed=21)
        seen = [obs["observation"].copy()]
        for _ in range(12):
            masks = games.action_masks()
            obs, *_ = games.step([int(np.flatnonzero(row)[-1]) for row in masks])
            seen.append(obs["observation"].copy())
        games.close()
        runs.append(np.stack(seen))
    assert runs[0].shape == (13, 2, 4188)
    assert np.array_equal(runs[0], runs[1])
