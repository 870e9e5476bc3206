"""The family greedy bot: plays legal moves only, is deterministic, and beats random."""

from __future__ import annotations

from engine import new_game
from engine.bots import make_bot
from engine.bots.greedy_family import GreedyFamilyBot
from engine.play import play_game


def _play(names: list[str], seed: int) -> dict:
    game = new_game("family", len(names), seed)
    bots = [make_bot(n, "family", s, seed) for s, n in enumerate(names)]
    play_game(game, bots)
    return game.result()


def test_make_bot_gives_the_family_greedy_bot() -> None:
    bot = make_bot("greedy", "family", 1, 5)
    assert isinstance(bot, GreedyFamilyBot)
    assert bot.name == "greedy" and bot.trusted is True


def test_every_choice_is_legal_and_explained() -> None:
    game = new_game("family", 3, 21)
    bots = [make_bot("greedy", "family", s, 21) for s in range(3)]
    notes = 0
    while not game.is_over():
        seat = game.pending()[0]
        game.apply(seat, game.encode_action(bots[seat].act(game, seat)))  # checked path
        notes += bots[seat].last_note is not None
    assert notes > 0


def test_same_seed_same_game() -> None:
    assert _play(["greedy", "greedy"], 4)["state_hash"] == _play(["greedy", "greedy"], 4)[
        "state_hash"]


def test_greedy_beats_random_on_average() -> None:
    margin = 0
    wins = 0
    for seed in range(12):
        scores = _play(["greedy", "random"], seed)["scores"]
        margin += scores[0] - scores[1]
        wins += scores[0] > scores[1]
    assert wins >= 10 and margin > 12 * 20
