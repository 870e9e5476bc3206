"""Family set-up: tiles and supply, and the simultaneous keep-2-of-3 lesson choice."""

from __future__ import annotations

import json

import pytest

from engine import Action, IllegalAction
from engine.cards import FAMILY_LESSON_IDS

from .helpers import dealt, new_family


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_each_player_is_dealt_three_distinct_family_lessons(seats: int) -> None:
    game = new_family(seats, 11)
    hands = dealt(game)
    cards = [c for hand in hands for c in hand]
    assert all(len(hand) == 3 for hand in hands)
    assert len(set(cards)) == 3 * seats
    assert set(cards) <= set(FAMILY_LESSON_IDS)
    assert game.pending() == tuple(range(seats))  # simultaneous choice
    assert len(game.legal_actions(0)) == 3  # the three pairs


def test_common_treasures_follow_the_player_count_and_there_is_no_oshax() -> None:
    for seats, per_shape in ((2, 5), (3, 8), (4, 11)):
        game = new_family(seats, 1)
        assert {k: len(v) for k, v in game.state.supply.common.items()} == {
            "monomino_1": per_shape, "domino_2": per_shape, "L_tromino_3": per_shape,
            "I_tromino_3": per_shape}
        assert game.state.supply.oshax == []
        oshax = [t.id for t in game.state.tiles if t.kind == "oshax"]
        assert sorted(game.state.removed) == oshax  # out of the game from the start
        assert all(p.fish == 0 for p in game.state.players)


def test_keep_two_is_simultaneous_and_private_until_everyone_chose() -> None:
    game = new_family(3, 5)
    hands = dealt(game)
    first = game.legal_actions(1)[0]
    game.apply(1, game.encode_action(first))
    assert game.pending() == (0, 2)
    obs0 = game.observation(0)
    assert obs0["you"]["hand"] == hands[0]
    assert all("hand" not in p for p in obs0["players"])
    text = json.dumps(obs0)
    assert all(str(c) not in text.replace(str(hands[0]), "") or c in hands[0]
               for c in hands[1])
    assert obs0["decision"]["chosen"] == [False, True, False]
    with pytest.raises(IllegalAction):
        game.apply(1, first)  # already chose
    game.apply(0, game.legal_actions(0)[2])
    game.apply(2, game.legal_actions(2)[1])
    players = game.state.players
    assert sorted(players[1].private_lessons) == list(first[1])
    assert all(len(p.private_lessons) == 2 and not p.hand for p in players)
    assert sorted(game.state.discard) == sorted(
        next(c for c in hands[s] if c not in players[s].private_lessons) for s in range(3))
    assert game.frames[-1].name == "family_turn"


def test_keeping_a_card_not_dealt_or_the_wrong_number_is_illegal() -> None:
    game = new_family(2, 5)
    mine, theirs = dealt(game)
    cases = (((mine[0], theirs[0]), "dealt to you"), ((mine[0],), "exactly 2"),
             ((mine[0], mine[0]), "exactly 2"), ((mine[0], mine[1], mine[2]), "exactly 2"))
    for bad, words in cases:
        with pytest.raises(IllegalAction) as err:
            game.apply(0, Action("keep", bad))
        assert words in err.value.reason
    with pytest.raises(IllegalAction):
        game.apply(0, Action("pass"))
