"""Family set-up: boats, bag, supply, and the simultaneous keep-2-of-3 lesson choice."""

from __future__ import annotations

import json

import pytest

from engine import Action, IllegalAction, new_game
from engine.cards import FAMILY_LESSON_IDS


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_each_player_is_dealt_three_distinct_family_lessons(seats: int) -> None:
    game = new_game("family", seats, 11)
    dealt = [c for cards in game.dealt for c in cards]
    assert all(len(cards) == 3 for cards in game.dealt)
    assert len(set(dealt)) == 3 * seats
    assert set(dealt) <= set(FAMILY_LESSON_IDS)
    assert game.pending() == tuple(range(seats))  # simultaneous choice
    assert len(game.legal_actions(0)) == 3  # the three pairs


def test_common_treasures_follow_the_player_count_and_there_is_no_oshax() -> None:
    for seats, per_shape in ((2, 5), (3, 8), (4, 11)):
        game = new_game("family", seats, 1)
        shapes = [game.table.tiles[i].shape for i in game.table.common_supply]
        assert len(shapes) == 4 * per_shape
        assert {shapes.count(s) for s in set(shapes)} == {per_shape}
        assert all(t.kind != "oshax" for t in game.table.tiles)
        assert len(game.table.bag) == 85 + 25


def test_keep_two_is_simultaneous_and_private_until_everyone_chose() -> None:
    game = new_game("family", 3, 5)
    first = game.legal_actions(1)[0]
    game.apply(1, game.encode_action(first))
    assert game.pending() == (0, 2)
    assert game.phase == "lessons"
    obs0 = game.observation(0)
    assert obs0["choosing_lessons"] is True
    assert "kept" not in obs0 and "dealt" not in obs0
    assert str(list(first[1])) not in json.dumps(obs0["my_lessons"])  # only seat 0's own cards
    assert obs0["lessons_chosen"] == [False, True, False]
    with pytest.raises(IllegalAction):
        game.apply(1, first)  # already chose
    game.apply(0, game.legal_actions(0)[2])
    game.apply(2, game.legal_actions(2)[1])
    assert game.phase == "rescue" and game.day == 1
    assert game.kept[1] == tuple(sorted(first[1]))
    assert sorted(game.discarded) == sorted(
        next(c for c in game.dealt[s] if c not in game.kept[s]) for s in range(3))
    assert [c["id"] for c in game.observation(1)["my_lessons"]] == list(game.kept[1])


def test_keeping_a_card_not_dealt_or_the_wrong_number_is_illegal() -> None:
    game = new_game("family", 2, 5)
    foreign = game.dealt[1][0]
    mine = game.dealt[0]
    cases = (((mine[0], foreign), "dealt to you"), ((mine[0],), "exactly 2"),
             ((mine[0], mine[0]), "exactly 2"), ((mine[0], mine[1], mine[2]), "exactly 2"))
    for bad, words in cases:
        with pytest.raises(IllegalAction) as err:
            game.apply(0, Action("keep", bad))
        assert words in err.value.reason
    with pytest.raises(IllegalAction):
        game.apply(0, Action("pass"))
