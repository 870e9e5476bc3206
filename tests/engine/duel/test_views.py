"""Observation and spectator view: the Duel is open except for the bag and deck order."""

from __future__ import annotations

import json

import pytest

from engine import Action, IllegalAction, MalformedAction, new_game


def test_observation_is_json_and_open(kit) -> None:
    game = kit.game(seed=3)
    obs = game.observation(0)
    json.dumps(obs)
    assert obs["you"] == 0 and obs["day"] == 1 and obs["oshax"] == 1
    assert obs["players"][1]["fish"] == 3 and obs["players"][1]["boat"] == "O"
    assert [e["space"] for e in obs["island"]] == list(range(1, 16))
    assert all(e["item"] is not None for e in obs["island"])
    assert obs["treasure_supply"] == {"monomino_1": 7, "domino_2": 7, "L_tromino_3": 7,
                                      "I_tromino_3": 7}
    assert len(obs["round_counter_cats"]) == 3
    assert obs["bag_count"] == 32 and obs["deck_count"] == 27


def test_bag_and_deck_order_are_hidden(kit) -> None:
    game = kit.game(seed=3)
    twin = game.clone()
    twin.bag.reverse()
    twin.deck.reverse()
    for seat in (0, 1):
        assert twin.observation(seat) == game.observation(seat)
        assert "bag" not in game.observation(seat) and "deck" not in game.observation(seat)
    assert game.observation(0)["bag_contents"] == sorted(game.bag)
    assert twin.spectator_view() != game.spectator_view()
    assert game.spectator_view()["bag"] == game.bag
    assert twin.state_hash() != game.state_hash()


def test_observation_of_a_wrong_seat() -> None:
    game = new_game("duel", 2, 1)
    with pytest.raises(ValueError, match="seats 0 and 1"):
        game.observation(2)


def test_malformed_actions_are_told_apart(kit) -> None:
    game = kit.game()
    seat = game.current
    with pytest.raises(MalformedAction, match="needs the field 'to'"):
        game.apply(seat, {"kind": "move"})
    with pytest.raises(MalformedAction, match="must be an integer"):
        game.apply(seat, {"kind": "move", "to": "two"})
    with pytest.raises(MalformedAction, match="unknown action kind 'fly'"):
        game.apply(seat, {"kind": "fly"})


def test_python_actions_that_do_not_fit_the_catalogue(kit) -> None:
    game = kit.game()
    seat = game.current
    for bad, reason in ((Action("move"), "takes to"), (Action("move", "2"), "type int"),
                        (Action("end_turn", 1), "takes no fields"), (Action("fly"), "unknown")):
        with pytest.raises(IllegalAction, match=reason):
            game.apply(seat, bad)


def test_catalogue_lists_every_kind() -> None:
    game = new_game("duel", 2, 1)
    kinds = [c["kind"] for c in game.codec.catalogue()]
    assert kinds == ["choose_boat", "move", "select", "place", "fish_action", "decline",
                     "end_turn", "return_cat"]
    assert all(c["doc"] for c in game.codec.catalogue())
