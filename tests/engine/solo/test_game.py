"""Solo games: set-up, the solo draft, the sister's turns in the rescue phase, colour
reveals, halved public lessons, lesson 121 in solo, and the result."""

from __future__ import annotations

import json

import pytest

from engine import Action, ConfigError, new_game
from engine.bots import make_bot
from engine.cards import base_cards
from engine.modes.solo import SoloGame
from engine.modes.solo.sister import solo_rules
from engine.play import play_game
from engine.scoring import PlayerFacts, TableFacts, lesson_points

from .helpers import play_random, solo


def _greedy(seed: int, difficulty: str = "easy") -> SoloGame:
    game = solo(seed, difficulty)
    play_game(game, [make_bot("greedy", "solo", 0, seed)])
    return game


def test_options_and_seats_are_checked() -> None:
    assert solo(1).difficulty == "easy" == solo_rules()["default_difficulty"]
    assert new_game("solo", 1, 1).difficulty == "easy"  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="difficulty"):
        new_game("solo", 1, 1, {"difficulty": "nightmare"})
    with pytest.raises(ConfigError, match="1 seats"):
        new_game("solo", 2, 1)


def test_setup_fields_supply_oshax_line_and_first_colour() -> None:
    game = solo(12, "hard")
    fill = next(e for e in game.events if e["type"] == "fill_fields")
    assert len(fill["left"]) == len(fill["right"]) == 4
    assert {k: len(v) for k, v in game.state.supply.common.items()} == {
        "monomino_1": 5, "domino_2": 5, "L_tromino_3": 5, "I_tromino_3": 5}
    setup = next(e for e in game.events if e["type"] == "sister_setup")
    assert setup["oshax_line"] == game.state.supply.oshax and len(setup["oshax_line"]) == 6
    lines = {tuple(solo(s).state.supply.oshax) for s in range(6)}
    assert len(lines) > 1  # the Oshax line is shuffled per game
    assert len(game.sister.colours_revealed) == 1
    assert len(game.sister.lessons) == 5
    obs = game.observation(0)
    assert obs["sister"]["colours_revealed"] == game.sister.colour_order
    assert [c["id"] for c in obs["sister"]["lessons"]] == game.sister.lessons
    assert "deck" not in obs["sister"] and "deck" in game.spectator_view()["sister"]
    json.dumps(obs)


def test_solo_draft_is_5_keep_3_twice_then_one_blind() -> None:
    game = solo(3)
    me = game.state.players[0]
    assert game.frames[-1].name == "draft"
    assert len(me.draft_pile) == 5 and len(game.legal_actions(0)) == 10
    pile = sorted(me.draft_pile)
    game.apply(0, {"kind": "keep", "cards": pile[:3]})
    assert len(me.kept) == 3 and sorted(game.state.discard) == pile[3:]
    assert len(me.draft_pile) == 5
    with pytest.raises(Exception, match="keep exactly 3"):
        game.apply(0, Action("keep", tuple(sorted(me.draft_pile)[:2])))
    game.apply(0, game.legal_actions(0)[4])
    assert me.draft_pile == [] and len(me.kept) == 7 and len(game.state.discard) == 4
    assert game.frames[-1].name != "draft"
    assert any(e["type"] == "draft_blind" and len(e["cards"]) == 1 for e in game.events)


def _wanted(action: Action) -> bool:
    """Buy and lay down basket rescue cards, so the player has several rescue turns."""
    if action.kind in ("buy", "choose_rescue"):
        return base_cards()[action[1]].basket is not None
    return False


def _day_one_rescue(seed: int) -> tuple[SoloGame, dict]:
    """A game driven to the first rescue decision of day 1."""
    game = solo(seed)
    while not game.is_over():
        if any(e["type"] == "sister_cards" for e in game.events):
            break
        legal = game.legal_actions(0)
        pick = next((a for a in legal if _wanted(a)), None) or next(
            (a for a in legal if a.kind in ("done", "decline", "pass")), legal[0])
        game.apply(0, pick)
    info = next(e for e in game.events if e["type"] == "sister_cards")
    return game, info


def test_her_speed_is_the_first_cards_and_decides_who_goes_first() -> None:
    cases = set()
    for seed in range(40):
        game, info = _day_one_rescue(seed)
        first = base_cards()[info["first_card"]]
        assert info["speed"] == first.speed
        assert info["count"] == first.basket_count
        assert info["sister_first"] == (first.speed > info["player_speed"])
        step = info["step"]
        before = [e for e in game.events if e["type"] == "sister" and e["step"] == step]
        assert bool(before) == info["sister_first"]  # she acts before the player's first turn
        cases.add(info["sister_first"])
    assert cases == {True, False}


def test_she_plays_one_card_after_each_rescue_turn_and_the_rest_when_the_player_passes() -> None:
    checked = 0
    for seed in range(30):
        game, info = _day_one_rescue(seed)
        if info["count"] < 3 or game.frames[-1].name != "rescue_turn":
            continue
        played = len(game.sister.played_today)
        rescue = next((a for a in game.legal_actions(0) if a.kind == "rescue"), None)
        if rescue is None:
            continue
        game.apply(0, rescue)
        while game.frames[-1].name in ("place", "take_treasure"):
            legal = game.legal_actions(0)
            game.apply(0, next((a for a in legal if a.kind == "decline"), legal[0]))
        if game.frames[-1].name != "rescue_turn":
            continue
        if game.state.fields.is_empty():
            continue
        assert len(game.sister.played_today) == played + 1
        if not game.sister.today:
            continue
        left = list(game.sister.today)
        step = len(game.history) + 1  # events are stamped with the history length
        game.apply(0, Action("pass"))
        at_pass = [e["card"] for e in game.events if e["type"] == "sister" and e["step"] == step]
        assert sorted(set(at_pass)) == sorted(left)  # all her remaining cards, at once
        checked += 1
    assert checked >= 3


def test_sister_actions_are_logged_and_shown_to_the_player() -> None:
    game = _greedy(5)
    events = [e for e in game.events if e["type"] == "sister"]
    assert events and all("card" in e and "action" in e for e in events)
    assert {e["action"] for e in events} <= {"take_cat", "take_oshax", "take_rare_treasure",
                                            "take_common_treasure", "switch_cats"}
    removed = [e["tile"] for e in events if e.get("tile") is not None]
    assert set(removed) <= set(game.state.removed)


def test_colour_cards_are_revealed_at_setup_and_end_of_days_1_to_4() -> None:
    game = _greedy(6)
    reveals = [e for e in game.events if e["type"] == "sister_colour"]
    assert len(reveals) == 4
    assert len(game.sister.colours_revealed) == 5
    assert game.result()["sister"]["breakdown"]["colours"][0]["points_each"] == 5


def test_public_lessons_are_halved_rounded_up() -> None:
    found = 0
    for seed in range(60):
        game = play_random(solo(seed), seed)
        if not game.state.public_lessons:
            continue
        sheet = game.result()["breakdown"][0]
        me = game.state.players[0]
        facts = TableFacts([PlayerFacts(me.boat, me.fish, tuple(me.private_lessons),
                                        me.baskets, 0)])
        for entry, (card, colour) in zip([le for le in sheet["lessons"] if le["public"]],
                                         game.state.public_lessons, strict=True):
            full = lesson_points(card, 0, facts, colour)
            assert entry["points"] == -(-full // 2)
            found += 1
        if found >= 3:
            break
    assert found >= 1


def test_largest_family_lesson_needs_seven_in_solo() -> None:
    seen = set()
    for seed in range(40):
        game = _greedy(seed)
        if 121 not in game.state.players[0].private_lessons:
            continue
        sheet = game.result()["breakdown"][0]
        points = next(le["points"] for le in sheet["lessons"] if le["card"] == 121)
        largest = max((len(t) for _, t in game.state.players[0].boat.families()), default=0)
        assert points == (10 if largest >= 7 else 0)
        seen.add(points)
    assert seen == {0, 10}


def test_result_reports_player_sister_margin_and_win() -> None:
    game = _greedy(7, "expert")
    result = game.result()
    sister = result["sister"]
    assert sister["total"] == sister["breakdown"]["total"]
    assert sister["total"] == sum(c["points"] for c in sister["breakdown"]["colours"]) + sum(
        le["points"] for le in sister["breakdown"]["lessons"])
    assert [le["card"] for le in sister["breakdown"]["lessons"]] == game.sister.lessons
    assert result["margin"] == result["scores"][0] - sister["total"]
    assert result["won"] == (result["margin"] > 0)
    assert result["winners"] == ([0] if result["won"] else [])
    assert result["ranks"] == ([1] if result["won"] else [2])
    json.dumps(result)


def test_a_tie_goes_to_the_sister(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.modes.solo.game as solo_game

    game = _greedy(8)
    total = game.result()["scores"][0]
    real = solo_game.sister_score

    def tied(*args: object, **kwargs: object) -> dict:
        out = real(*args, **kwargs)  # type: ignore[arg-type]
        return {**out, "total": total}

    monkeypatch.setattr(solo_game, "sister_score", tied)
    game._result = None
    result = game.result()
    assert result["margin"] == 0 and result["won"] is False
    assert result["winners"] == [] and result["ranks"] == [2]


@pytest.mark.parametrize(("difficulty", "lessons"), [("easy", 3), ("medium", 4), ("hard", 5),
                                                     ("very_hard", 6), ("expert", 7)])
def test_each_difficulty_sets_up_its_sister(difficulty: str, lessons: int) -> None:
    game = solo(21, difficulty)
    assert len(game.sister.lessons) == lessons
    setup = next(e for e in game.events if e["type"] == "sister_setup")
    assert setup["difficulty"] == difficulty and setup["lessons"] == game.sister.lessons
    assert game.observation(0)["difficulty"] == difficulty
    basic = solo(21, "easy").sister.lessons
    assert game.sister.lessons[:3] == basic  # the same basic three; advanced ones added


def test_lesson_119_first_player_counts_the_sister_in_the_turn_order() -> None:
    game = _greedy(2)
    game.state.players[0].private_lessons.append(119)
    for sister_first, points in ((False, 7), (True, 0)):
        game.sister.first = sister_first
        game._result = None
        sheet = game.result()["breakdown"][0]
        assert next(le["points"] for le in sheet["lessons"] if le["card"] == 119) == points


def test_the_player_takes_the_top_rare_treasure_of_a_stack_so_the_stack_keeps_its_number() -> None:
    """Issue 11: supply L(85), T(90), L(86). The player takes L and gets 86 (the copy
    drawn last, on top of the stack); the L stack stays rare 1, so the sister's next
    "rare 1" removes L(85), not T."""
    from engine.modes.solo.sister import rare_numbers, take_rare_treasure
    from engine.modes.standard.placement import TreasureFrame
    from tests.engine.standard.helpers import _take_tile

    g = solo(3)
    state = g.state
    for tile in (85, 90, 86):
        if tile in state.bag or tile in state.supply.rare:
            _take_tile(g, tile)
    state.supply.rare[:] = [85, 90, 86]
    g.push(TreasureFrame(0, "rare", count=1, required=1))
    g._advance()
    assert ("take_treasure", "L_tetromino") in g.legal_actions(0)
    g.apply(0, {"kind": "take_treasure", "shape": "L_tetromino"})
    taken = [e for e in g.events if e["type"] == "treasure_taken"][-1]
    assert taken["tile"] == 86
    assert state.supply.rare == [85, 90]
    assert rare_numbers(g._table()) == ["L_tetromino", "T_tetromino"]
    done = take_rare_treasure(g._table(), 1)
    assert done["tile"] == 85 and state.supply.rare == [90]
