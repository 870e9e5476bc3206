"""Determinizing the solo mode: the standard game's determinization with the solo draft,
the solo rescue phase, and the sister, whose face-down cards are sampled after the player's
hidden cards: her colour cards not revealed yet, and her basket cards (today's still to
play, the first of them shown, and her deck) from those she has not played today."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...cards import SOLO_BASKET_IDS, SOLO_COLOUR_IDS, base_cards
from ...rng import Rng
from ..standard.determinize import StandardDeterminizer
from ..standard.restack import StandardStack, ints
from .draft import SoloDraftFrame
from .game import SoloGame, SoloRescuePhaseFrame
from .sister import Sister, difficulty_of


class SoloStack(StandardStack):
    rescue_phase = SoloRescuePhaseFrame

    def draft(self) -> None:
        d = self.decision
        self.push(SoloDraftFrame.resumed(int(d["round"]), int(d["keep"])))
        self.ask()


class SoloDeterminizer(StandardDeterminizer):
    game_class = SoloGame
    stack_class = SoloStack

    def extras(self) -> dict[str, Any]:
        return {"sister": sample_sister(self.obs["sister"], difficulty_of(self.options),
                                        self.rng)}


def sample_sister(view: Mapping[str, Any], difficulty: str, rng: Rng) -> Sister:
    """The sister her public face ``view`` shows, her face-down cards drawn from ``rng``."""
    cards = base_cards()
    colour_of = {c: cards[c].colour for c in SOLO_COLOUR_IDS}
    revealed = [next(c for c, col in colour_of.items() if col == colour)
                for colour in view["colours_revealed"]]
    hidden_colours = [c for c in SOLO_COLOUR_IDS if c not in revealed]
    rng.shuffle(hidden_colours)
    played_today = ints(view["played_today"])
    first = view["first_card"]
    baskets = [c for c in SOLO_BASKET_IDS if c not in played_today and c != first]
    rng.shuffle(baskets)
    left = int(view["cards_left_today"])
    today = []
    if left:
        if first is not None and not played_today:
            today.append(int(first))
            left -= 1
        today += [baskets.pop() for _ in range(left)]
    return Sister(difficulty, [int(c["id"]) for c in view["lessons"]], hidden_colours,
                  colours_revealed=revealed, deck=baskets, today=today,
                  played_today=played_today,
                  actions_today=[dict(a) for a in view["actions_today"]],
                  discard=[], speed=int(view["speed"]), first=bool(view["first"]))


def determinize_solo(start: Mapping[str, Any], obs: Mapping[str, Any], rng: Rng) -> SoloGame:
    return SoloDeterminizer(start, obs, rng).game()  # type: ignore[return-value]
