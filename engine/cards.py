"""The 215 cards of the base game (discovery, family, solo), loaded from data.

Cards are immutable records; rules code reads the typed fields, and the
original parameters (``params``, ``options``, ``scoring``, ``actions``) stay
as plain dicts exactly as the data file has them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

DISCOVERY_IDS = range(1, 151)
FAMILY_LESSON_IDS = range(151, 169)
SOLO_COLOUR_IDS = range(169, 174)
SOLO_BASKET_IDS = range(174, 197)
SOLO_BASIC_LESSON_IDS = range(197, 207)
SOLO_ADVANCED_LESSON_IDS = range(207, 216)


@dataclass(frozen=True)
class Card:
    id: int
    family: str  # oshax, rescue, anytime, treasure, private_lesson, public_lesson, family_lesson,
    #              solo_colour, solo_basket, solo_lesson_basic, solo_lesson_advanced
    label: str
    effect: str
    cost: int | None = None
    speed: int = 0
    basket: str | None = None  # "full", "half" or None (rescue cards)
    anytime_type: str | None = None
    treasure_type: str | None = None
    playable_in_buy_phase: bool = False
    reveals_hidden_information: bool = False
    needs_colour: str | None = None  # "on_purchase" / "on_placement" / None
    colour: str | None = None  # solo colour cards
    basket_count: int | None = None  # solo basket cards
    params: dict[str, Any] = field(default_factory=dict)
    options: tuple[dict[str, Any], ...] = ()
    scoring: dict[str, Any] | None = None
    actions: tuple[dict[str, Any], ...] = ()  # solo basket keyword actions
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def is_lesson(self) -> bool:
        return self.scoring is not None

    def to_json(self) -> dict[str, Any]:
        """The public face of the card, for observations and docs."""
        out: dict[str, Any] = {"id": self.id, "family": self.family, "label": self.label,
                               "effect": self.effect}
        if self.cost is not None:
            out["cost"] = self.cost
        if self.family == "rescue":
            out["speed"] = self.speed
            out["basket"] = self.basket
        return out


def _card(raw: dict[str, Any]) -> Card:
    needs = raw.get("needs_colour")
    return Card(
        id=raw["id"],
        family=raw["family"],
        label=raw.get("label") or "",
        effect=raw.get("effect") or "",
        cost=raw.get("cost_fish"),
        speed=raw.get("speed") or 0,
        basket=raw.get("basket"),
        anytime_type=raw.get("anytime_type"),
        treasure_type=raw.get("treasure_type"),
        playable_in_buy_phase=bool(raw.get("playable_in_buy_phase")),
        reveals_hidden_information=bool(raw.get("reveals_hidden_information")),
        needs_colour=needs["when"] if isinstance(needs, dict) else None,
        colour=raw.get("colour"),
        basket_count=raw.get("basket_count"),
        params=dict(raw.get("params") or {}),
        options=tuple(raw.get("options") or ()),
        scoring=raw.get("scoring"),
        actions=tuple(raw.get("actions") or ()),
        raw=raw,
    )


@cache
def base_cards() -> dict[int, Card]:
    """Every card by id (1-215)."""
    data = json.loads(resources.files("engine.data.base").joinpath("cards.json").read_text())
    return {c["id"]: _card(c) for c in data["cards"]}


@cache
def base_cards_meta() -> dict[str, Any]:
    data = json.loads(resources.files("engine.data.base").joinpath("cards.json").read_text())
    return data["_meta"]


def cards_of_family(family: str) -> list[Card]:
    return [c for c in base_cards().values() if c.family == family]
