"""Observations show a seat only what it may know.

The main check builds a twin of a running game whose hidden information differs (other
seats' hands, draft piles, kept and drawn cards, private lessons, chosen rescue cards are
swapped with deck cards; bag and deck are reshuffled) and requires the seat's observation
to be identical in both. Further checks: simultaneous choices do not show before everybody
has chosen, and the observation is plain JSON.
"""

from __future__ import annotations

import json

import pytest

from engine.modes.standard import Step
from engine.rng import Rng

from .helpers import act, empty_hands, game, give, jump, run_until, to_pile, twin_with_other_secrets


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_hidden_information_never_reaches_an_observation(seats: int) -> None:
    checked = 0
    for seed in (11, 12):
        g = game(seats, seed)
        rng = Rng(seed, "obs-test")
        step = 0
        while not g.is_over():
            if step % 9 == 0:
                for seat in range(seats):
                    twin = twin_with_other_secrets(g, seat, rng)
                    assert twin.observation(seat) == g.observation(seat)
                    checked += 1
            seat = g.pending()[0]
            legal = g.legal_actions(seat)
            g.apply_unchecked(seat, legal[rng.randbelow(len(legal))])
            step += 1
    assert checked > 50


def test_the_twin_check_would_catch_a_leak() -> None:
    """The twin really differs where it must (so the test above can fail)."""
    g = game(2, 3)
    twin = twin_with_other_secrets(g, 0, Rng(1, "x"))
    assert twin.state.players[1].draft_pile != g.state.players[1].draft_pile
    assert twin.state.deck != g.state.deck and twin.state.bag != g.state.bag
    assert twin.observation(1) != g.observation(1)


def test_a_draft_pick_shows_only_that_the_seat_has_picked() -> None:
    g = game(3, 4)
    before = g.observation(0)
    g.apply(1, g.legal_actions(1)[5])
    after = g.observation(0)
    assert after.pop("pending") == [0, 2] and before.pop("pending") == [0, 1, 2]
    assert after == before


def test_purchases_stay_hidden_until_everybody_is_done() -> None:
    g = game(2, 5)
    run_until(g, Step.BUY)
    empty_hands(g)
    me, other = g.state.players
    g.state.discard.extend(other.kept)
    other.kept.clear()
    to_pile(g, 1, "kept", 43, 55)
    give(g, 1, 90)
    before = g.observation(0)
    act(g, 1, "buy", 43)
    act(g, 1, "play", 90)
    assert g.observation(0) == before, "fish, hand size and played cards look unchanged"
    assert g.observation(1)["players"][1]["fish"] == other.fish, "the seat sees its own fish"
    act(g, 1, "done")
    while g.step is Step.BUY:
        act(g, g.pending()[0], "done")
    view = g.observation(0)["players"][1]
    assert view["fish"] == other.fish and view["hand_count"] == len(other.hand)


def test_chosen_rescue_cards_stay_hidden_until_the_reveal() -> None:
    g = game(2, 6)
    empty_hands(g)
    give(g, 0, 43)
    give(g, 1, 44, 7)
    jump(g, Step.CHOOSE)
    before = g.observation(0)
    act(g, 1, "choose_rescue", 7)
    assert g.observation(0) == before
    assert g.observation(1)["you"]["chosen_rescue"] == [7]
    act(g, 1, "done")
    act(g, 0, "done")
    assert g.observation(0)["players"][1]["revealed_rescue"] == [7]


def test_private_parts_are_the_seats_own_and_bag_and_deck_are_counts() -> None:
    g = game(4, 7)
    view = g.observation(2)
    json.dumps(view)
    assert view["you"]["seat"] == 2 and len(view["you"]["draft_pile"]) == 7
    for other in (0, 1, 3):
        assert "hand" not in view["players"][other]
        assert "draft_pile" not in view["players"][other]
    assert view["bag_count"] == len(g.state.bag) and view["deck_count"] == len(g.state.deck)
    assert "bag" not in view and "deck" not in view
    assert view["decision"]["decision"] == "draft"
    spectator = g.spectator_view()
    json.dumps(spectator)
    assert all("draft_pile" in p for p in spectator["players"])
