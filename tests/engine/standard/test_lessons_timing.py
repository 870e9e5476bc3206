"""When lessons are read: bought lessons go to the table in the read-lessons step (private
face down, public face up with the colour its owner declares); lessons acquired later wait
for the next day, and after day 5's read step they are never read nor scored."""

from __future__ import annotations

from engine.modes.standard import Step

from .helpers import act, empty_hands, game, give, jump, passive, run_until, to_pile


def test_bought_lessons_are_read_after_buying() -> None:
    g = game(2, 8)
    run_until(g, Step.BUY)
    me = g.state.players[0]
    g.state.discard.extend(me.kept)
    me.kept.clear()
    to_pile(g, 0, "kept", 113, 147)
    act(g, 0, "buy", 113)
    act(g, 0, "buy", 147)
    assert {113, 147} <= set(me.hand)
    while g.step is Step.BUY:
        act(g, g.pending()[0], "done")
    run_until(g, Step.RESCUE)
    assert me.private_lessons == [113] and 113 not in me.hand
    assert (147, None) in g.state.public_lessons
    other_view = g.observation(1)
    assert other_view["players"][0]["private_lesson_count"] == 1
    assert "private_lessons" not in other_view["players"][0]


def test_public_lessons_get_their_colour_from_their_owner_when_read() -> None:
    g = game(2, 8)
    empty_hands(g)
    seat = g.state.turn_order[1]
    give(g, seat, 143, 150)
    jump(g, Step.READ)
    assert g.pending() == (seat,)
    assert {a[2] for a in g.legal_actions(seat)} == {"blue", "green", "red", "purple", "orange"}
    assert (150, None) in g.state.public_lessons
    assert g.observation(1 - seat)["public_lessons_awaiting_colour"] == [143]
    act(g, seat, "lesson_colour", 143, "orange")
    assert (143, "orange") in g.state.public_lessons
    assert g.state.public_lessons_pending == []


def test_a_lesson_bought_after_the_read_step_waits_for_the_next_day() -> None:
    g = game(2, 9)
    empty_hands(g)
    seat = g.state.turn_order[0]
    give(g, seat, 121)
    g.state.day = 4
    jump(g, Step.RESCUE)
    assert 121 in g.state.players[seat].hand, "not read on day 4: it arrived after the step"
    run_until(g, Step.RESCUE, passive, day=5)
    assert g.state.day == 5 and g.state.players[seat].private_lessons == [121]


def test_lessons_bought_after_day_five_read_step_are_never_read_nor_scored() -> None:
    g = game(2, 10)
    empty_hands(g)
    seat = g.state.turn_order[0]
    g.state.deck.remove(120)
    g.state.deck.append(120)  # the next card drawn
    give(g, seat, 71)
    g.state.day = 5
    jump(g, Step.RARE_FINDS)
    act(g, seat, "play", 71)
    act(g, seat, "buy", 120)
    act(g, seat, "done")
    while not g.is_over():
        s = g.pending()[0]
        act(g, s, "pass" if "pass" in {a.kind for a in g.legal_actions(s)} else "done")
    me = g.state.players[seat]
    assert 120 in me.hand and 120 not in me.private_lessons
    lessons = g.result()["breakdown"][seat]["lessons"]
    assert 120 not in [le["card"] for le in lessons]
