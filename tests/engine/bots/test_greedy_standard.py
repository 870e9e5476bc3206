"""The greedy bot of the standard game: legal, decided by what its seat may know, and far
stronger than random (the full figure: bench/greedy_winrate.py)."""

from __future__ import annotations

import copy

from engine import new_game
from engine.boat import Boat, base_layouts, neighbours
from engine.bots import make_bot
from engine.bots.greedy_standard import GreedyStandardBot, PlacementEval
from engine.modes.solo.game import SoloGame  # noqa: F401  (its frame classes defined)
from engine.modes.standard.frames import Frame
from engine.modes.standard.phases.turns import TurnsFrame
from engine.play import play_game
from engine.rng import Rng
from engine.shapes import base_shapes, legal_placements
from tests.engine.standard.helpers import twin_with_other_secrets


def test_greedy_decides_only_on_what_its_seat_may_know() -> None:
    game = new_game("standard", 4, 21)
    bots = [make_bot("greedy", "standard", s, 21) for s in range(4)]
    rng = Rng(21, "twin")
    compared = 0
    while not game.is_over():
        seat = game.pending()[0]
        if len(game.legal_actions(seat)) > 1 and compared < 150:
            twin = twin_with_other_secrets(game, seat, rng)
            twin_bot = copy.deepcopy(bots[seat])
            assert twin_bot.act(twin, seat) == copy.deepcopy(bots[seat]).act(game, seat)
            compared += 1
        action = bots[seat].act(game, seat)
        assert action in game.legal_actions(seat)
        game.apply_unchecked(seat, action)
    assert compared >= 100


def test_greedy_beats_three_random_bots() -> None:
    wins = 0
    for seed in range(8):
        seat = seed % 4
        bots = [make_bot("greedy" if s == seat else "random", "standard", s, seed)
                for s in range(4)]
        result = play_game(new_game("standard", 4, seed), bots).result()
        wins += result["ranks"][seat] == 1
    assert wins >= 7


def test_placement_value_prefers_joining_two_tiles_into_a_family() -> None:
    layout = base_layouts()["blue"]
    rows = ["", ""] + ["       a..b"] * 5
    boat = Boat.from_text(layout, "\n".join(rows),
                          legend={"a": ("cat", "red"), "b": ("cat", "red")})
    assert len(boat.tiles) == 2
    shape = base_shapes().by_key("cat_15")
    value, best = PlacementEval(boat, "red").best(
        legal_placements(shape, layout, boat.occupied))
    a, b = (t.mask for t in boat.tiles)
    assert neighbours(best) & a and neighbours(best) & b, "a family of three scores 8"
    assert value >= 8
    assert GreedyStandardBot(0, 1).name == "greedy"


def _frames_asking(packages: tuple[str, ...]) -> set[str]:
    """The names of the frames of ``packages`` that can wait for a seat: every frame class
    that names itself there, less the turn-taking phases (they push a turn frame and never
    wait themselves)."""
    found, todo = set(), list(Frame.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if ("name" in vars(cls) and cls.__module__.startswith(packages)
                and not issubclass(cls, TurnsFrame)):
            found.add(cls.name)
    return found


def test_every_decision_of_standard_and_solo_has_an_entry_in_the_handlers() -> None:
    """``act`` finds its handler by the frame's name in an explicit table: a frame renamed
    or added fails here (and ``act`` raises) instead of quietly taking the fallback."""
    names = _frames_asking(("engine.modes.standard.", "engine.modes.solo."))
    assert {"draft", "place", "rescue_turn", "draw_to_fields"} <= names
    assert set(GreedyStandardBot(0, 0)._handlers) == names
