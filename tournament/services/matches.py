"""Matches: create (for leagues, challenges and validations), start, play through the runner,
record the result exactly once, fail, cancel, and re-queue matches stuck past their deadline or
whose queued message was lost. Challenges are checked and limited in `challenges.py`."""

from __future__ import annotations

import contextlib
import logging
import math
import secrets
import threading
import time
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

import engine
from competition.limits import Limits, match_worst_case_seconds
from replays.live import live_publisher
from workers.queueing.celery_app import app
from workers.queueing.queues import BACKGROUND, match_lane, match_queues
from workers.queueing.queues import match_queue as queue_of
from workers.sandbox.isolation import IsolationMissing

from ..errors import ValidationFailed
from ..jobs import MATCH_PLAY, job
from ..models import BotVersion, League, Match, MatchSeat
from ..page_cache import unseen_writes
from . import replay_upload as upload
from .bundle_files import bundle_local_path
from .head_to_head import head_to_head_record_match
from .marks import marks_store
from .match_ended import Ending, match_ended
from .outcome import PlayedMatch, SeatOutcome, outcome_from_runner
from .redact import redact_host_details

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 3
BROKER_RECHECK_SECONDS = 2.0  # the reaper's second look into the broker (lost messages)



def match_worst_case(match: Match, seats: int | None = None) -> float | None:
    """The longest the match can take (``competition.limits.match_worst_case_seconds``: seats x
    (decisions x limit + bank) plus startup), or None for a mode without a decisions bound."""
    seats = match.seats.count() if seats is None else seats
    limits = Limits(decision_seconds=match.decision_time_limit, bank_seconds=match.time_bank)
    try:
        return match_worst_case_seconds(match.mode, seats, limits)
    except KeyError:
        return None


def match_time_limits(match: Match, seats: int | None = None) -> tuple[int, int]:
    """(soft, hard) Celery time limits of the match's play task: its worst case plus
    MATCH_TIME_MARGIN_SECONDS (half of it for the soft limit) for the engine, built-in bots
    and the replay upload. The runner's own per-seat wall budget ends a match before them, so
    they are reached only by a runner bug or a host so loaded that its bots waited for a CPU
    longer than the margin (a wait never charged to a bot), never because of a bot."""
    worst = match_worst_case(match, seats)
    if worst is None:
        hard = settings.CELERY_TASK_TIME_LIMIT
        return settings.CELERY_TASK_SOFT_TIME_LIMIT, hard
    margin = settings.MATCH_TIME_MARGIN_SECONDS
    return math.ceil(worst + margin / 2), math.ceil(worst + margin)


def match_enqueue(match: Match, seats: int | None = None, *, again: bool = False) -> None:
    """Queue the play task once the surrounding transaction commits (never a phantom id),
    with time limits from the match's worst-case duration (``seats``: its number of seats
    when the caller knows it, else counted), in its kind's lane (validations and challenges
    ahead of league matches: workers/queueing/queues.py). ``again``: the match is sent again
    (its worker died, its message was lost, its play failed), to the retry lane that workers
    serve ahead of a backlog, unless its own lane is higher."""
    match_id = match.pk
    queue = match_queue(match.mode, again=again, lane=match_lane(match.kind))
    soft, hard = match_time_limits(match, seats)
    transaction.on_commit(
        lambda: job(MATCH_PLAY).apply_async(
            (match_id,), queue=queue, time_limit=hard, soft_time_limit=soft
        )
    )


# an ended match's status -> the league's count of them (League.matches_finished, ...)
ENDED_COUNTS = {
    Match.Status.FINISHED: "matches_finished",
    Match.Status.FAILED: "matches_failed",
    Match.Status.CANCELLED: "matches_cancelled",
}


def league_count_ended(*, league_id: int | None, status: str, n: int = 1) -> None:
    """`n` matches of the league ended with `status`: counted in its row, so its page never
    counts its history. Called in the transaction that ends them, where each match's end
    is decided exactly once (under its row lock, or by the update that ends it)."""
    if league_id is None or n <= 0:
        return
    field = ENDED_COUNTS[status]
    League.objects.filter(pk=league_id).update(**{field: F(field) + n})


def match_queue(mode: str, *, again: bool = False, lane: str = BACKGROUND) -> str:
    """The broker queue of a mode's matches in ``lane``: ``matches.<lane>``, or per mode with
    MATCH_QUEUE_PER_MODE on (so workers can be given to modes); a match sent ``again`` goes to
    the retry lane, served ahead of a backlog (workers/queueing/queues.py)."""
    return queue_of(mode, again=again, lane=lane)


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
    ahead: bool = False,
) -> Match:
    """Create a queued match with one seat per bot version (in seat order) and queue it.

    Limits not given come from the league, else from BOT_DECISION_TIME_LIMIT / BOT_TIME_BANK.
    `ahead`: on the lane workers serve ahead of the backlog (the retry queue): a new entrant's
    first ladder match, so a new version is not queued behind a ladder's whole backlog.
    """
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
    match_enqueue(match, len(bot_versions), again=ahead)
    return match


def _deadline(match: Match, seats: int) -> Any:
    """How long a running match may take before the reaper re-queues it: its task's hard
    time limit and a minute. A worker that died is noticed sooner, by its stale heartbeat."""
    _, hard = match_time_limits(match, seats)
    return timezone.now() + timedelta(seconds=hard + 60)


def match_heartbeat(*, match_id: int) -> bool:
    """The worker playing a match is alive: stamp ``heartbeat_at`` (False if not running).
    No page shows it, so it leaves the cached pages alone."""
    with unseen_writes():
        updated = Match.objects.filter(pk=match_id, status=Match.Status.RUNNING).update(
            heartbeat_at=timezone.now()
        )
    return bool(updated)


class _Heartbeat:
    """Stamps a running match's heartbeat every MATCH_HEARTBEAT_SECONDS from a thread of its
    own (a bot may think for minutes between two steps), and from the step hook, throttled.
    A database error is logged, never raised: the match goes on. The failing thread's
    connection is closed, so the next beat opens a new one: a connection the server dropped
    (a restart, a failover) would otherwise fail every later beat, and the reaper would take
    the live match for dead and have it played a second time."""

    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        self.every = settings.MATCH_HEARTBEAT_SECONDS
        self._last = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"heartbeat-{match_id}")
        self._thread.daemon = True

    def __enter__(self) -> _Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _beat(self) -> None:
        self._last = time.monotonic()
        try:
            match_heartbeat(match_id=self.match_id)
        except Exception:  # noqa: BLE001 - a lost beat only makes the reaper act sooner
            log.warning("match %s: heartbeat failed", self.match_id, exc_info=True)
            with contextlib.suppress(Exception):
                connection.close()  # this thread's: the next beat connects again

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.every):
                if time.monotonic() - self._last >= self.every:
                    self._beat()
        finally:
            connection.close()

    def step(self, *_: object) -> None:
        """The runner's step hook: beat when the last beat is MATCH_HEARTBEAT_SECONDS old."""
        if time.monotonic() - self._last >= self.every:
            self._beat()


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
        match.heartbeat_at = match.started_at
        match.attempts += 1
        match.save(update_fields=["status", "started_at", "deadline", "heartbeat_at", "attempts"])
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
            "bundle_path": str(bundle_local_path(v))
            if (v.built_bundle_name or v.bundle_name) else None,
            "bundle_kind": v.bundle_kind or None, "sha256": v.built_sha256 or v.sha256 or None,
            "bot_seed": seat.bot_seed,
        })  # fmt: skip
    spec = {
        "match_id": match.pk, "mode": match.mode, "seats": seats, "seed": match.seed,
        "options": match.options, "decision_time_limit": match.decision_time_limit,
        "time_bank": match.time_bank, "memory_limit_mb": settings.BOT_MEMORY_LIMIT_MB,
        "limits": {"wall_factor": settings.BOT_WALL_FACTOR},
        "require_isolation": list(settings.SANDBOX_REQUIRED_ISOLATION),
    }  # fmt: skip
    if match.kind == Match.Kind.VALIDATION:
        # A new upload starts on a cold worker; the grace is not part of what the bot is told.
        spec["limits"]["startup_grace_seconds"] = settings.BOT_VALIDATION_STARTUP_GRACE_SECONDS
    return spec


def match_play(*, match_id: int) -> Match | None:
    """Run one match end to end: start, play on the runner, store the replay, record."""
    match = match_start(match_id=match_id)
    if match is None:
        return None
    # looked up at each play, not at import: only workers load the runner (its agents and
    # bot processes), and the tests stand a scripted one in for it through sys.modules
    from workers.runner import run_match  # noqa: PLC0415

    try:
        spec = match_spec(match)  # fetches the bundles: the object store may fail
    except Exception as exc:
        log.exception("match %s: cannot prepare", match_id)
        return match_fail(match_id=match_id, error=f"{type(exc).__name__}: {exc}")
    live = live_publisher(match_id=match_id, spec=spec)  # spectators watch it as it plays
    try:
        try:
            with _Heartbeat(match_id) as heartbeat:

                def on_step(*args: Any) -> None:
                    heartbeat.step()
                    if live is not None:
                        live(*args)

                raw = run_match(spec, on_step=on_step)
            outcome = outcome_from_runner(raw)
        except IsolationMissing as exc:  # fail closed: no bot of this match was started
            log.error("match %s: %s", match_id, exc)
            if settings.CELERY_TASK_ALWAYS_EAGER:  # inline: no other worker could play it
                return match_fail(match_id=match_id, error=str(exc))
            return match_return_refused(match_id=match_id)
        except Exception as exc:  # the runner's own bug, not a bot fault: the match failed
            log.exception("match %s: runner failed", match_id)
            return match_fail(match_id=match_id, error=f"{type(exc).__name__}: {exc}")
        finished = match_finish(match_id=match_id, played=outcome)
        if finished is not None:
            actions = raw.get("actions") if isinstance(raw, dict) else getattr(raw, "actions", None)
            marks_store(match_id=match_id, actions=actions)
        return finished
    finally:
        if live is not None:
            live.close()


def match_finish(*, match_id: int, played: PlayedMatch) -> Match | None:
    """Store the replay, then record the result. When the store keeps failing, the result is
    handed to the retrying record task rather than lost (see services/replay_upload.py).

    A play of a match already decided by another play of it (re-queued while this one still
    ran) stores nothing. Two plays that finish together both store their replay, each under
    a name of its own; `match_record_result` keeps the one whose result it records."""
    open_statuses = (Match.Status.QUEUED, Match.Status.RUNNING)
    if not Match.objects.filter(pk=match_id, status__in=open_statuses).exists():
        log.warning("match %s: decided by another play meanwhile; this one is dropped", match_id)
        return None
    try:
        replay = upload.replay_upload(match_id=match_id, data=played.replay)
    except upload.ReplayUploadFailed as exc:
        if settings.CELERY_TASK_ALWAYS_EAGER:  # inline tasks: no broker to keep it for later
            log.error("match %s: %s; recorded without its replay", match_id, exc)
            return match_record_result(
                match_id=match_id, seats=played.seats, result=played.result, error=str(exc)
            )
        log.warning("match %s: %s; the result waits in the broker", match_id, exc)
        upload.record_later(match_id=match_id, played=played)
        return Match.objects.get(pk=match_id)
    return match_record_result(
        match_id=match_id, seats=played.seats, result=played.result, replay=replay
    )


def match_record_deferred(
    *, match_id: int, payload: dict[str, Any], last: bool = False
) -> Match | None:
    """The record task's body: store the replay of a result that waited in the broker, then
    record it. ``ReplayUploadFailed`` propagates so the task retries, unless this is its
    ``last`` try: then the result is recorded without its replay. A match decided meanwhile
    (re-queued and played again) is left alone."""
    status = Match.objects.filter(pk=match_id).values_list("status", flat=True).first()
    if status not in (Match.Status.QUEUED, Match.Status.RUNNING):
        return None
    played = upload.played_from_json(payload)
    try:
        replay = upload.replay_upload(match_id=match_id, data=played.replay, attempts=1)
    except upload.ReplayUploadFailed as exc:
        if not last:
            raise
        log.error("match %s: %s; recorded without its replay", match_id, exc)
        return match_record_result(
            match_id=match_id, seats=played.seats, result=played.result, error=str(exc)
        )
    return match_record_result(
        match_id=match_id, seats=played.seats, result=played.result, replay=replay
    )


def match_record_result(
    *,
    match_id: int,
    seats: Sequence[SeatOutcome],
    result: dict[str, Any],
    replay: dict[str, Any] | None = None,
    error: str = "",
) -> Match | None:
    """Record a played match, its ratings, head-to-head records and the league's progress in
    one transaction.

    Idempotent: a match that is no longer queued or running is left untouched, so a retried
    or duplicated task never counts a match twice. The row lock decides between two plays of
    one match (re-queued while the first still ran): the first to record wins and its
    ``replay`` (stored under a name of that play) is the one recorded; the other play's
    stored replay, which nothing points to, is deleted once the lock is released.
    """
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status in (Match.Status.QUEUED, Match.Status.RUNNING):
            return _record_locked(match, seats=seats, result=result, replay=replay, error=error)
        kept = match.replay_name
    lost = (replay or {}).get("name")
    if lost and lost != kept:  # the same name: a byte-identical replay, the recorded one
        upload.replay_discard(match_id=match_id, name=lost)
    return None


def _record_locked(
    match: Match,
    *,
    seats: Sequence[SeatOutcome],
    result: dict[str, Any],
    replay: dict[str, Any] | None,
    error: str,
) -> Match:
    """The body of `match_record_result`, on the locked row of a match still open."""
    match_id = match.pk
    rows = {s.seat: s for s in match.seats.all()}
    if len(seats) != len(rows):
        raise ValidationFailed(f"match {match_id} has {len(rows)} seats, got {len(seats)}")
    for out in seats:
        row = rows[out.seat]
        row.score, row.rank, row.time_used = out.score, out.rank, out.time_used
        row.fault, row.fault_detail, row.log = out.fault, out.fault_detail, out.log
        row.fault_evidence = out.fault_evidence
    MatchSeat.objects.bulk_update(
        rows.values(),
        ["score", "rank", "time_used", "fault", "fault_detail", "log", "fault_evidence"],
    )
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.result = result
    match.error = error[-4000:]
    replay = replay or {}
    match.replay_name = replay.get("name", "")
    match.replay_sha256 = replay.get("sha256", "")
    match.replay_size = replay.get("size", 0)
    match.save()
    # versions locked in id order by both: h2h first (league and challenge matches), then
    # what the kind of match sets off (tournament/wiring.py)
    head_to_head_record_match(match=match, seats=rows.values())
    match_ended(match=match, ending=Ending.RECORDED, seats=list(rows.values()))
    # last, as the league's row was locked before this count existed (after the versions')
    league_count_ended(league_id=match.league_id, status=match.status)
    return match


def match_fail(*, match_id: int, error: str) -> Match | None:
    """Retry a match that failed for a reason other than its bots, up to MAX_ATTEMPTS."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status not in (Match.Status.QUEUED, Match.Status.RUNNING):
            return None
        match.error = redact_host_details(error)[-4000:]  # users read it: no host paths
        if match.attempts < MAX_ATTEMPTS and match.kind != Match.Kind.VALIDATION:
            match.status = Match.Status.QUEUED
            match.queued_at = timezone.now()
            match.save(update_fields=["status", "error", "queued_at"])
            match_enqueue(match, again=True)
            return match
        match.status = Match.Status.FAILED
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "error", "finished_at"])
        league_count_ended(league_id=match.league_id, status=match.status)
        match_ended(match=match, ending=Ending.FAILED)
        return match


def match_return_refused(*, match_id: int) -> Match | None:
    """Give back a match this worker may not play (its sandbox lacks a required isolation
    layer: the worker's fault, not the match's): queued again for another worker, the
    attempt it counted taken back, no error recorded. A worker in that state consumes no
    match queue (workers/queueing/worker_queues.py); this catches a message it held before."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status != Match.Status.RUNNING:
            return None
        match.status = Match.Status.QUEUED
        match.attempts = max(0, match.attempts - 1)
        match.queued_at = timezone.now()
        match.save(update_fields=["status", "attempts", "queued_at"])
        match_enqueue(match, again=True)
    log.warning("match %s: sent back to the queue for a worker that can isolate bots", match_id)
    return match


def match_cancel_queued(*, league: League) -> int:
    """Cancel a league's queued matches (the league was closed)."""
    cancelled = Match.objects.filter(league=league, status=Match.Status.QUEUED).update(
        status=Match.Status.CANCELLED, finished_at=timezone.now()
    )
    league_count_ended(league_id=league.pk, status=Match.Status.CANCELLED, n=cancelled)
    return cancelled


def matches_reap_stale(*, now: Any = None) -> list[int]:
    """The reaper beat job: re-queue running matches whose worker died (a heartbeat older
    than MATCH_HEARTBEAT_STALE_SECONDS, or past their deadline) and re-send queued matches
    whose broker message seems lost. Returns the ids of both kinds."""
    now = now or timezone.now()
    return _requeue_running_stale(now) + _redispatch_long_queued(now)


def _stale(match: Match, now: Any, beat_cutoff: Any) -> bool:
    if match.deadline is not None and match.deadline < now:
        return True
    return match.heartbeat_at is not None and match.heartbeat_at < beat_cutoff


def _requeue_running_stale(now: Any) -> list[int]:
    """Running matches whose worker stopped beating (died: re-queued within a reaper period
    of MATCH_HEARTBEAT_STALE_SECONDS) or that outlived their deadline."""
    requeued = []
    beat_cutoff = now - timedelta(seconds=settings.MATCH_HEARTBEAT_STALE_SECONDS)
    stale = Match.objects.filter(
        Q(deadline__lt=now) | Q(heartbeat_at__lt=beat_cutoff), status=Match.Status.RUNNING
    ).values_list("pk", flat=True)
    for match_id in list(stale):
        with transaction.atomic():
            match = Match.objects.select_for_update().get(pk=match_id)
            if match.status != Match.Status.RUNNING or not _stale(match, now, beat_cutoff):
                continue
            if match.attempts >= MAX_ATTEMPTS:
                match.status = Match.Status.FAILED
                match.error = "gave up: worker lost on every attempt"
                match.finished_at = now
                match.save(update_fields=["status", "error", "finished_at"])
                league_count_ended(league_id=match.league_id, status=match.status)
                match_ended(match=match, ending=Ending.ABANDONED)
                continue
            match.status = Match.Status.QUEUED
            match.queued_at = now
            match.save(update_fields=["status", "queued_at"])
            match_enqueue(match, again=True)
            requeued.append(match_id)
    return requeued


def _redispatch_long_queued(now: Any) -> list[int]:
    """Send the play task again for matches queued longer than REAPER_QUEUED_AGE_SECONDS
    whose message the broker no longer holds.

    A lost message (a broker restart without persistence, a purge, a worker killed with the
    message it had taken from the embedded broker) would otherwise leave its match queued for
    ever. The broker's queues are read (`workers.queueing.broker.waiting_task_args`), so a match
    that
    only waits behind a backlog is left alone; with a broker that cannot be read that way,
    every match older than the age is sent again. A duplicate is harmless: the delivery that
    comes second finds the match decided and is skipped (`match_start`,
    `match_record_result`), so a match never counts twice. Re-sending stamps `queued_at`, so a
    match gets at most one extra message per age. Matches of a paused league wait on purpose
    and are left alone.
    """
    cutoff = now - timedelta(seconds=settings.REAPER_QUEUED_AGE_SECONDS)
    waiting = list(
        Match.objects.filter(status=Match.Status.QUEUED, queued_at__lt=cutoff)
        .exclude(league__status=League.Status.PAUSED)
        .order_by("queued_at", "pk")  # the longest waiting first
        .values_list("pk", flat=True)
    )
    if not waiting:
        return []
    in_broker = _match_ids_in_broker()
    if in_broker is not None:
        # A worker may have taken a message a moment ago without having started its match
        # yet: look again after a pause, and keep only what is missing both times (a match
        # started meanwhile is no longer queued, which the loop below checks under its lock).
        missing = [match_id for match_id in waiting if match_id not in in_broker]
        if missing:
            time.sleep(BROKER_RECHECK_SECONDS)
            in_broker = (_match_ids_in_broker() or set()) | in_broker
    resent = []
    for match_id in waiting:
        if in_broker is not None and match_id in in_broker:
            continue
        with transaction.atomic():
            match = Match.objects.select_for_update().get(pk=match_id)
            if match.status != Match.Status.QUEUED or match.queued_at >= cutoff:
                continue
            match.queued_at = now
            match.save(update_fields=["queued_at"])
            match_enqueue(match, again=True)
            resent.append(match_id)
    if resent:
        log.warning("matches %s: queued without a message in the broker; sent again", resent)
    return resent


def _match_ids_in_broker() -> set[int] | None:
    """The ids of matches whose play task waits in the broker, None if it cannot be read
    (or tasks run inline: there is no broker)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return None
    # only the reaper reads the broker's queues: SQLAlchemy (the embedded broker's transport)
    # loads with it, not in every process that imports the services
    from workers.queueing.broker import waiting_task_args  # noqa: PLC0415

    try:
        found = waiting_task_args(app, "arena.match_play", match_queues())
    except Exception:  # noqa: BLE001 - the broker is down: its messages may be lost too
        log.warning("cannot read the broker's queues", exc_info=True)
        return None
    if found is None:
        return None
    return {args[0] for args in found if args and isinstance(args[0], int)}
