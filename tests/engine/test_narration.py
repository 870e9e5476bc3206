"""engine.narration: a sentence for every step and event of every mode, hidden cards kept
hidden, and the facts of the step (who, which cat, which field, how many fish) in words."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine
from engine import available_modes, mode_class, new_game
from engine.bots import make_bot
from engine.modes.duel.actions import FISH_ACTIONS
from engine.narration import (
    EVENT_SENTENCES,
    FISH_ACTION_WORDS,
    MERGED,
    STEP_SENTENCES,
    Narrator,
    seat_names,
)


def _play(mode: str, seats: int, seed: int, narrator_for=None):
    """Play a game with built-in bots; yield (seat, action json, new events, view before)."""
    game = new_game(mode, seats, seed)
    bots = [make_bot("greedy" if s == 0 else "random", mode, s, seed) for s in range(seats)]
    narrator = (narrator_for or (lambda g: Narrator(g)))(game)
    out = []
    try:
        while not game.is_over():
            seat = game.pending()[0]
            action = bots[seat].act(game, seat)
            before = game.spectator_view()
            seen = len(game.events)
            game.apply_unchecked(seat, action)
            out.append((seat, game.encode_action(action), game.events[seen:], before))
    finally:
        for bot in bots:
            bot.close()
    return game, narrator, out


@pytest.mark.parametrize("mode", available_modes())
def test_every_step_and_event_gets_a_sentence(mode: str) -> None:
    seats = mode_class(mode).game_type.max_seats
    game, narrator, steps = _play(mode, seats, 3)
    kinds = set()
    for seat, action, events, before in steps:
        text = narrator.step(seat, action, events, before)
        assert text.startswith(f"seat {seat} "), (action, text)
        assert "=" not in text, text  # words, not the raw action
        kinds.add(action["kind"])
        for event in events:
            sentence = narrator.event(event, action["kind"])
            if sentence is not None:
                assert sentence[0].isupper() or sentence.startswith("seat"), sentence
    assert len(kinds) >= 3


def test_a_rescue_says_who_which_cat_where_and_what_it_cost() -> None:
    game, narrator, steps = _play("standard", 4, 7, lambda g: Narrator(
        g, seat_names([{"seat": s, "bot": "greedy"} for s in range(4)], 4)))
    rescues = [(s, a, e, b) for s, a, e, b in steps if a["kind"] == "rescue"]
    assert rescues
    seat, action, events, before = rescues[0]
    done = next(e for e in events if e["type"] == "rescued")
    text = narrator.step(seat, action, events, before)
    colour = game.state.tiles[done["tile"]].colour
    assert text.startswith(f"greedy (seat {seat}) rescues the {colour} ")
    assert f"from the {action['field']} field" in text
    assert (f"paying {done['fish']} fish" in text) if done["fish"] else ("for free" in text)


def test_hidden_cards_are_named_only_to_whom_may_see_them() -> None:
    game = new_game("standard", 3, 5)
    keep = {"kind": "keep", "cards": [7, 8]}
    secret = Narrator(game, can_see=lambda seat: False)
    own = Narrator(game, can_see=lambda seat: seat == 1)
    assert secret.step(1, keep) == "seat 1 keeps 2 cards from the draft"
    assert "rescue card" in own.step(1, keep)
    assert secret.step(2, {"kind": "buy", "card": 70}) == "seat 2 buys a card"
    event = {"type": "lesson_read", "seat": 1, "public": False, "hidden": True, "card": 120}
    assert secret.event(event) == "seat 1 keeps a card as a private lesson"
    assert "“" in own.event(event)


def test_unknown_actions_and_events_still_read() -> None:
    game = new_game("duel", 2, 1)
    narrator = Narrator(game)
    assert narrator.step(0, {"kind": "shout", "volume": 3}) == "seat 0 shout (volume 3)"
    assert narrator.event({"type": "moon_rises", "seat": 1}) == "seat 1: moon rises"


def _logged_event_types() -> set[str]:
    """Every event type the engine logs: the first argument of each ``log`` call in engine/,
    each a string literal (checked here, so that none escapes the list)."""
    found: set[str] = set()
    for path in Path(engine.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name != "log":
                continue
            first = node.args[0] if node.args else None
            assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
                f"{path}:{node.lineno}: an event type that is not a string literal")
            found.add(first.value)
    return found


def test_every_action_kind_of_every_mode_has_its_sentence() -> None:
    """A kind renamed in a codec (or in the table) fails here, instead of being told in the
    plain words kept for the kinds of older replays."""
    kinds = {kind for mode in available_modes() for kind in mode_class(mode).codec.specs}
    assert kinds <= set(STEP_SENTENCES), sorted(kinds - set(STEP_SENTENCES))
    assert set(STEP_SENTENCES) <= kinds, sorted(set(STEP_SENTENCES) - kinds)


def test_every_event_the_engine_logs_has_its_sentence_or_is_told_by_its_step() -> None:
    logged = _logged_event_types()
    assert len(logged) > 40
    told = set(EVENT_SENTENCES) | MERGED
    assert logged <= told, sorted(logged - told)
    assert told <= logged, sorted(told - logged)


def test_every_duel_fish_purchase_reads_as_a_sentence() -> None:
    """A fish purchase says what it buys, so the default policy's narration of it still reads
    (tests/replays/test_fault_notes.py): never "spends fish: move"."""
    assert set(FISH_ACTION_WORDS) == set(FISH_ACTIONS)
    narrator = Narrator(new_game("duel", 2, 1), ["cats (seat 0)", "dogs (seat 1)"], lambda s: True)
    for name in FISH_ACTIONS:
        say = narrator.step(0, {"kind": "fish_action", "action": name})
        assert say == f"cats (seat 0) spends fish {FISH_ACTION_WORDS[name]}"
