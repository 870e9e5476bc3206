"""Reads of the boss leagues for the bot page, the ladders and the API. Public, like ratings:
a bot's league and its runs (paired comparisons, themselves public) show no private output."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from competition import boss_leagues as rule

from ..errors import ValidationFailed
from ..models import BossLeagueStanding, PairedComparison

UNRANKED_KEY = "unranked"  # how ?tier= names the bots that passed no gate


def boss_leagues() -> rule.Leagues:
    """The site's gates: those of the data file the setting BOSS_LEAGUES_DATA names (by
    default the packaged competition/data/boss_leagues.json)."""
    return rule.leagues(settings.BOSS_LEAGUES_DATA)


@dataclass(frozen=True)
class BotLeague:
    """A bot's league in one mode, the run in progress (or None) and the past runs."""

    mode: str
    tier: str  # "" while unranked
    name: str
    run: PairedComparison | None
    run_tier: str
    run_name: str
    history: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        run = None
        if self.run is not None:
            run = {"comparison": self.run.pk, "tier": self.run_tier, "name": self.run_name,
                   "bot_version": self.run.version_b_id}  # fmt: skip
        return {"mode": self.mode, "tier": self.tier or UNRANKED_KEY, "name": self.name,
                "run": run, "history": self.history}  # fmt: skip


def bot_leagues(*, bot_id: int) -> list[BotLeague]:
    """The bot's league in every mode with boss leagues (unranked where it has no standing)."""
    leagues = boss_leagues()
    standings = {
        s.mode: s for s in BossLeagueStanding.objects.filter(bot_id=bot_id).select_related("run")
    }
    out = []
    for mode in leagues.seats:
        s = standings.get(mode)
        tier, run_tier = (s.tier, s.run_tier) if s else ("", "")
        run = s.run if s and s.run and s.run.status == PairedComparison.Status.RUNNING else None
        out.append(BotLeague(
            mode=mode, tier=tier, name=leagues.name(tier), run=run,
            run_tier=run_tier if run else "", run_name=leagues.name(run_tier) if run else "",
            history=list(s.history) if s else [],
        ))  # fmt: skip
    return out


def tier_param(value: str | None, *, mode: str) -> str | None:
    """The tier key of a ``?tier=`` filter ("" for unranked), None when absent; an unknown
    tier, or a mode without boss leagues, is refused in words."""
    if value is None or value == "":
        return None
    leagues = boss_leagues()
    if mode not in leagues.seats:
        raise ValidationFailed(f"The {mode} mode has no boss leagues to filter by.",
                               fields={"tier": [value]})  # fmt: skip
    if value == UNRANKED_KEY:
        return rule.UNRANKED
    if value not in leagues.tier_keys():
        raise ValidationFailed(
            f"tier must be one of {', '.join([*leagues.tier_keys(), UNRANKED_KEY])}.",
            fields={"tier": [value]},
        )
    return value


def tier_choices(*, mode: str) -> list[tuple[str, str]]:
    """The ``?tier=`` values of a ladder in ``mode`` and their names, lowest first (none in a
    mode without boss leagues)."""
    leagues = boss_leagues()
    if mode not in leagues.seats:
        return []
    return [(UNRANKED_KEY, leagues.name(rule.UNRANKED)), *((t.key, t.name) for t in leagues.tiers)]


def with_tiers(entries: Sequence[Any], *, mode: str, tier: str | None = None) -> list[Any]:
    """Set `boss_tier` and `boss_name` on each ladder entry (None in a mode without boss
    leagues) and keep those in `tier` when it is given (their ladder ranks unchanged)."""
    leagues = boss_leagues()
    has = mode in leagues.seats
    tiers = _tiers(entries, mode) if has else {}
    out = []
    for entry in entries:
        key = tiers.get(entry.bot_version.bot_id, rule.UNRANKED) if has else None
        entry.boss_tier = None if key is None else key or UNRANKED_KEY
        entry.boss_name = None if key is None else leagues.name(key)
        if tier is None or key == tier:
            out.append(entry)
    return out


def _tiers(entries: Iterable[Any], mode: str) -> dict[int, str]:
    bot_ids = {e.bot_version.bot_id for e in entries}
    rows = BossLeagueStanding.objects.filter(bot_id__in=bot_ids, mode=mode)
    return dict(rows.values_list("bot_id", "tier"))
