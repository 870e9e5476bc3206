"""The greedy Duel bot's heuristic: what it prefers, and that it plays a turn sensibly.
(Whole games with invariants and its win rate: tests/engine/duel/test_properties.py.)"""

from __future__ import annotations

from engine import new_game
from engine.boat import Boat, Tile, mask_of
from engine.bots import make_bot
from engine.bots.greedy_duel import GreedyDuelBot, colour_families, placement_value
from engine.modes.duel.data import duel_data
from engine.modes.duel.game import PHASE_KINDS

O_BOAT = duel_data().layouts["O"]


def _boat(tiles: list[tuple[str | None, list[list[int]]]]) -> Boat:
    boat = Boat(O_BOAT)
    for i, (colour, cells) in enumerate(tiles):
        boat.place(Tile("cat" if colour else "common_treasure", colour, "custom",
                        mask_of(cells), i))
    return boat


def test_joining_a_family_beats_standing_alone() -> None:
    boat = _boat([("red", [[5, 4]]), ("red", [[6, 4]]), ("blue", [[9, 4]])])
    fams = colour_families(boat, "red")
    joining = placement_value(boat, mask_of([[7, 4]]), "red", fams)  # the third red: a family
    apart = placement_value(boat, mask_of([[10, 4]]), "red", fams)
    assert joining - apart > 4


def test_completing_a_room_is_worth_about_five() -> None:
    room = O_BOAT.room("parrot_front").mask  # 4 squares: (20,3) (20,4) (21,4) (20,5)
    boat = _boat([(None, [[20, 3], [20, 4], [20, 5]])])
    assert mask_of([[21, 4]]) | boat.occupied == room | boat.occupied
    last = placement_value(boat, mask_of([[21, 4]]), None)
    elsewhere = placement_value(boat, mask_of([[19, 4]]), None)
    assert last - elsewhere > 4


def test_covering_rats_and_not_leaving_lonely_gaps() -> None:
    boat = _boat([(None, [[4, 2]])])
    on_rats = placement_value(boat, mask_of([[5, 2], [6, 2]]), None)  # two rats
    beside = placement_value(boat, mask_of([[4, 3], [4, 4]]), None)
    assert on_rats > beside
    walled = _boat([(None, [[3, 3], [3, 5], [4, 4]])])  # (3, 4) is free between three tiles
    gap = placement_value(walled, mask_of([[2, 4]]), None)  # would wall (3, 4) in
    fine = placement_value(walled, mask_of([[5, 4]]), None)
    assert fine > gap


def test_the_bot_walks_to_and_takes_the_best_discovery() -> None:
    game = new_game("duel", 2, 4)
    bots = [GreedyDuelBot(0, 4), GreedyDuelBot(1, 4)]
    while game.phase == "choose_boat":
        seat = game.pending()[0]
        game.apply(seat, bots[seat].act(game, seat))
    seat = game.current
    game.island = [None] * 16
    game.island[4] = 8  # fish for colours: worth nothing on an empty boat
    blue = next(c.id for c in duel_data().cats if c.colour == "blue" and c.shape.size == 6)
    game.island[3] = blue  # two steps away from space 1
    game.state_changed()
    while game.current == seat and game.phase != "return_cat":
        action = bots[seat].act(game, seat)
        assert isinstance(bots[seat].last_note, str)
        game.apply(seat, action)
    assert [t.tile_id for t in game.boats[seat].tiles] == [blue]


def test_registered_as_the_duel_greedy_bot() -> None:
    bot = make_bot("greedy", "duel", 1, 9)
    assert isinstance(bot, GreedyDuelBot)
    assert bot.name == "greedy" and bot.trusted and bot.last_note is None
    bot.close()


def test_every_phase_that_asks_a_decision_has_a_handler() -> None:
    """``act`` looks the phase up in an explicit table: a phase renamed or added fails here
    (and ``act`` raises) instead of finding no handler by a name built at run time."""
    assert set(GreedyDuelBot(0, 0)._handlers) == set(PHASE_KINDS)
