"""Inside a turn: the selection action, cats and their placement, fish icons, treasure maps,
and the treasure / extra-discovery fish actions with their preconditions."""

from __future__ import annotations

import pytest

from engine import Action, IllegalAction
from engine.boat import Tile, cell_index, mask_of, neighbours
from engine.modes.duel.data import duel_data
from engine.modes.duel.game import CODEC, PHASE_KINDS, WHY_NOT

CATS = duel_data().cats


def _cat(colour: str, shape: str) -> int:
    return next(c.id for c in CATS if c.colour == colour and c.shape.key == shape)


def _selects(game, seat) -> list[int]:
    return sorted(a[1] for a in game.legal_actions(seat) if a[0] == "select")


def test_select_a_touched_cat_then_place_it(kit) -> None:
    game = kit.game()
    seat = game.current
    square = _cat("red", "T_tetromino")
    kit.set_island(game, {1: square, 2: 7, 5: _cat("blue", "X_pentomino")})
    kit.walk(game, 2, 3)
    assert _selects(game, seat) == [1, 2]  # the start space counts; 5 was not touched
    with pytest.raises(IllegalAction, match="did not touch space 5"):
        game.apply(seat, {"kind": "select", "space": 5})
    with pytest.raises(IllegalAction, match="space 3 is empty"):
        game.apply(seat, {"kind": "select", "space": 3})
    game.apply(seat, {"kind": "select", "space": 1})
    assert game.phase == "place_cat" and game.island[1] is None
    legal = game.legal_actions(seat)
    assert all(a[0] == "place" for a in legal)
    assert len(legal) > 100  # an empty boat: anywhere
    with pytest.raises(IllegalAction, match="not a rotation or reflection"):
        game.apply(seat, {"kind": "place", "cells": [[5, 4], [6, 4]]})
    cells = [[5, 3], [5, 4], [6, 4], [5, 5]]
    game.apply(seat, {"kind": "place", "cells": cells})
    boat = game.boats[seat]
    assert [(t.kind, t.colour, t.tile_id) for t in boat.tiles] == [("cat", "red", square)]
    assert boat.occupied == mask_of(cells)
    assert game.phase == "act" and _selects(game, seat) == []  # one selection per turn
    with pytest.raises(IllegalAction, match="already made your selection"):
        game.apply(seat, {"kind": "select", "space": 2})


def test_later_tiles_must_touch_the_boats_tiles(kit) -> None:
    game = kit.game()
    seat = game.current
    kit.set_island(game, {1: _cat("red", "T_tetromino")})
    game.boats[seat].place(Tile("common_treasure", None, "monomino_1", mask_of([[3, 4]]), 45))
    kit.walk(game, 2, 3)
    game.apply(seat, {"kind": "select", "space": 1})
    with pytest.raises(IllegalAction, match="must touch a tile"):
        game.apply(seat, {"kind": "place", "cells": [[8, 3], [8, 4], [9, 4], [8, 5]]})
    first = 1 << cell_index(3, 4)
    legal = game.legal_actions(seat)
    assert len(legal) > 0
    assert all(neighbours(a[1]) & first and not a[1] & first for a in legal)


def test_a_cat_that_does_not_fit_cannot_be_selected(kit) -> None:
    game = kit.game()
    seat = game.current
    layout = game.boats[seat].layout
    hole = mask_of([[5, 4], [6, 4], [5, 5], [6, 5]])  # a 2x2 gap: only the blue square fits
    game.boats[seat].place(Tile("common_treasure", None, "custom", layout.cells_mask & ~hole, 45))
    kit.set_island(game, {1: _cat("blue", "O_tetromino"), 6: _cat("blue", "S_tetromino")})
    kit.walk(game, 2, 6)
    assert _selects(game, seat) == [1]
    with pytest.raises(IllegalAction, match="cat on space 6 does not fit"):
        game.apply(seat, {"kind": "select", "space": 6})


def test_a_fish_icon_cat_gives_a_fish(kit) -> None:
    game = kit.game()
    seat = game.current
    fishy = next(c for c in CATS if c.fish and c.colour == "green")
    kit.set_island(game, {1: fishy.id})
    kit.walk(game, 2, 3)
    game.apply(seat, {"kind": "select", "space": 1})
    game.apply(seat, 0)
    assert game.fish[seat] == 4


def test_own_colour_map_gives_a_treasure_which_may_be_declined(kit) -> None:
    game = kit.game()
    seat = game.current
    layout = game.boats[seat].layout
    assert layout.maps["blue"] == mask_of([[9, 7]])
    kit.set_island(game, {1: _cat("blue", "O_tetromino")})
    kit.walk(game, 2, 3)
    game.apply(seat, {"kind": "select", "space": 1})
    game.apply(seat, {"kind": "place", "cells": [[9, 7], [10, 7], [9, 8], [10, 8]]})
    assert game.phase == "place_treasure" and game.treasures_due == 1
    legal = game.legal_actions(seat)
    assert Action("decline") in legal and legal[-1] == Action("decline")
    assert Action("place", mask_of([[8, 7]])) in legal  # any shape still in the supply
    assert Action("place", mask_of([[8, 7], [8, 8], [7, 8]])) in legal  # an L
    game.apply(seat, {"kind": "place", "cells": [[8, 7], [7, 7]]})
    assert game.supply["domino_2"] == [52, 53, 54, 55, 56, 57]
    assert game.boats[seat].tiles[-1].kind == "common_treasure"
    assert game.phase == "act"
    # a second blue-map bonus is impossible (the map is covered); declining works the same way
    game.treasures_due = 1
    game._settle()
    game.apply(seat, {"kind": "decline"})
    assert game.phase == "act" and game.treasures_due == 0


def test_another_colour_on_a_map_gives_nothing(kit) -> None:
    game = kit.game()
    seat = game.current
    kit.set_island(game, {1: _cat("blue", "S_tetromino")})
    assert game.boats[seat].layout.maps["green"] == mask_of([[12, 2]])
    kit.walk(game, 2, 3)
    game.apply(seat, {"kind": "select", "space": 1})
    game.apply(seat, {"kind": "place", "cells": [[11, 2], [12, 2], [12, 3], [13, 3]]})
    assert game.phase == "act" and game.treasures_due == 0  # a blue cat on the green map


def test_fish_action_treasure(kit) -> None:
    game = kit.game()
    seat = game.current
    kit.walk(game, 2, 3)
    game.apply(seat, {"kind": "fish_action", "action": "treasure"})
    assert game.fish[seat] == 1 and game.phase == "place_treasure"
    with pytest.raises(IllegalAction, match="not possible now"):
        game.apply(seat, {"kind": "end_turn"})
    with pytest.raises(IllegalAction, match="not a treasure shape"):
        game.apply(seat, {"kind": "place", "cells": [[3, 4], [4, 4], [5, 4], [6, 4]]})
    game.apply(seat, {"kind": "place", "cells": [[3, 4], [4, 4], [5, 4]]})
    assert [t.shape for t in game.boats[seat].tiles] == ["I_tromino_3"]
    assert len(game.supply["I_tromino_3"]) == 6
    assert game.phase == "act"
    assert not game.took[seat]  # buying a treasure is not a selection


def test_fish_action_treasure_needs_supply_and_room(kit) -> None:
    game = kit.game()
    seat = game.current
    kit.walk(game, 2, 3)
    for key in game.supply:
        game.supply[key] = []
    with pytest.raises(IllegalAction, match="treasure supply is empty"):
        game.apply(seat, {"kind": "fish_action", "action": "treasure"})
    game.supply["domino_2"] = [52]
    layout = game.boats[seat].layout
    lone = mask_of([[5, 4]])
    game.boats[seat].place(Tile("common_treasure", None, "custom", layout.cells_mask & ~lone, 45))
    with pytest.raises(IllegalAction, match="no treasure left in the supply fits"):
        game.apply(seat, {"kind": "fish_action", "action": "treasure"})
    game.supply["monomino_1"] = [45]
    game.apply(seat, {"kind": "fish_action", "action": "treasure"})
    assert list(game.legal_actions(seat)) == [Action("place", lone), Action("decline")]


def test_fish_action_extra_discovery(kit) -> None:
    game = kit.game()
    seat = game.current
    kit.set_island(game, {1: _cat("red", "T_tetromino"), 2: 8, 3: _cat("blue", "X_pentomino")})
    kit.walk(game, 2, 3)
    with pytest.raises(IllegalAction, match="make your selection first"):
        game.apply(seat, {"kind": "fish_action", "action": "discovery"})
    game.apply(seat, {"kind": "select", "space": 2})  # card 8: fish for colours, none yet
    assert game.fish[seat] == 3
    game.apply(seat, {"kind": "fish_action", "action": "discovery"})
    assert game.fish[seat] == 0 and game.phase == "extra_selection"
    assert sorted(a[1] for a in game.legal_actions(seat)) == [1, 3]
    game.apply(seat, {"kind": "select", "space": 3})
    game.apply(seat, 0)
    assert game.phase == "act" and game.boats[seat].tiles[0].colour == "blue"
    game.fish[seat] = 3
    game.apply(seat, {"kind": "fish_action", "action": "discovery"})  # any number of them
    game.apply(seat, {"kind": "select", "space": 1})
    game.apply(seat, 0)
    with pytest.raises(IllegalAction, match="holds a discovery you can take"):
        game.fish[seat] = 3
        game.apply(seat, {"kind": "fish_action", "action": "discovery"})


def test_end_turn_only_after_the_mandatory_steps_and_resolutions(kit) -> None:
    game = kit.game()
    seat = game.current
    assert Action("end_turn") not in game.legal_actions(seat)
    kit.walk(game, 2, 3)
    assert game.legal_actions(seat)[-1] == Action("end_turn")
    with pytest.raises(IllegalAction, match="not possible now: select, buy a fish action"):
        game.apply(seat, {"kind": "decline"})


def test_the_rulebook_example_turn(kit) -> None:
    """Rulebook "Example turn": A -> B -> C, one fish for an extra step to D, the instant card
    on D gives 3 fish, which buy an extra discovery: the red cat on A, the start space."""
    game = kit.game()
    seat = game.current
    game.boats[seat] = kit.boat("O", [("blue", [[5, 4]]), ("green", [[6, 4]]),
                                      ("orange", [[7, 4]])])
    red = _cat("red", "T_tetromino")
    kit.set_island(game, {1: red, 11: 8})  # card 8: 1 fish per colour on the boat, at most 3
    game.fish[seat] = 1
    kit.walk(game, 6, 7)  # A=1 -> B=6 -> C=7
    game.apply(seat, {"kind": "fish_action", "action": "move"})
    kit.walk(game, 11)  # D
    assert game.fish[seat] == 0
    game.apply(seat, {"kind": "select", "space": 11})
    assert game.fish[seat] == 3  # fish just gained may be spent at once (FAQ)
    game.apply(seat, {"kind": "fish_action", "action": "discovery"})
    assert _selects(game, seat) == [1]
    game.apply(seat, {"kind": "select", "space": 1})
    game.apply(seat, 0)
    assert game.fish[seat] == 0 and game.phase == "act"
    assert game.boats[seat].tiles[-1].tile_id == red


def test_every_action_kind_has_its_precise_reason() -> None:
    """``illegal_reason`` looks the kind up in an explicit table: a kind of the catalogue (or
    of a phase) renamed or added fails here instead of at a bot's first illegal action."""
    kinds = {kind for phase in PHASE_KINDS.values() for kind in phase}
    assert set(WHY_NOT) == set(CODEC.specs) == kinds
