"""Determinism: the same seed and actions give the same state hash, in this process, in a
replay of the history, and in a fresh Python process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine import new_game
from engine.bots.greedy_duel import GreedyDuelBot
from engine.bots.random_bot import RandomBot

REPO = Path(__file__).resolve().parents[3]

PLAY = """
import json, sys
from engine import new_game
from engine.bots.random_bot import RandomBot
seed = int(sys.argv[1])
game = new_game("duel", 2, seed)
bots = [RandomBot(0, seed), RandomBot(1, seed + 1)]
hashes = []
while not game.is_over():
    seat = game.pending()[0]
    game.apply_unchecked(seat, bots[seat].act(game, seat))
    if len(game.history) % 25 == 0:
        hashes.append(game.state_hash())
print(json.dumps({"hashes": hashes, "final": game.state_hash(),
                  "scores": game.result()["scores"]}))
"""


def _run(seed: int) -> dict:
    game = new_game("duel", 2, seed)
    bots = [RandomBot(0, seed), RandomBot(1, seed + 1)]
    hashes = []
    while not game.is_over():
        seat = game.pending()[0]
        game.apply_unchecked(seat, bots[seat].act(game, seat))
        if len(game.history) % 25 == 0:
            hashes.append(game.state_hash())
    return {"hashes": hashes, "final": game.state_hash(), "scores": game.result()["scores"]}


def test_same_seed_same_hashes() -> None:
    assert _run(11) == _run(11)
    assert _run(11)["final"] != _run(12)["final"]


def test_a_fresh_process_gives_the_same_hashes() -> None:
    out = subprocess.run([sys.executable, "-c", PLAY, "11"], cwd=REPO, capture_output=True,
                         text=True, check=True, env={"PYTHONHASHSEED": "123", "PATH": ""})
    assert json.loads(out.stdout) == _run(11)


def test_replaying_the_history_reproduces_the_game() -> None:
    game = new_game("duel", 2, 21)
    bots = [GreedyDuelBot(0, 21), RandomBot(1, 21)]
    while not game.is_over():
        seat = game.pending()[0]
        game.apply_unchecked(seat, bots[seat].act(game, seat))
    replay = new_game("duel", 2, 21)
    for seat, action in game.history:
        replay.apply(seat, replay.encode_action(action))  # the JSON form, checked
    assert replay.state_hash() == game.state_hash()
    assert replay.events == game.events
    assert replay.result() == game.result()


def test_clone_is_independent() -> None:
    game = new_game("duel", 2, 8)
    bots = [RandomBot(0, 8), RandomBot(1, 9)]
    for _ in range(40):
        seat = game.pending()[0]
        game.apply_unchecked(seat, bots[seat].act(game, seat))
    twin = game.clone()
    assert twin.state_hash() == game.state_hash()
    before = game.state_hash()
    while not twin.is_over():
        seat = twin.pending()[0]
        twin.apply_unchecked(seat, twin.legal_actions(seat)[0])
    assert game.state_hash() == before
