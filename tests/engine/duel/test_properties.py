"""Property tests: hundreds of seeded Duel games (random and greedy bots) with the game's
invariants checked after every action, some of them through the checked ``apply``.

Invariants: every cat and treasure tile in exactly one place, every card in exactly one
place, no overlapping tiles, tiles only on boat squares, fish never negative, the seat
to act always has a legal action, and ``illegal_reason`` agrees with ``legal_actions``.
"""

from __future__ import annotations

import json

from engine import Action, new_game
from engine.bots.greedy_duel import GreedyDuelBot
from engine.bots.random_bot import RandomBot
from engine.modes.duel import DuelGame
from engine.modes.duel.data import duel_data
from engine.rng import Rng

D = duel_data()
ALL_CATS = list(range(45))
ALL_TREASURES = list(range(45, 73))
ALL_CARDS = list(range(1, 33))
PROBES = ([Action("move", s) for s in range(0, 17)] + [Action("select", s) for s in range(1, 16)]
          + [Action("fish_action", n) for n in ("move", "jump", "treasure", "discovery")]
          + [Action("end_turn"), Action("decline"), Action("return_cat", 0),
             Action("choose_boat", "O")])


def check_invariants(game: DuelGame) -> None:
    kinds = D.island.kinds
    island_cats = [x for s, x in enumerate(game.island) if x is not None and kinds[s] == "cat"]
    island_cards = [x for s, x in enumerate(game.island) if x is not None and kinds[s] == "card"]
    assert game.on_island == len(island_cats) + len(island_cards)
    on_boats = [t for b in game.boats if b is not None for t in b.tiles]
    placing = [] if game.placing is None else [game.placing]
    cats = (game.bag + game.counters + game.box + island_cats + placing
            + [t.tile_id for t in on_boats if t.kind == "cat"])
    assert sorted(cats) == ALL_CATS
    treasures = [i for ids in game.supply.values() for i in ids]
    treasures += [t.tile_id for t in on_boats if t.kind == "common_treasure"]
    assert sorted(treasures) == ALL_TREASURES
    cards = game.deck + island_cards + game.lessons[0] + game.lessons[1] + game.discard
    assert sorted(cards) == ALL_CARDS
    for boat in game.boats:
        if boat is None:
            continue
        union = 0
        for t in boat.tiles:
            assert not t.mask & union, "tiles overlap"
            assert not t.mask & ~boat.layout.cells_mask, "a tile leaves the boat"
            union |= t.mask
        assert union == boat.occupied
    assert min(game.fish) >= 0
    assert game.treasures_due >= 0
    if game.is_over():
        assert game.pending() == ()
        return
    (seat,) = game.pending()
    assert len(game.legal_actions(seat)) > 0
    assert game.legal_actions(1 - seat) == ()
    if game.day:
        assert game.touched >> game.oshax & 1 or game.phase == "return_cat"


def check_reasons(game: DuelGame, seat: int, rng: Rng) -> None:
    """``illegal_reason`` is None exactly for the legal actions (probes and samples)."""
    legal = game.legal_actions(seat)
    probes = list(PROBES)
    probes += [legal[rng.randbelow(len(legal))] for _ in range(3)]
    probes.append(Action("place", 1 << rng.randbelow(200)))
    for action in probes:
        reason = game.illegal_reason(seat, action)
        assert (reason is None) == (action in legal), (game.codec.text(action), reason)
        if reason is not None:
            assert isinstance(reason, str) and reason


def _play(seed: int, bots: list, *, checked: bool = False, probe: bool = False) -> DuelGame:
    game = new_game("duel", 2, seed)
    assert isinstance(game, DuelGame)
    rng = Rng(seed, "probe")
    check_invariants(game)
    while not game.is_over():
        seat = game.pending()[0]
        if probe:
            check_reasons(game, seat, rng)
        action = bots[seat].act(game, seat)
        if checked:
            game.apply(seat, json.loads(json.dumps(game.encode_action(action))))
        else:
            game.apply_unchecked(seat, action)
        check_invariants(game)
    result = game.result()
    assert result["winners"] and result["days"] == 4
    return game


def test_random_games_keep_the_invariants() -> None:
    for seed in range(300):
        _play(seed, [RandomBot(0, seed), RandomBot(1, seed + 7)], checked=seed % 10 == 0,
              probe=seed % 5 == 0)


def test_greedy_games_keep_the_invariants() -> None:
    for seed in range(40):
        bots = [GreedyDuelBot(0, seed), RandomBot(1, seed)] if seed % 2 else \
            [RandomBot(0, seed), GreedyDuelBot(1, seed)]
        _play(seed, bots, checked=seed % 4 == 0, probe=seed % 8 == 0)
    for seed in range(12):
        _play(seed, [GreedyDuelBot(0, seed), GreedyDuelBot(1, seed + 1)], checked=seed % 3 == 0)


def test_greedy_beats_random() -> None:
    wins = 0
    for seed in range(20):
        game = new_game("duel", 2, seed)
        g = seed % 2
        bots = [RandomBot(0, seed), RandomBot(1, seed)]
        bots[g] = GreedyDuelBot(g, seed)
        while not game.is_over():
            seat = game.pending()[0]
            game.apply_unchecked(seat, bots[seat].act(game, seat))
        wins += game.result()["winners"] == [g]
    assert wins >= 18
