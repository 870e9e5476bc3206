"""Set-up, the end of a day (empty island, or both players skipping the selection on
consecutive turns), returning round-counter cats, first-player alternation, 4 days."""

from __future__ import annotations

import pytest

from engine import IllegalAction, new_game
from engine.modes.duel.data import duel_data


def _skip(kit, game) -> None:
    """A turn without a selection: two steps (towards an untouched neighbour), end."""
    seat = game.current
    game.apply(seat, game.legal_actions(seat)[0])
    game.apply(seat, game.legal_actions(seat)[0])
    game.apply(seat, {"kind": "end_turn"})


def _take(kit, game) -> None:
    """A turn with a selection: a discovery is put on the start space beforehand."""
    seat = game.current
    space = game.oshax
    if duel_data().island.kinds[space] == "card":
        owned = game.lessons[0] + game.lessons[1]
        item = next(c for c in range(11, 33) if c not in owned)
    else:
        item = game.bag.pop()
    if game.island[space] is None:
        game.on_island += 1
    game.island[space] = item
    game.apply(seat, game.legal_actions(seat)[0])
    game.apply(seat, game.legal_actions(seat)[0])
    game.apply(seat, {"kind": "select", "space": space})
    while game.phase != "act":
        game.apply(seat, game.legal_actions(seat)[0])
    game.apply(seat, {"kind": "end_turn"})


def test_set_up(kit) -> None:
    game = new_game("duel", 2, 5)
    d = duel_data()
    assert game.phase == "choose_boat" and game.pending() == (game.first,)
    assert game.fish == [3, 3] and game.day == 0
    assert len(game.counters) == 3 and len(game.bag) == 42
    assert len(game.deck) == 32 and sorted(game.deck) == list(range(1, 33))
    assert sum(len(v) for v in game.supply.values()) == 28
    assert game.oshax == d.island.start
    first = game.first
    assert game.legal_actions(1 - first) == ()
    game.apply(first, {"kind": "choose_boat", "boat": "I"})
    assert game.pending() == (1 - first,) and game.day == 0
    with pytest.raises(IllegalAction, match="unknown boat 'X'"):
        game.apply(1 - first, {"kind": "choose_boat", "boat": "X"})
    game.apply(1 - first, {"kind": "choose_boat", "boat": "I"})  # the same layout is allowed
    assert [b.layout.name for b in game.boats] == ["I", "I"]
    assert game.day == 1 and game.pending() == (first,) and game.phase == "move"
    assert len(game.bag) == 32 and len(game.deck) == 27
    cats = [game.island[s] for s in d.island.cat_spaces]
    cards = [game.island[s] for s in d.island.card_spaces]
    assert all(c is not None and 0 <= c < 45 for c in cats)
    assert all(c is not None and 1 <= c <= 32 for c in cards)
    day_start = game.events[-1]
    assert day_start["type"] == "day_start" and len(day_start["cats"]) == 10
    assert [s for s, _ in day_start["cards"]] == [2, 4, 11, 13, 15]


def test_first_player_comes_from_the_seed() -> None:
    firsts = {new_game("duel", 2, seed).first for seed in range(20)}
    assert firsts == {0, 1}
    assert new_game("duel", 2, 3).first == new_game("duel", 2, 3).first


def test_a_first_turn_skip_does_not_end_the_day(kit) -> None:
    game = kit.game()
    first = game.current
    _skip(kit, game)
    assert game.day == 1 and game.current == 1 - first and game.phase == "move"


def test_both_skipping_on_consecutive_turns_ends_the_day(kit) -> None:
    game = kit.game()
    first = game.current
    _skip(kit, game)
    _skip(kit, game)
    assert game.phase == "return_cat" and game.day == 1
    assert game.events[-1]["reason"].startswith("both players skipped")
    assert game.current == 1 - first  # the day's second player starts the next day


def test_a_selection_in_between_keeps_the_day_going(kit) -> None:
    game = kit.game()
    _take(kit, game)  # A selects
    _skip(kit, game)  # B skips: A selected on their last turn
    assert game.day == 1 and game.phase == "move"
    _skip(kit, game)  # A skips too: consecutive skips by both
    assert game.phase == "return_cat"


def test_skip_take_skip_skip(kit) -> None:
    game = kit.game()
    _skip(kit, game)  # A
    _take(kit, game)  # B
    _skip(kit, game)  # A
    assert game.phase == "move"
    _skip(kit, game)  # B
    assert game.phase == "return_cat"


def test_an_empty_island_ends_the_day_at_the_end_of_the_turn(kit) -> None:
    game = kit.game()
    seat = game.current
    kit.set_island(game, {2: 11})
    kit.walk(game, 2, 3)
    game.apply(seat, {"kind": "select", "space": 2})
    assert game.phase == "act"  # fish actions are still possible
    game.apply(seat, {"kind": "end_turn"})
    assert game.phase == "return_cat"
    assert game.events[-1]["reason"] == "the island is empty"


def test_returning_a_counter_cat_and_the_next_day(kit) -> None:
    game = kit.game()
    first = game.current
    leftovers = [x for x in game.island if x is not None]
    _skip(kit, game)
    _skip(kit, game)
    returner = 1 - first
    assert game.pending() == (returner,)
    assert sorted(a[1] for a in game.legal_actions(returner)) == sorted(game.counters)
    with pytest.raises(IllegalAction, match="not a round-counter cat"):
        game.apply(returner, {"kind": "return_cat", "tile": 44 if 44 not in game.counters else 0})
    # what was left on the island went out of the game
    assert sorted(game.box + game.discard) == sorted(leftovers)
    tile = game.counters[1]
    bag_before = len(game.bag)
    game.apply(returner, {"kind": "return_cat", "tile": tile})
    assert tile not in game.counters and len(game.counters) == 2
    assert game.day == 2 and game.first == returner and game.pending() == (returner,)
    assert len(game.bag) == bag_before + 1 - 10
    assert tile in game.bag or tile in game.island


def test_four_days_with_alternating_first_players(kit) -> None:
    game = kit.game(seed=9)
    firsts = []
    while not game.is_over():
        new_day = not firsts or firsts[-1][0] != game.day
        if game.phase == "move" and game.current == game.first and new_day:
            firsts.append((game.day, game.current))
        if game.phase == "return_cat":
            game.apply(game.current, game.legal_actions(game.current)[0])
            continue
        _skip(kit, game)
    days = [d for d, _ in firsts]
    seats = [s for _, s in firsts]
    assert days == [1, 2, 3, 4]
    assert seats[0] != seats[1] and seats[0] == seats[2] and seats[1] == seats[3]
    assert game.counters == [] and game.day == 4
    assert game.events[-1]["type"] == "game_end"
    assert game.pending() == ()
    with pytest.raises(IllegalAction, match="game is over"):
        game.apply(0, {"kind": "end_turn"})


def test_the_oshax_stays_where_it_stopped_into_the_next_day(kit) -> None:
    """New discoveries go "under the Oshax": the figure is not reset at a new day."""
    game = kit.game()
    for path in ((2, 3), (4, 5)):  # two turns without a selection end day 1 on space 5
        kit.walk(game, *path)
        game.apply(game.current, {"kind": "end_turn"})
    assert game.phase == "return_cat"
    stopped = game.oshax
    assert stopped == 5
    game.apply(game.current, game.legal_actions(game.current)[0])  # return a cat: day 2
    assert game.day == 2 and game.oshax == stopped and game.island[stopped] is not None
    assert game.observation(game.current)["turn"]["touched"] == [stopped]
