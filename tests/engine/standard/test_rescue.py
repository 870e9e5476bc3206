"""Rescue cards and rescue turns: speed and turn order (stable ties), baskets (permanent,
full, two halves; a lone half is useless and discarded), 3/5 fish prices, fish never
negative, map rewards (own colour only, optional, blocking until settled), extra cats."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.modes.standard import Step
from engine.modes.standard.phases.rescue import basket_kinds

from .helpers import (
    act,
    cat,
    choose_and_reveal,
    empty_hands,
    game,
    give,
    jump,
    kinds,
    placement_avoiding,
    placement_covering,
    rescue_turn,
    set_fields,
)

FULL_SPEED_1 = (43, 44, 45)
FULL_SPEED_3 = (55, 56)
HALF_SPEED_0 = (15, 16, 17)
SPEED_ONLY = (7, 8)


def test_speed_sets_turn_order_and_ties_keep_the_previous_order() -> None:
    g = game(4, 5)
    before = list(g.state.turn_order)
    slow_first, slow_second, fast, last = before
    choose_and_reveal(g, {fast: SPEED_ONLY[:1], slow_first: FULL_SPEED_1[:1],
                          slow_second: FULL_SPEED_1[1:2]})
    assert [g.state.players[s].speed for s in before] == [1, 1, 4, 0]
    assert g.state.turn_order == [fast, slow_first, slow_second, last]
    assert g.step is Step.RESCUE


def test_unchosen_rescue_cards_stay_in_hand_and_chosen_ones_are_hidden_until_all_done() -> None:
    g = game(2, 3)
    empty_hands(g)
    give(g, 0, 43, 44)
    give(g, 1, 45)
    jump(g, Step.CHOOSE)
    assert set(g.pending()) == {0, 1}
    act(g, 0, "choose_rescue", 43)
    act(g, 0, "done")
    assert g.state.players[0].revealed_rescue == [] and g.state.players[0].chosen_rescue == [43]
    act(g, 1, "done")
    assert g.state.players[0].revealed_rescue == [43]
    assert g.state.players[0].hand == [44]
    assert g.state.players[1].hand == [45] and g.state.players[1].speed == 0


def test_prices_are_3_fish_left_and_5_fish_right() -> None:
    g = game()
    seat = rescue_turn(g, left=[cat(g, "red", "cat_01")], right=[cat(g, "blue", "cat_01")])
    me = g.state.players[seat]
    me.fish = 20
    me.baskets = 2
    act(g, seat, "rescue", "right", 0, "permanent")
    assert me.fish == 15
    act(g, seat, "place", g.legal_actions(seat)[0][1])
    other = 1 - seat
    act(g, other, "pass")
    act(g, seat, "rescue", "left", 0, "permanent")
    assert me.fish == 12


def test_fish_never_go_negative() -> None:
    g = game()
    seat = rescue_turn(g, left=[cat(g, "red", "cat_01")], right=[cat(g, "blue", "cat_01")])
    me = g.state.players[seat]
    me.fish = 4
    g.state_changed()
    assert {a[1] for a in g.legal_actions(seat) if a.kind == "rescue"} == {"left"}
    with pytest.raises(IllegalAction, match="not enough fish: a cat in the right field costs 5"):
        act(g, seat, "rescue", "right", 0, "permanent")
    act(g, seat, "rescue", "left", 0, "permanent")
    assert me.fish == 1


def test_two_half_baskets_make_one_basket_and_a_lone_half_is_useless() -> None:
    g = game()
    seat = g.state.turn_order[0]
    choose_and_reveal(g, {seat: HALF_SPEED_0})
    me = g.state.players[seat]
    me.baskets_used = me.baskets  # the permanent basket is spent
    set_fields(g, left=[cat(g, "red", "cat_01"), cat(g, "red", "cat_02")])
    assert basket_kinds(me) == ("half",)
    act(g, seat, "rescue", "left", 0, "half")
    assert me.revealed_rescue == [17]
    assert set(HALF_SPEED_0[:2]) <= set(g.state.played)
    assert basket_kinds(me) == ()
    act(g, seat, "place", g.legal_actions(seat)[0][1])
    # The lone half basket cannot rescue; it is discarded when the phase ends.
    assert seat not in g.pending() or "rescue" not in kinds(g, seat)
    while g.step is Step.RESCUE:
        s = g.pending()[0]
        act(g, s, "pass")
    assert 17 in g.state.discard and me.revealed_rescue == []


def test_speed_only_cards_give_no_basket() -> None:
    g = game()
    seat = g.state.turn_order[0]
    choose_and_reveal(g, {seat: SPEED_ONLY})
    me = g.state.players[seat]
    assert me.speed == 8
    me.baskets_used = me.baskets
    assert basket_kinds(me) == ()


def test_full_basket_card_is_used_up_by_one_rescue() -> None:
    g = game()
    seat = g.state.turn_order[0]
    choose_and_reveal(g, {seat: FULL_SPEED_3})
    me = g.state.players[seat]
    me.baskets_used = me.baskets
    set_fields(g, left=[cat(g, "red", "cat_01")])
    act(g, seat, "rescue", "left", 0, "full")
    assert me.revealed_rescue == [56] and 55 in g.state.played


def test_the_reveal_event_keeps_the_revealed_cards_after_they_are_used() -> None:
    # The reveal is public: the event log must keep what was shown, not a live list.
    g = game()
    seat = g.state.turn_order[0]
    choose_and_reveal(g, {seat: FULL_SPEED_3})
    me = g.state.players[seat]
    me.baskets_used = me.baskets
    set_fields(g, left=[cat(g, "red", "cat_01")])
    act(g, seat, "rescue", "left", 0, "full")
    event = next(e for e in reversed(g.events) if e["type"] == "rescue_revealed")
    assert event["cards"][str(seat)] == sorted(FULL_SPEED_3)


def test_map_reward_is_for_the_own_colour_optional_and_blocks_the_next_rescue() -> None:
    g = game()
    red, red2 = cat(g, "red", "cat_04"), cat(g, "red", "cat_05")
    seat = rescue_turn(g, left=[red, red2])
    me = g.state.players[seat]
    me.baskets = 2
    me.extra_cats = 1  # two cats this turn
    red_map = me.boat.layout.maps["red"]
    act(g, seat, "rescue", "left", 0, "permanent")
    act(g, seat, "place", placement_covering(g, seat, "cat_04", red_map))
    assert g.pending() == (seat,)
    assert kinds(g, seat) == {"take_treasure", "decline"}, "the reward comes before any rescue"
    with pytest.raises(IllegalAction):
        act(g, seat, "rescue", "left", 0, "permanent")
    act(g, seat, "decline")
    assert "rescue" in kinds(g, seat)
    act(g, seat, "rescue", "left", 0, "permanent")
    act(g, seat, "place", g.legal_actions(seat)[0][1])
    assert me.extra_cats == 0


def test_covering_another_colours_map_gives_nothing() -> None:
    g = game()
    red = cat(g, "red", "cat_04")
    seat = rescue_turn(g, left=[red])
    me = g.state.players[seat]
    act(g, seat, "rescue", "left", 0, "permanent")
    act(g, seat, "place", placement_covering(g, seat, "cat_04", me.boat.layout.maps["blue"]))
    assert g.pending() != (seat,) or "take_treasure" not in kinds(g, seat)
    assert not any(e["type"] == "map_reward" for e in g.events)


def test_taking_the_map_reward_places_a_common_treasure() -> None:
    g = game()
    seat = rescue_turn(g, left=[cat(g, "green", "cat_04")])
    me = g.state.players[seat]
    act(g, seat, "rescue", "left", 0, "permanent")
    act(g, seat, "place", placement_covering(g, seat, "cat_04", me.boat.layout.maps["green"]))
    before = len(g.state.supply.common["L_tromino_3"])
    act(g, seat, "take_treasure", "L_tromino_3")
    assert len(g.state.supply.common["L_tromino_3"]) == before - 1
    act(g, seat, "place", g.legal_actions(seat)[0][1])
    assert [t.kind for t in me.boat.tiles] == ["cat", "common_treasure"]


def test_after_a_rescue_the_turn_ends_with_done_not_pass() -> None:
    g = game()
    cats = [cat(g, "red", f"cat_0{i}") for i in range(1, 5)]
    seat = rescue_turn(g, left=cats)
    me = g.state.players[seat]
    me.baskets = 3
    me.extra_cats = 1
    act(g, seat, "rescue", "left", 0, "permanent")
    act(g, seat, "place", placement_avoiding(g, seat, "cat_01", me.boat.layout.maps["red"]))
    assert g.pending() == (seat,)
    assert kinds(g, seat) == {"rescue", "done"}
    with pytest.raises(IllegalAction, match="'done', not 'pass'"):
        act(g, seat, "pass")
    act(g, seat, "done")
    assert me.extra_cats == 0, "the extra-cat effect was used by this turn"
    assert g.pending() == (1 - seat,)


def test_one_cat_per_turn_and_passing_is_final() -> None:
    g = game()
    cats = [cat(g, "red", f"cat_0{i}") for i in range(1, 5)]
    seat = rescue_turn(g, left=cats)
    me, other = g.state.players[seat], 1 - seat
    me.baskets = 3
    act(g, seat, "rescue", "left", 0, "permanent")
    act(g, seat, "place", placement_avoiding(g, seat, "cat_01", me.boat.layout.maps["red"]))
    assert g.pending() == (other,), "one cat per turn"
    act(g, other, "pass")
    act(g, seat, "rescue", "left", 0, "permanent")
    act(g, seat, "place", g.legal_actions(seat)[0][1])
    assert g.pending() == (seat,), "the other seat passed: it has no more turns"
    act(g, seat, "pass")
    assert g.step is not Step.RESCUE, "everybody passed: the phase is over"
    assert set(cats[2:]) <= set(g.state.removed), "the cats left in the fields fled"


def test_phase_ends_when_the_fields_are_empty() -> None:
    g = game()
    seat = rescue_turn(g, left=[cat(g, "red", "cat_01")])
    act(g, seat, "rescue", "left", 0, "permanent")
    act(g, seat, "place", g.legal_actions(seat)[0][1])
    assert g.step is not Step.RESCUE
