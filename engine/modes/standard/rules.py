"""The printed rules' numbers for the standard game, loaded from ``rules.json``.

Rules code reads these instead of literals, so the family variant and solo mode can
reuse the flow with their own numbers (``Rules.with_overrides``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class Rules:
    days: int
    fish_per_day: int
    permanent_baskets_at_start: int
    cats_per_player_per_field: int
    field_prices: dict[str, int]
    cards_dealt: int
    draft_keep: int
    draft_direction_by_day: dict[int, int]

    def draft_direction(self, day: int) -> int:
        """+1: pass to the next seat (days 1, 3, 5); -1: to the previous one."""
        return self.draft_direction_by_day.get(day, 1)

    def with_overrides(self, **changes: Any) -> Rules:
        return replace(self, **changes)


@cache
def standard_rules() -> Rules:
    raw = json.loads(resources.files(__package__).joinpath("rules.json").read_text())
    raw.pop("_doc", None)
    raw["draft_direction_by_day"] = {int(k): v for k, v in raw["draft_direction_by_day"].items()}
    return Rules(**raw)
