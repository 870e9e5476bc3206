"""The course of a day and of the game: fields, fishing, the draft (7 cards, 2/2/2/1, passing
direction by day), end of day, five days; a short bag or deck is never refilled."""

from __future__ import annotations

import pytest

from engine.modes.family.game import FamilyGame
from engine.modes.solo.game import SoloGame
from engine.modes.standard import Step
from engine.modes.standard.game import StandardGame

from .helpers import act, game, jump, passive, play_out, run_until


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_fields_get_two_cats_per_player_each_and_rare_treasures_go_to_the_supply(
        seats: int) -> None:
    g = game(seats, 17)
    fill = next(e for e in g.events if e["type"] == "fill_fields")
    tiles = g.state.tiles
    assert len(fill["left"]) == len(fill["right"]) == 2 * seats
    rares = [t for t in fill["drawn"] if tiles[t].kind == "rare_treasure"]
    assert len(fill["drawn"]) == 4 * seats + len(rares)
    assert g.state.supply.rare == rares
    assert fill["left"] == [t for t in fill["drawn"] if tiles[t].kind == "cat"][:2 * seats]


def test_fishing_gives_twenty_fish_a_day_and_fish_carry_over() -> None:
    g = game(2, 1)
    assert [p.fish for p in g.state.players] == [20, 20]
    run_until(g, Step.DRAFT, passive, day=2)
    assert all(p.fish == 40 for p in g.state.players), "nothing was spent"


@pytest.mark.parametrize(("day", "direction"), [(1, 1), (2, -1), (3, 1), (4, -1), (5, 1)])
def test_draft_passes_left_on_odd_days_and_right_on_even_days(day: int, direction: int) -> None:
    g = game(3, 2)
    run_until(g, Step.DRAFT, passive, day=day)
    assert all(len(p.draft_pile) == 7 for p in g.state.players)
    rest = {p.seat: set(p.draft_pile) for p in g.state.players}
    for p in g.state.players:
        pick = g.legal_actions(p.seat)[0]
        rest[p.seat] -= set(pick[1])
        act(g, p.seat, "keep", *pick[1:])
    for seat, cards in rest.items():
        assert set(g.state.players[(seat + direction) % 3].draft_pile) == cards


def test_the_draft_keeps_two_two_two_then_the_last_card() -> None:
    g = game(2, 3)
    for _ in range(3):
        for seat in (0, 1):
            act(g, seat, "keep", *g.legal_actions(seat)[0][1:])
    assert g.step is not Step.DRAFT
    assert all(len(p.kept) == 7 and not p.draft_pile for p in g.state.players)


def test_end_of_day_cats_flee_and_baskets_refresh() -> None:
    g = game(2, 4)
    left = list(g.state.fields.side("left"))
    for p in g.state.players:
        p.baskets_used = p.baskets
    jump(g, Step.END_OF_DAY)
    assert set(left) <= set(g.state.removed)
    assert g.state.day == 2 and all(p.baskets_used == 0 for p in g.state.players)


def test_five_days_then_the_game_is_over() -> None:
    g = game(4, 5)
    days = set()
    while not g.is_over():
        days.add(g.state.day)
        seat = g.pending()[0]
        g.apply_unchecked(seat, passive(g, seat, g.legal_actions(seat)))
    assert days == {1, 2, 3, 4, 5}
    assert sum(1 for e in g.events if e["type"] == "end_of_day") == 5
    assert g.pending() == () and g.result()["seats"] == 4


def test_a_short_bag_gives_fewer_cats() -> None:
    g = game(2, 6)
    cats = [t for t in g.state.bag if g.state.tiles[t].kind == "cat"][:3]
    g.state.removed.extend(t for t in g.state.bag if t not in cats)
    g.state.bag = cats
    jump(g, Step.END_OF_DAY)
    run_until(g, Step.DRAFT, passive, day=2)
    assert len(g.state.fields.cats) == 3 and g.state.bag == []
    play_out(g, passive, check=True)


def test_a_short_deck_deals_fewer_cards_and_is_never_reshuffled() -> None:
    g = game(2, 7)
    for p in g.state.players:
        g.state.discard.extend(p.draft_pile)
        p.draft_pile.clear()
    g.state.discard.extend(g.state.deck[:-9])
    g.state.deck = g.state.deck[-9:]
    jump(g, Step.DRAFT)
    assert sorted(len(p.draft_pile) for p in g.state.players) == [4, 5]
    assert g.state.deck == []
    play_out(g, passive, check=True)
    assert g.state.deck == []


def test_every_step_runs_the_method_of_its_game() -> None:
    """``run_step`` looks the step up in an explicit table, made with each game class: a step
    added without its entry fails here, and each entry is that class's own method (family
    and solo override some)."""
    for kind in (StandardGame, FamilyGame, SoloGame):
        assert set(kind.step_runners) == set(Step)
        assert set(kind.DAY_STEPS) <= set(kind.step_runners)
    assert FamilyGame.step_runners[Step.RESCUE] is FamilyGame.step_rescue
    assert SoloGame.step_runners[Step.DRAFT] is SoloGame.step_draft
    assert StandardGame.step_runners[Step.DRAFT] is StandardGame.step_draft
