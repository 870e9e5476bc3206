"""The one place where the services that react to a match's end are connected to it.

`services/matches.py` ends matches and announces it through `services/match_ended.py`; it
imports none of the services below, which all import it. `TournamentConfig.ready` calls
`connect_services` once, so every process (web, worker, command, test) has the same wiring.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .formats.builtin import register_builtin_formats
from .models import Match
from .selectors.workshop_gate import WORKSHOP_KINDS
from .services import boss_leagues, bots, leagues, paired, ratings, workshop_gate
from .services.match_ended import Ending, connect


def _count_seats(match: Match, seats: Sequence[Any]) -> None:
    bots.bot_versions_count_seats(seats=seats)  # the fault rate and streaks count rated matches


def _league_result(match: Match, seats: Sequence[Any]) -> None:
    if match.league_id:
        ratings.rating_apply_match(match=match)
        leagues.league_progress(league_id=match.league_id)


def _league_failure(match: Match, seats: Sequence[Any]) -> None:
    if match.league_id:
        leagues.league_progress(league_id=match.league_id)


def _validation(match: Match, seats: Sequence[Any]) -> None:
    bots.bot_version_record_validation(match=match)
    boss_leagues.boss_leagues_after_validation(match=match)  # a ready version starts climbing


def _paired(match: Match, seats: Sequence[Any]) -> None:
    comparison = paired.paired_game_decided(match=match)  # unrated
    if comparison is not None:
        boss_leagues.boss_run_ended(comparison=comparison)  # a promotion run may have ended


def connect_services() -> None:
    """Connect the tournament formats and the match handlers (idempotent)."""
    register_builtin_formats()
    kind = Match.Kind
    connect(Ending.RECORDED, kind.LEAGUE, _count_seats)
    connect(Ending.RECORDED, kind.LEAGUE, _league_result)
    connect(Ending.RECORDED, kind.VALIDATION, _validation)
    connect(Ending.FAILED, kind.LEAGUE, _league_failure)
    connect(Ending.FAILED, kind.VALIDATION, _validation)
    for paired_kind in (kind.PAIRED, kind.BOSS):  # a boss game is a promotion run's paired game
        for ending in Ending:
            connect(ending, paired_kind, _paired)
    for workshop_kind in WORKSHOP_KINDS:  # its slot is free: the gate sends the next one
        for ending in Ending:
            connect(ending, workshop_kind, workshop_gate.workshop_match_ended)
