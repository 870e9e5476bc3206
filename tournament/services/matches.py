"""Matches: create (for leagues, challenges and validations), start, play through the runner,
record the result exactly once, fail, cancel, and re-queue matches stuck past their deadline or
whose queued message was lost. Challenges are checked and limited in `challenges.py`."""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ..errors import ValidationFailed
from ..models import BotVersion, League, Match, MatchSeat
from .outcome import SeatOutcome, outcome_from_runner

log = logging.getLogger(__name__)

SEED_MASK = 2**63 - 1  # BigIntegerField is signed; engine seeds are any int in [0, 2**64)
MAX_ATTEMPTS = 3


def derive_seed(*parts: object) -> int:
    """A seed fixed by its parts, so re-creating a league's schedule gives the same games."""
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") & SEED_MASK


def match_enqueue(match: Match) -> None:
    """Queue the play task once the surrounding transaction commits (never a phantom id)."""
    from workers.tasks import match_play_task

    match_id = match.pk
    transaction.on_commit(lambda: match_play_task.delay(match_id))


def match_create_internal(
    *,
    kind: str,
    mode: str,
    options: dict[str, Any],
    bot_versions: Sequence[BotVersion],
    league: League | None,
    requested_by: Any,
    round: int | None = None,  # noqa: A002 - the tournament's word
    seed: int | None = None,
    decision_time_limit: float | None = None,
    time_bank: float | None = None,
) -> Match:
    """Create a queued match with one seat per bot version (in seat order) and queue it.

    Limits not given come from the league, else from BOT_DECISION_TIME_LIMIT / BOT_TIME_BANK.
    """
    import engine

    if decision_time_limit is None:
        decision_time_limit = (
            league.decision_time_limit if league else settings.BOT_DECISION_TIME_LIMIT
        )
    if time_bank is None:
        time_bank = league.time_bank if league else settings.BOT_TIME_BANK
    match = Match.objects.create(
        kind=kind, league=league, round=round, mode=mode, options=options,
        seed=secrets.randbits(63) if seed is None else seed,
        engine_version=engine.ENGINE_VERSION, requested_by=requested_by,
        decision_time_limit=decision_time_limit, time_bank=time_bank,
    )  # fmt: skip
    MatchSeat.objects.bulk_create(
        [
            MatchSeat(match=match, seat=i, bot_version=v, bot_sha256=v.sha256)
            for i, v in enumerate(bot_versions)
        ]
    )
    match_enqueue(match)
    return match


def _deadline(match: Match, seats: int) -> Any:
    """How long a running match may take before the reaper re-queues it."""
    budget = settings.CELERY_TASK_TIME_LIMIT + 60
    return timezone.now() + timedelta(seconds=budget + seats * match.time_bank)


def match_start(*, match_id: int) -> Match | None:
    """Mark a match running; None when it is already decided (a duplicate delivery)."""
    with transaction.atomic():
        try:
            match = Match.objects.select_for_update().get(pk=match_id)
        except Match.DoesNotExist:
            return None
        if match.status not in (Match.Status.QUEUED, Match.Status.RUNNING):
            return None
        if match.league_id and match.league.status == League.Status.PAUSED:
            return None  # stays queued; league_resume queues it again
        seats = match.seats.count()
        match.status = Match.Status.RUNNING
        match.started_at = timezone.now()
        match.deadline = _deadline(match, seats)
        match.attempts += 1
        match.save(update_fields=["status", "started_at", "deadline", "attempts"])
        return match


def match_spec(match: Match) -> dict[str, Any]:
    """Everything the runner needs, as plain data (the runner does not import Django)."""
    seats = []
    for seat in match.seats.select_related("bot_version__bot").order_by("seat"):
        v = seat.bot_version
        seats.append({
            "seat": seat.seat, "bot_version_id": v.pk, "name": v.bot.name,
            "version": str(v.number),
            "builtin": v.builtin or None,
            # a compiled language plays its built bundle, never its sources
            "bundle_path": storages_path(bundle) if (bundle := v.built_bundle_name
                                                     or v.bundle_name) else None,
            "bundle_kind": v.bundle_kind or None, "sha256": v.built_sha256 or v.sha256 or None,
            "bot_seed": seat.bot_seed,
        })  # fmt: skip
    return {
        "match_id": match.pk, "mode": match.mode, "seats": seats, "seed": match.seed,
        "options": match.options, "decision_time_limit": match.decision_time_limit,
        "time_bank": match.time_bank, "memory_limit_mb": settings.BOT_MEMORY_LIMIT_MB,
    }  # fmt: skip


def storages_path(name: str) -> str:
    from django.core.files.storage import storages

    return storages["bots"].path(name)


def match_play(*, match_id: int) -> Match | None:
    """Run one match end to end: start, play on the runner, store the replay, record."""
    match = match_start(match_id=match_id)
    if match is None:
        return None
    from workers.runner import run_match

    try:
        raw = run_match(match_spec(match))
        outcome = outcome_from_runner(raw)
    except Exception as exc:  # the runner's own bug, not a bot fault: the match failed
        log.exception("match %s: runner failed", match_id)
        return match_fail(match_id=match_id, error=f"{type(exc).__name__}: {exc}")
    replay = _replay_store(match_id, outcome.replay)
    return match_record_result(
        match_id=match_id, seats=outcome.seats, result=outcome.result, replay=replay
    )


def _replay_store(match_id: int, data: bytes | None) -> dict[str, Any]:
    if not data:
        return {}
    from replays import storage

    return dict(storage.save_replay(match_id=match_id, data=data))


def match_record_result(
    *,
    match_id: int,
    seats: Sequence[SeatOutcome],
    result: dict[str, Any],
    replay: dict[str, Any] | None = None,
) -> Match | None:
    """Record a played match, its ratings and the league's progress in one transaction.

    Idempotent: a match that is no longer queued or running is left untouched, so a retried
    or duplicated task never counts a match twice.
    """
    from . import bots, leagues, paired, ratings

    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status not in (Match.Status.QUEUED, Match.Status.RUNNING):
            return None
        rows = {s.seat: s for s in match.seats.all()}
        if len(seats) != len(rows):
            raise ValidationFailed(f"match {match_id} has {len(rows)} seats, got {len(seats)}")
        for out in seats:
            row = rows[out.seat]
            row.score, row.rank, row.time_used = out.score, out.rank, out.time_used
            row.fault, row.fault_detail, row.log = out.fault, out.fault_detail, out.log
        MatchSeat.objects.bulk_update(
            rows.values(), ["score", "rank", "time_used", "fault", "fault_detail", "log"]
        )
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        match.result = result
        match.error = ""
        replay = replay or {}
        match.replay_name = replay.get("name", "")
        match.replay_sha256 = replay.get("sha256", "")
        match.replay_size = replay.get("size", 0)
        match.save()
        if match.kind == Match.Kind.VALIDATION:
            bots.bot_version_record_validation(match=match)
        elif match.kind == Match.Kind.PAIRED:
            paired.paired_game_decided(match=match)  # unrated
        elif match.league_id:
            ratings.rating_apply_match(match=match)
            leagues.league_progress(league_id=match.league_id)
        return match


def match_fail(*, match_id: int, error: str) -> Match | None:
    """Retry a match that failed for a reason other than its bots, up to MAX_ATTEMPTS."""
    from . import bots, leagues, paired

    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status not in (Match.Status.QUEUED, Match.Status.RUNNING):
            return None
        match.error = error[-4000:]
        if match.attempts < MAX_ATTEMPTS and match.kind != Match.Kind.VALIDATION:
            match.status = Match.Status.QUEUED
            match.queued_at = timezone.now()
            match.save(update_fields=["status", "error", "queued_at"])
            match_enqueue(match)
            return match
        match.status = Match.Status.FAILED
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "error", "finished_at"])
        if match.kind == Match.Kind.VALIDATION:
            bots.bot_version_record_validation(match=match)
        elif match.kind == Match.Kind.PAIRED:
            paired.paired_game_decided(match=match)
        elif match.league_id:
            leagues.league_progress(league_id=match.league_id)
        return match


def match_cancel_queued(*, league: League) -> int:
    """Cancel a league's queued matches (the league was closed)."""
    return Match.objects.filter(league=league, status=Match.Status.QUEUED).update(
        status=Match.Status.CANCELLED, finished_at=timezone.now()
    )


def matches_reap_stale(*, now: Any = None) -> list[int]:
    """The reaper beat job: re-queue running matches past their deadline (their worker died
    without a redelivery) and re-send queued matches whose broker message seems lost.
    Returns the ids of both kinds."""
    now = now or timezone.now()
    return _requeue_running_past_deadline(now) + _redispatch_long_queued(now)


def _requeue_running_past_deadline(now: Any) -> list[int]:
    requeued = []
    stale = Match.objects.filter(status=Match.Status.RUNNING, deadline__lt=now).values_list(
        "pk", flat=True
    )
    for match_id in list(stale):
        with transaction.atomic():
            match = Match.objects.select_for_update().get(pk=match_id)
            if match.status != Match.Status.RUNNING or match.deadline >= now:
                continue
            if match.attempts >= MAX_ATTEMPTS:
                match.status = Match.Status.FAILED
                match.error = "gave up: worker lost on every attempt"
                match.finished_at = now
                match.save(update_fields=["status", "error", "finished_at"])
                if match.kind == Match.Kind.PAIRED:
                    from .paired import paired_game_decided

                    paired_game_decided(match=match)
                continue
            match.status = Match.Status.QUEUED
            match.queued_at = now
            match.save(update_fields=["status", "queued_at"])
            match_enqueue(match)
            requeued.append(match_id)
    return requeued


def _redispatch_long_queued(now: Any) -> list[int]:
    """Send the play task again for matches queued longer than REAPER_QUEUED_AGE_SECONDS.

    A lost message (a broker restart without persistence, a purge) would otherwise leave its
    match queued for ever. When the first message was only slow, both get delivered: the one
    that comes second finds the match decided and is skipped (`match_start`,
    `match_record_result`), so a match never counts twice. Re-sending stamps `queued_at`, so a
    long but healthy queue gets at most one extra message per match and age. Matches of a
    paused league wait on purpose and are left alone.
    """
    cutoff = now - timedelta(seconds=settings.REAPER_QUEUED_AGE_SECONDS)
    waiting = (
        Match.objects.filter(status=Match.Status.QUEUED, queued_at__lt=cutoff)
        .exclude(league__status=League.Status.PAUSED)
        .order_by("queued_at", "pk")  # the longest waiting first
        .values_list("pk", flat=True)
    )
    resent = []
    for match_id in list(waiting):
        with transaction.atomic():
            match = Match.objects.select_for_update().get(pk=match_id)
            if match.status != Match.Status.QUEUED or match.queued_at >= cutoff:
                continue
            match.queued_at = now
            match.save(update_fields=["queued_at"])
            match_enqueue(match)
            resent.append(match_id)
    return resent
