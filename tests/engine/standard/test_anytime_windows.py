"""When anytime cards may be played: rounds ask only seats holding a card playable at that
moment, in turn order, repeating while somebody played; the buy step allows only gain-fish
cards held before it began; each other player's rescue turn opens a round; a last round
comes before scoring."""

from __future__ import annotations

from engine.modes.standard import Step

from .helpers import (
    act,
    cat,
    empty_hands,
    game,
    give,
    jump,
    kinds,
    put_tile,
    rescue_turn,
    to_pile,
)


def test_a_round_asks_only_seats_with_a_playable_card_and_repeats_while_someone_plays() -> None:
    g = game(3, 2)
    a, b, c = g.state.turn_order
    empty_hands(g)
    give(g, b, 84, 85)
    give(g, c, 86)  # needs two private lessons on the table: not playable
    jump(g, Step.BEFORE_BUY)
    assert g.pending() == (b,)
    assert kinds(g, b) == {"play", "done"}
    act(g, b, "play", 84)
    assert g.pending() == (b,), "the round went round again because somebody played"
    act(g, b, "play", 85)
    assert g.step is not Step.BEFORE_BUY
    assert g.state.players[b].baskets == 3


def test_done_ends_the_round_for_that_seat() -> None:
    g = game(3, 2)
    a, b, c = g.state.turn_order
    empty_hands(g)
    give(g, a, 84)
    give(g, c, 85)
    jump(g, Step.BEFORE_READ)
    assert g.pending() == (a,)
    act(g, a, "done")
    assert g.pending() == (c,)
    act(g, c, "done")
    assert g.step is not Step.BEFORE_READ


def test_buying_allows_gain_fish_cards_held_before_the_step_and_their_fish_pay() -> None:
    g = game(2, 4)
    seat = 0
    empty_hands(g)
    give(g, seat, 90, 84)  # gain fish per colour; gain a basket (not a buy-step card)
    for colour in ("red", "blue", "green"):
        put_tile(g, seat, cat(g, colour, "cat_01"))
    me = g.state.players[seat]
    me.fish = 2
    for p in g.state.players:
        g.state.discard.extend(p.kept)
        p.kept.clear()
    to_pile(g, seat, "kept", 55, 92, 15)  # costs 3, 2 and 0
    jump(g, Step.BUY)
    legal = set(g.legal_actions(seat))
    assert ("play", 90) in legal and ("play", 84) not in legal
    assert ("buy", 55) not in legal, "55 costs 3, the seat has 2 fish"
    act(g, seat, "play", 90)
    assert me.fish == 5
    act(g, seat, "buy", 55)
    act(g, seat, "buy", 92)
    assert me.fish == 0
    assert set(g.legal_actions(seat)) == {("buy", 15), ("done",)}, "92 was bought in this step"


def test_each_other_players_rescue_turn_opens_a_round() -> None:
    g = game(2, 3)
    cats = [cat(g, "red", "cat_01"), cat(g, "red", "cat_02")]
    first = rescue_turn(g, left=cats)
    second = 1 - first
    give(g, second, 84)
    act(g, first, "rescue", "left", 0, "permanent")
    act(g, first, "place", g.legal_actions(first)[0][1])
    # The second seat's own turn: it may play on its turn, no separate round before it.
    assert g.frames[-1].name == "rescue_turn" and g.pending() == (second,)
    assert "play" in kinds(g, second)
    act(g, second, "rescue", "left", 0, "permanent")
    act(g, second, "place", g.legal_actions(second)[0][1])
    assert g.step is not Step.RESCUE  # the fields are empty


def test_the_round_before_a_turn_skips_the_seat_whose_turn_it_is() -> None:
    g = game(2, 3)
    cats = [cat(g, "red", "cat_01"), cat(g, "red", "cat_02")]
    first = rescue_turn(g, left=cats)
    second = 1 - first
    give(g, first, 84)
    act(g, first, "rescue", "left", 0, "permanent")
    act(g, first, "place", g.legal_actions(first)[0][1])
    assert g.frames[-1].name == "anytime" and g.pending() == (first,)
    assert g.frames[-1].window == "before_rescue_turn"
    act(g, first, "done")
    assert g.frames[-1].name == "rescue_turn" and g.pending() == (second,)


def test_a_last_round_comes_before_scoring() -> None:
    g = game(2, 6)
    empty_hands(g)
    give(g, 1, 94)
    put_tile(g, 1, g.state.supply.common["domino_2"][0])
    g.state.day = 5
    jump(g, Step.END_OF_DAY)
    assert g.step is Step.FINAL_ANYTIME and g.pending() == (1,)
    fish = g.state.players[1].fish
    act(g, 1, "play", 94)
    assert g.is_over()
    assert g.result()["tiebreak"]["values"][1] == fish + 1
