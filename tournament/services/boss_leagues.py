"""Boss leagues in the database: promotion runs started when a version becomes ready, and the
standing they move.

The gates and the rule are pure (`competition/boss_leagues.py`); a promotion run is an
ordinary paired comparison (`services/paired.py`) with no requester: arm A is the gate's boss,
arm B the bot's version, and the boss fills the other seats. Its games are matches of kind
`boss`, workshop work: held until the workshop gate (`services/workshop_gate.py`) lets them
through, one at a time with the default WORKSHOP_SLOTS, after any test game waiting, into the
workshop lane ahead of the leagues' backlog. So promotion runs take at most that one slot from
the ladders and still move while ladders keep a backlog. A bot has one run at a time in each
mode (its standing's `run`), so one author's many bots queue their games behind each other at
the gate. When the run's test ends, `boss_run_ended` applies the rule:
H1 promotes the bot past the gate and starts the run for the next one; H0, the cap or a failed
run stops the climb until the bot's next version.

A new version climbs from its bot's current tier, not from the bottom: the league says what
the bot has proven, and a version is tested against the gate it has not passed yet (playing
the lower bosses again would spend the workshop's slot on a question already answered).
A run in progress for an older version is stopped, and the new version takes its place.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from competition import boss_leagues as rule
from competition import sprt

from ..models import BossLeagueStanding, BotVersion, Match, PairedComparison
from ..selectors.boss_leagues import boss_leagues
from .bots import builtin_version
from .paired import paired_start, paired_stop

FAILED = "failed"  # a run that could not be played out: the bot stays
REPLACED = "stopped: version {number} took its place"


def boss_leagues_after_validation(*, match: Match) -> list[BossLeagueStanding]:
    """Start the promotion runs of the version a finished validation match made ready."""
    started = []
    for seat in match.seats.select_related("bot_version__bot"):
        version = seat.bot_version
        if not version.builtin and version.status == BotVersion.Status.READY:
            started += boss_leagues_start(version=version)
    return started


def boss_leagues_start(*, version: BotVersion) -> list[BossLeagueStanding]:
    """In every mode with boss leagues, start `version`'s run against its bot's next gate
    (none for a house bot, a retired bot, a bot at the top, or with BOSS_LEAGUES off)."""
    if not settings.BOSS_LEAGUES or version.bot.is_system or version.bot.retired:
        return []
    out = []
    with transaction.atomic():
        for mode in boss_leagues().seats:
            standing, _ = BossLeagueStanding.objects.get_or_create(bot=version.bot, mode=mode)
            standing = BossLeagueStanding.objects.select_for_update().get(pk=standing.pk)
            current = standing.run
            if current is not None and current.status != PairedComparison.Status.RUNNING:
                current = None  # stopped by hand: nothing to replace
            if current is not None and current.version_b_id == version.pk:
                continue  # already climbing
            if current is not None:
                paired_stop(comparison=current, reason=REPLACED.format(number=version.number))
                _remember(standing, current, standing.run_tier, "replaced")
            _start_next(standing, version)
            out.append(standing)
    return out


def boss_run_ended(*, comparison: PairedComparison) -> BossLeagueStanding | None:
    """Called in the transaction of a paired game's end: when `comparison` is a promotion run
    whose test has ended, promote (H1, and start the next gate's run) or stop (H0, cap,
    failed)."""
    if comparison.status == PairedComparison.Status.RUNNING:
        return None
    standing = BossLeagueStanding.objects.select_for_update().filter(run=comparison).first()
    if standing is None:
        return None
    decision = _decision(comparison)
    _remember(standing, comparison, standing.run_tier, decision)
    if decision == FAILED or rule.decide(decision) != rule.PROMOTED:
        standing.run, standing.run_tier = None, ""
        standing.save(update_fields=["run", "run_tier", "history", "updated_at"])
        return standing
    standing.tier = standing.run_tier
    standing.version = comparison.version_b
    _start_next(standing, comparison.version_b)
    return standing


def _decision(comparison: PairedComparison) -> str:
    """H1, H0 or cap from a finished run; "failed" when it could not be played out."""
    if comparison.status == PairedComparison.Status.FAILED:
        return FAILED
    result = comparison.result or {}
    return result.get("decision") or sprt.CAP


def _start_next(standing: BossLeagueStanding, version: BotVersion) -> None:
    """Queue the run against the gate above the standing's tier (nothing at the top)."""
    gate = boss_leagues().next_tier(standing.tier)
    standing.run, standing.run_tier = None, ""
    if gate is not None:
        boss = builtin_version(gate.boss)
        standing.run = paired_start(
            requested_by=None, a=boss, b=version, opponents=[boss], mode=standing.mode,
            seats=boss_leagues().seats[standing.mode], options={}, seeds=gate.seeds,
            test=gate.settings, game_kind=Match.Kind.BOSS,
        )  # fmt: skip
        standing.run_tier = gate.key
    standing.save()


def _remember(standing: BossLeagueStanding, run: PairedComparison, tier: str, outcome: str) -> None:
    entry: dict[str, Any] = {
        "tier": tier, "version": run.version_b_id, "comparison": run.pk, "outcome": outcome,
        "promoted": outcome == sprt.H1, "at": timezone.now().isoformat(),
    }  # fmt: skip
    standing.history = [*standing.history, entry]
