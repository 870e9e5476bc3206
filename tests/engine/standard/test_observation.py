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

from engine.modes.standard import StandardGame, Step
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


def test_a_draft_pick_shows_nothing_to_the_other_seats() -> None:
    """Not even that the seat has picked: ``pending`` names only the observer."""
    g = game(3, 4)
    before = g.observation(0)
    g.apply(1, g.legal_actions(1)[5])
    after = g.observation(0)
    assert after["pending"] == before["pending"] == [0]
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


# --- side channels (issue 11): who is asked must not show what a seat holds ----------------------


def _buy_step(seller_card: int) -> StandardGame:
    """3 seats at the buy step, seat 1 with 2 fish and one kept card: ``seller_card``."""
    g = game(3, 21)
    run_until(g, Step.BUY)
    empty_hands(g)
    for p in g.state.players:
        g.state.discard.extend(p.kept)
        p.kept.clear()
    to_pile(g, 0, "kept", 113)  # seat 0 can afford its card (cost 2)
    to_pile(g, 2, "kept", 114)
    g.state.players[1].fish = 2
    to_pile(g, 1, "kept", seller_card)
    jump(g, Step.BUY)
    return g


def test_the_buy_step_does_not_show_who_can_afford_a_kept_card() -> None:
    """Seat 1 holds a kept card it can afford (148, cost 1) or one it cannot (55, cost 3):
    the engine asks it only in the first case, and the others' observations must not say."""
    affords, cannot = _buy_step(148), _buy_step(55)
    assert 1 in affords.pending() and 1 not in cannot.pending()
    for seat in (0, 2):
        assert affords.observation(seat) == cannot.observation(seat)
    assert affords.observation(0)["pending"] == [0]
    assert affords.observation(1)["pending"] == [1]


def _choose_step(card_of_seat_1: int) -> StandardGame:
    g = game(3, 22)
    empty_hands(g)
    give(g, 0, 7)
    give(g, 2, 8)
    give(g, 1, card_of_seat_1)
    jump(g, Step.CHOOSE)
    return g


def test_choosing_rescue_cards_does_not_show_who_holds_them() -> None:
    """Seat 1 holds a rescue card (9) or a lesson (113), one card either way."""
    holds, not_holds = _choose_step(9), _choose_step(113)
    assert 1 in holds.pending() and 1 not in not_holds.pending()
    for seat in (0, 2):
        assert holds.observation(seat) == not_holds.observation(seat)
    assert holds.observation(2)["pending"] == [2]


def test_a_spectator_still_sees_everybody_who_is_asked() -> None:
    g = _choose_step(9)
    assert g.spectator_view()["pending"] == [0, 1, 2]
