"""Boss leagues: house bots of rising strength are gates a bot climbs past by proof.

The gates are data (``competition/data/boss_leagues.json``, or another file of the same shape:
``leagues(path)``): ordered tiers, each with its boss
(a built-in bot's name), the bounds and error rates of the paired SPRT that decides it
(``competition/sprt.py``) and a cap in seeds. A bot *is in* a tier once it has passed that
tier's gate, and every gate below it; a bot that has passed none is *unranked* (tier key
``""``). The rule, one function (``decide``):

* the paired SPRT of the bot (arm B) against the boss (arm A), both playing against the boss in
  the other seats, ends in **H1** (the bot is stronger than the boss by the test's bounds): the
  bot is **promoted** past the gate and goes on to the next one;
* it ends in **H0**, or reaches the **cap** undecided: the bot **stays** where it is.

A bot no stronger than a boss is promoted past it at most as often as the test's α (the
false-positive rate of the SPRT; ``bench/bosses.py`` measures it). Leagues are **per mode**:
each mode listed in the data has its own gates, played at that mode's seat count.

Pure Python (no Django), shared by the tournament's service and the bench.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from . import sprt

UNRANKED = ""  # the tier key of a bot that has passed no gate
PROMOTED = "promoted"
STAYS = "stays"


@dataclass(frozen=True)
class Tier:
    """One gate: its key (``?tier=bronze``), its name, its boss and the test that decides it."""

    key: str
    name: str
    boss: str
    settings: sprt.SprtSettings
    seeds: int  # the cap: seeds the test plays at most


@dataclass(frozen=True)
class Leagues:
    tiers: tuple[Tier, ...]
    seats: dict[str, int]  # the modes with boss leagues, and the seats each is played at

    def tier(self, key: str) -> Tier | None:
        """The tier of ``key``; None for ``UNRANKED``. Unknown keys raise ``KeyError``."""
        if key == UNRANKED:
            return None
        for tier in self.tiers:
            if tier.key == key:
                return tier
        raise KeyError(f"no boss league {key!r}; leagues: {', '.join(self.tier_keys())}")

    def tier_keys(self) -> list[str]:
        return [t.key for t in self.tiers]

    def next_tier(self, key: str) -> Tier | None:
        """The gate a bot in tier ``key`` faces next; None at the top."""
        if key == UNRANKED:
            return self.tiers[0]
        index = self.tier_keys().index(self.tier(key).key)  # type: ignore[union-attr]
        return self.tiers[index + 1] if index + 1 < len(self.tiers) else None

    def name(self, key: str) -> str:
        tier = self.tier(key)
        return "Unranked" if tier is None else tier.name


def parse(data: dict) -> Leagues:
    """The leagues of a data file's content; a malformed file raises ``ValueError`` in words."""
    tiers = []
    for row in data["tiers"]:
        try:
            settings = sprt.SprtSettings(row["elo0"], row["elo1"], row["alpha"], row["beta"])
        except sprt.BadSprt as exc:
            raise ValueError(f"boss league {row.get('key')!r}: {exc}") from None
        seeds = row["seeds"]
        if not isinstance(seeds, int) or seeds < 1:
            raise ValueError(f"boss league {row['key']!r}: seeds must be a positive integer")
        tiers.append(Tier(row["key"], row["name"], row["boss"], settings, seeds))
    keys = [t.key for t in tiers]
    if not tiers or len(set(keys)) != len(keys) or UNRANKED in keys:
        raise ValueError("boss leagues need at least one tier, each with its own non-empty key")
    seats = {mode: int(spec["seats"]) for mode, spec in data["modes"].items()}
    return Leagues(tuple(tiers), seats)


@cache
def leagues(path: str = "") -> Leagues:
    """The leagues of the data file at ``path``; by default (``""``) the packaged
    ``competition/data/boss_leagues.json``. The site names its file in the setting
    BOSS_LEAGUES_DATA (tournament/selectors/boss_leagues.py)."""
    if path:
        text = Path(path).read_text(encoding="utf-8")
    else:
        text = resources.files("competition.data").joinpath("boss_leagues.json").read_text()
    return parse(json.loads(text))


def decide(decision: str) -> str:
    """What the SPRT's decision (``sprt.H1``, ``sprt.H0`` or ``sprt.CAP``) means for the bot:
    ``PROMOTED`` on H1 only; it ``STAYS`` at H0 and at the cap (not proven stronger)."""
    if decision == sprt.H1:
        return PROMOTED
    if decision in (sprt.H0, sprt.CAP):
        return STAYS
    raise ValueError(f"not an SPRT decision: {decision!r}")


def climb(start: str, decisions: list[str]) -> str:
    """The tier a bot reaches from ``start`` when its runs end in ``decisions``, gate after
    gate: it stops at the first run that does not promote it (or at the top)."""
    key = start
    for decision in decisions:
        gate = leagues().next_tier(key)
        if gate is None or decide(decision) != PROMOTED:
            break
        key = gate.key
    return key
