"""The Oshax: exactly two steps without revisiting, the touched set, extra steps, jumps."""

from __future__ import annotations

import pytest

from engine import Action, IllegalAction
from engine.modes.duel.data import duel_data


def _moves(game, seat) -> list[int]:
    return sorted(a[1] for a in game.legal_actions(seat) if a[0] == "move")


def test_a_turn_starts_with_two_mandatory_steps(kit) -> None:
    game = kit.game()
    seat = game.current
    assert game.phase == "move" and game.oshax == 1
    assert kit.kinds(game, seat) == ["move", "move"]
    assert _moves(game, seat) == [2, 6]
    kit.walk(game, 2)
    assert game.phase == "move"  # one more step is due: no selection, no fish, no end yet
    assert _moves(game, seat) == [3, 6, 7, 8]  # 1 was visited this turn
    with pytest.raises(IllegalAction, match="already touched space 1"):
        game.apply(seat, {"kind": "move", "to": 1})
    with pytest.raises(IllegalAction, match="not possible now: move the Oshax"):
        game.apply(seat, {"kind": "end_turn"})
    kit.walk(game, 7)
    assert game.phase == "act"
    assert game.oshax == 7
    assert game.observation(seat)["turn"]["touched"] == [1, 2, 7]


def test_steps_follow_the_footprints(kit) -> None:
    game = kit.game()
    with pytest.raises(IllegalAction, match="space 8 is not next to the Oshax's space 1"):
        game.apply(game.current, {"kind": "move", "to": 8})
    with pytest.raises(IllegalAction, match="no island space 16"):
        game.apply(game.current, {"kind": "move", "to": 16})


def test_a_second_step_always_exists() -> None:
    """From every space, after any first step, some untouched neighbour remains."""
    island = duel_data().island
    for start in range(1, 16):
        touched = 1 << start
        firsts = island.targets(start, touched)
        assert firsts
        for first in range(1, 16):
            if firsts >> first & 1:
                assert island.targets(first, touched | 1 << first), (start, first)


def test_the_next_turn_starts_where_the_oshax_stopped(kit) -> None:
    game = kit.game()
    first = game.current
    kit.walk(game, 6, 7)
    game.apply(first, {"kind": "end_turn"})
    assert game.current == 1 - first and game.oshax == 7
    assert game.observation(0)["turn"]["touched"] == [7]
    assert _moves(game, game.current) == [2, 6, 8, 11, 12, 13]


def test_an_extra_step_costs_one_fish_and_extends_the_touched_set(kit) -> None:
    game = kit.game()
    seat = game.current
    kit.walk(game, 2, 3)
    game.apply(seat, {"kind": "fish_action", "action": "move"})
    assert game.fish[seat] == 2 and game.phase == "move"
    assert _moves(game, seat) == [4, 8]
    with pytest.raises(IllegalAction, match="not next to"):
        game.apply(seat, {"kind": "move", "to": 12})
    kit.walk(game, 4)
    assert game.phase == "act"
    assert game.observation(seat)["turn"]["touched"] == [1, 2, 3, 4]
    # several extra steps in one turn
    game.apply(seat, {"kind": "fish_action", "action": "move"})
    kit.walk(game, 5)
    assert game.fish[seat] == 1 and game.observation(seat)["turn"]["touched"] == [1, 2, 3, 4, 5]


def test_no_extra_step_from_a_dead_end(kit) -> None:
    game = kit.game()
    kit.walk(game, 6, 2)
    game.apply(game.current, {"kind": "end_turn"})
    seat = game.current
    kit.walk(game, 6, 1)  # 1's neighbours (2 and 6) are both touched now
    assert Action("fish_action", "move") not in game.legal_actions(seat)
    with pytest.raises(IllegalAction, match="no extra step"):
        game.apply(seat, {"kind": "fish_action", "action": "move"})


def test_a_jump_goes_anywhere_and_touches_only_the_landing(kit) -> None:
    game = kit.game()
    seat = game.current
    kit.walk(game, 2, 3)
    game.apply(seat, {"kind": "fish_action", "action": "jump"})
    assert game.fish[seat] == 1
    assert _moves(game, seat) == [1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
    kit.walk(game, 15)
    assert game.phase == "act" and game.oshax == 15
    assert game.observation(seat)["turn"]["touched"] == [1, 2, 3, 15]  # nothing in between
    # the step after a jump is a normal step again
    game.fish[seat] = 1
    game.apply(seat, {"kind": "fish_action", "action": "move"})
    assert _moves(game, seat) == [9, 10, 14]


def test_fish_actions_need_enough_fish(kit) -> None:
    game = kit.game()
    seat = game.current
    kit.walk(game, 2, 3)
    game.fish[seat] = 1
    legal = game.legal_actions(seat)
    assert Action("fish_action", "move") in legal
    assert Action("fish_action", "jump") not in legal
    with pytest.raises(IllegalAction, match="'jump' costs 2 fish; you have 1"):
        game.apply(seat, {"kind": "fish_action", "action": "jump"})
    game.fish[seat] = 0
    assert [a for a in game.legal_actions(seat) if a[0] == "fish_action"] == []
    with pytest.raises(IllegalAction, match="unknown fish action"):
        game.apply(seat, {"kind": "fish_action", "action": "fly"})


def test_a_jump_may_land_on_a_space_visited_this_turn(kit) -> None:
    """Rulebook p.10: a jump places the Oshax "in any space"; the no-revisit rule belongs to
    the movement action ("it cannot move back"). Landing where it has been touches nothing new
    but leaves the shared Oshax there for the opponent."""
    game = kit.game()
    seat = game.current
    kit.walk(game, 2, 3)
    game.apply(seat, {"kind": "fish_action", "action": "jump"})
    assert _moves(game, seat) == [1, 2] + list(range(4, 16))  # every space but its own
    with pytest.raises(IllegalAction, match="already on space 3"):
        game.apply(seat, {"kind": "move", "to": 3})
    kit.walk(game, 1)  # back to the start space
    assert game.phase == "act" and game.oshax == 1 and game.fish[seat] == 1
    assert game.observation(seat)["turn"]["touched"] == [1, 2, 3]
    # an extra step after it is a normal step: neighbours of 1 not touched this turn
    assert Action("fish_action", "move") in game.legal_actions(seat)
    game.apply(seat, {"kind": "fish_action", "action": "move"})
    assert _moves(game, seat) == [6]
