"""Bots and bot versions: create, rename, retire, upload a bundle, build the bundles of
compiled languages (once, on a worker, in the sandbox), record the validation, register the
built-in bots."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.core.files.storage import storages
from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

import engine
from competition.versions import DRAFT_NUMBER
from engine.bots import BUILTIN_BOTS
from workers.sandbox import build as sandbox_build
from workers.sandbox import bundles
from workers.sandbox.isolation import IsolationMissing

from ..bundle_formats import bundle_kinds, formats_sentence
from ..errors import BundleRejected, Conflict, PermissionDenied, ValidationFailed
from ..jobs import BOT_BUILD, job
from ..models import Bot, BotVersion, Match, MatchSeat
from . import matches

logger = logging.getLogger(__name__)

SYSTEM_USERNAME = "arena-system"
# A validation match is a 2-seat game against the random bot, in the first of these modes
# that this build of the engine has.
VALIDATION_MODES = ("standard", "duel", "family")
# What an upload may be: one source file of a language that runs from one file, or a zip.
BUNDLE_KINDS = bundle_kinds()  # from the languages table: py, js, mjs, cjs, zip
BUILT_PREFIX = "built/"  # built bundles in storage "bots", named by their sha256
# A build is only given up as lost this long after its time limit (fetching the sources and
# storing the result take time too), whatever BOT_BUILD_RESEND_AGE_SECONDS says.
BUILD_MARGIN_SECONDS = 60.0


def system_user() -> Any:
    """The owner of built-in bots; created on first use, never able to log in."""
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=SYSTEM_USERNAME, defaults={"is_active": False}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def _check_owner(bot: Bot, user: Any) -> None:
    if bot.is_system:
        raise PermissionDenied(PermissionDenied.SYSTEM_BOT)
    if bot.owner_id != user.pk:
        raise PermissionDenied(PermissionDenied.NOT_OWNER)


def bot_owner_check(*, bot: Bot, user: Any) -> None:
    """PermissionDenied unless `user` owns `bot`: asked before a request's fields are read."""
    _check_owner(bot, user)


def bot_create(*, owner: Any, name: str, description: str = "") -> Bot:
    name = name.strip()
    if not name:
        raise ValidationFailed("A bot needs a name.", fields={"name": ["required"]})
    if Bot.objects.filter(name__iexact=name).exists():
        raise Conflict(Conflict.BOT_NAME_TAKEN, fields={"name": ["taken"]})
    try:
        with transaction.atomic():
            return Bot.objects.create(owner=owner, name=name, description=description)
    except IntegrityError:  # lost a race with another request for the same name
        raise Conflict(Conflict.BOT_NAME_TAKEN, fields={"name": ["taken"]}) from None


def bot_update(
    *, bot: Bot, user: Any, name: str | None = None, description: str | None = None
) -> Bot:
    _check_owner(bot, user)
    if name is not None and name.strip() != bot.name:
        name = name.strip()
        if not name:
            raise ValidationFailed("A bot needs a name.", fields={"name": ["required"]})
        if Bot.objects.filter(name__iexact=name).exclude(pk=bot.pk).exists():
            raise Conflict(Conflict.BOT_NAME_TAKEN, fields={"name": ["taken"]})
        bot.name = name
    if description is not None:
        bot.description = description
    bot.save(update_fields=["name", "description"])
    return bot


def bot_retire(*, bot: Bot, user: Any) -> Bot:
    """A retired bot keeps its history but takes no new versions, entries or challenges."""
    _check_owner(bot, user)
    bot.retired = True
    bot.save(update_fields=["retired"])
    return bot


def _next_number(bot: Bot) -> int:
    return (bot.versions.aggregate(m=Max("number"))["m"] or 0) + 1


def _validate_bundle(data: bytes, filename: str) -> dict[str, Any]:
    """Run the bots engineer's checks (zip entries, links, sizes, manifest) without unpacking."""
    try:
        info = bundles.validate_bundle(data, filename, max_bytes=settings.BOT_UPLOAD_MAX_BYTES)
    except bundles.BundleError as exc:
        raise BundleRejected(exc.reason, fields={"file": [exc.reason]}) from None
    return info.to_json()


def _checked_bundle(filename: str, data: bytes) -> tuple[str, dict[str, Any], str]:
    """(kind, manifest, sha256) of a bundle that passes an upload's checks (size, kind,
    contents); BundleRejected, in words, otherwise."""
    limit = settings.BOT_UPLOAD_MAX_BYTES
    if len(data) > limit:
        raise BundleRejected.too_large(limit)
    if not data:
        raise BundleRejected(BundleRejected.EMPTY, fields={"file": ["empty"]})
    kind = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    if kind not in BUNDLE_KINDS:
        raise BundleRejected(
            BundleRejected.BAD_EXTENSION.format(formats=formats_sentence()),
            fields={"file": ["bad extension"]},
        )
    return kind, _validate_bundle(data, filename), hashlib.sha256(data).hexdigest()


def bot_version_upload(*, bot: Bot, user: Any, filename: str, data: bytes) -> BotVersion:
    """Validate and store a bundle, then queue its validation match against the random bot."""
    _check_owner(bot, user)
    if bot.retired:
        raise Conflict(Conflict.BOT_RETIRED)
    kind, manifest, sha256 = _checked_bundle(filename, data)
    storage = storages["bots"]
    stored = ""
    try:
        with transaction.atomic():
            locked = Bot.objects.select_for_update().get(pk=bot.pk)
            number = _next_number(locked)
            stored = storage.save(f"{bot.pk}/{number}-{sha256[:12]}.{kind}", ContentFile(data))
            needs_build = _needs_build(manifest)
            version = BotVersion.objects.create(
                bot=locked, number=number, bundle_name=stored, bundle_kind=kind, sha256=sha256,
                size=len(data), manifest=_jsonable(manifest),
                build_queued_at=timezone.now() if needs_build else None,
            )  # fmt: skip
            if needs_build:
                _queue_build(version)
            else:
                _queue_validation(version)
    except BaseException:
        # The row was rolled back (or never written): the file must not outlive it.
        if stored:
            storage.delete(stored)
        raise
    return version


def bot_draft_snapshot(*, bot: Bot, user: Any, filename: str, data: bytes) -> BotVersion:
    """The draft snapshot of ``data``: the bot's workshop draft as a version its author's test
    games can play, checked and stored exactly as an upload of that one file would be, but
    never validated, numbered, entered or listed (status ``draft``, number 0). A draft is one
    file of a language that runs from its source (services/drafts.py), so it needs no build.
    The snapshot of the same text is reused; callers hold the author's row lock, so two plays
    of one draft at once do not both store it."""
    _check_owner(bot, user)
    kind, manifest, sha256 = _checked_bundle(filename, data)
    snapshot = BotVersion.with_drafts.filter(
        bot=bot, status=BotVersion.Status.DRAFT, sha256=sha256
    ).first()
    if snapshot is not None:
        return snapshot
    storage = storages["bots"]
    stored = storage.save(f"{bot.pk}/draft-{sha256[:12]}.{kind}", ContentFile(data))
    try:
        with transaction.atomic():
            return BotVersion.with_drafts.create(
                bot=bot, number=DRAFT_NUMBER, status=BotVersion.Status.DRAFT,
                bundle_name=stored, bundle_kind=kind, sha256=sha256, size=len(data),
                manifest=_jsonable(manifest),
            )  # fmt: skip
    except BaseException:
        storage.delete(stored)  # the row was not written: the file must not outlive it
        raise


def _needs_build(manifest: dict[str, Any]) -> bool:
    return "build" in bundles.language_spec(manifest["language"])


def _queue_build(version: BotVersion) -> None:
    """Queue the compile on a worker once the transaction commits (the caller has stamped
    ``build_queued_at``, which lets `bot_builds_resend_lost` notice a lost message)."""
    version_id = version.pk
    transaction.on_commit(lambda: job(BOT_BUILD).delay(version_id))


def build_stale_seconds() -> float:
    """How long a build may go without a result (since its task was sent, or since a worker
    began it) before it counts as lost: BOT_BUILD_RESEND_AGE_SECONDS, but never less than the
    build's own time limit and a margin, so a build still compiling is not taken over."""
    return max(
        settings.BOT_BUILD_RESEND_AGE_SECONDS,
        settings.BOT_BUILD_TIME_LIMIT + BUILD_MARGIN_SECONDS,
    )


def _unbuilt(cutoff: Any) -> Q:
    """Pending versions without a built bundle that no worker began compiling since ``cutoff``."""
    return Q(status=BotVersion.Status.PENDING, built_sha256="") & (
        Q(build_started_at__isnull=True) | Q(build_started_at__lt=cutoff)
    )


def _build_claim(version_id: int) -> bool:
    """Claim a version's build for this worker: one conditional update, so of two deliveries
    of its task (a slow message and its re-send) only one compiles. A claim older than
    `build_stale_seconds` belongs to a worker that died and may be taken over."""
    now = timezone.now()
    cutoff = now - timedelta(seconds=build_stale_seconds())
    claimed = BotVersion.objects.filter(_unbuilt(cutoff), pk=version_id).update(
        build_started_at=now
    )
    return claimed == 1


def bot_builds_resend_lost(*, now: Any = None) -> list[int]:
    """The beat job for builds: send the build task again for versions still waiting for a
    build `build_stale_seconds` after it was queued and after any worker began it (the broker
    lost the message, or the worker died). Returns the ids re-sent.

    Each re-send happens under the version's row lock after checking again, and stamps
    ``build_queued_at``, so two beat runs racing send it once, and a build that finished
    meanwhile is not sent at all. A message that was only slow is harmless: the delivery that
    comes second finds the build claimed or done and compiles nothing (`bot_version_build`).
    """
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=build_stale_seconds())
    lost = (
        BotVersion.objects.filter(_unbuilt(cutoff), build_queued_at__lt=cutoff)
        .order_by("build_queued_at", "pk")  # the longest waiting first
        .values_list("pk", flat=True)
    )
    resent = []
    for version_id in list(lost):
        with transaction.atomic():
            version = (
                BotVersion.objects.select_for_update()
                .filter(_unbuilt(cutoff), pk=version_id, build_queued_at__lt=cutoff)
                .first()
            )
            if version is None:  # built, failed, claimed or re-sent since the first read
                continue
            version.build_queued_at = now
            version.save(update_fields=["build_queued_at"])
            _queue_build(version)
            resent.append(version_id)
    return resent


def bot_version_build(*, version_id: int) -> BotVersion:
    """Compile an uploaded source bundle in the sandbox and store the result.

    Success: the built bundle is stored once under ``built/<sha256>.zip`` (content-addressed:
    the same build is never stored twice, and matches run it without compiling), the log is
    kept for the author and the validation match is queued. A compile error fails the version
    with the compiler's first error as its reason. Idempotent: a version that is no longer
    pending, already built, or being built by another worker (`_build_claim`) is left as it is
    (a task delivered twice, or sent again by `bot_builds_resend_lost`); and the result is
    written under the row lock only if no other build's result got there first.
    """
    if not _build_claim(version_id):
        return BotVersion.objects.get(pk=version_id)
    version = BotVersion.objects.get(pk=version_id)
    storage = storages["bots"]
    with storage.open(version.bundle_name, "rb") as f:
        data = f.read()
    limits = sandbox_build.BuildLimits(
        seconds=settings.BOT_BUILD_TIME_LIMIT, memory_mb=settings.BOT_BUILD_MEMORY_MB
    )
    try:
        result = sandbox_build.build_bundle(
            data, version.bundle_name.rsplit("/", 1)[-1], limits=limits,
            require_isolation=settings.SANDBOX_REQUIRED_ISOLATION,
        )  # fmt: skip
    except Exception as exc:  # the sandbox could not run the compiler at all
        if isinstance(exc, IsolationMissing):  # fail closed, and say so in the worker's log
            logger.error("bot version %s: %s", version_id, exc)
        reason, log, built = f"the build could not run: {exc}", "", None
    else:
        reason, log = ("" if result.ok else f"build failed: {result.reason}"), result.log
        built = result if result.ok else None
    name = ""
    if built is not None and built.bundle is not None and built.sha256:
        name = f"{BUILT_PREFIX}{built.sha256}.zip"
        if not storage.exists(name):
            saved = storage.save(name, ContentFile(built.bundle))
            if saved != name:  # another worker stored the same bytes meanwhile: keep one copy
                storage.delete(saved)
    with transaction.atomic():
        version = BotVersion.objects.select_for_update().get(pk=version_id)
        if version.status != BotVersion.Status.PENDING or version.built_sha256:
            return version
        version.build_log = log
        if built is None:
            version.status = BotVersion.Status.FAILED
            version.failure_reason = reason
            version.save(update_fields=["status", "failure_reason", "build_log"])
            return version
        version.built_bundle_name, version.built_sha256 = name, built.sha256 or ""
        version.save(update_fields=["build_log", "built_bundle_name", "built_sha256"])
        _queue_validation(version)
    return version


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def _queue_validation(version: BotVersion) -> Match:
    """The validation match plays under the limits of league matches (the bot is told the same
    numbers in `start`); only its startup gets a grace the bot is not told about (`match_spec`)."""
    random_version = builtin_version("random")
    return matches.match_create_internal(
        kind=Match.Kind.VALIDATION, mode=validation_mode(), options={},
        bot_versions=[version, random_version], league=None, requested_by=None,
        decision_time_limit=settings.BOT_DECISION_TIME_LIMIT, time_bank=settings.BOT_TIME_BANK,
    )  # fmt: skip


def validation_mode() -> str:
    """The first validation mode this build has (a mode being rewritten does not matter)."""
    for mode in VALIDATION_MODES:
        try:
            engine.mode_class(mode)
        except engine.ConfigError:
            continue
        return mode
    raise ValidationFailed("No game mode is available to validate bots on.")


def bot_version_record_validation(*, match: Match) -> None:
    """Mark the uploaded version of a finished (or failed) validation match ready or failed."""
    for seat in match.seats.select_related("bot_version"):
        version = seat.bot_version
        if version.builtin:
            continue
        if match.status == Match.Status.FINISHED and not seat.fault:
            version.status = BotVersion.Status.READY
            version.failure_reason = ""
        else:
            version.status = BotVersion.Status.FAILED
            reason = seat.fault_detail or seat.fault or match.error or "validation match failed"
            version.failure_reason = f"{seat.fault}: {reason}" if seat.fault else reason
        version.log = seat.log
        version.save(update_fields=["status", "failure_reason", "log"])


def bot_versions_count_seats(*, seats: Iterable[Any]) -> None:
    """Count a finished rated match's seats (with their final fault) in their versions'
    totals (the bot page's fault rate) and fault streaks, in the caller's transaction; a
    version whose streak reaches FAULT_SUSPEND_AFTER is suspended from scheduling. Only league
    matches come here: validations, challenges and paired runs are not rated. The versions
    are locked in id order, the order every result takes them in (services/head_to_head.py
    too)."""
    played: dict[int, list[int]] = {}
    details: dict[int, str] = {}
    for seat in seats:
        counts = played.setdefault(seat.bot_version_id, [0, 0])
        counts[0] += 1
        counts[1] += 1 if seat.fault else 0
        if seat.fault:  # the kind only: the reason is public, a fault's detail is not
            details[seat.bot_version_id] = seat.fault
    fields = ["seats_finished", "seats_faulted", "fault_streak", "suspended_at",
              "suspension_reason"]  # fmt: skip
    versions = list(BotVersion.objects.select_for_update().filter(pk__in=played).order_by("pk")
                    .only("pk", "builtin", *fields))  # fmt: skip
    after = settings.FAULT_SUSPEND_AFTER
    for version in versions:
        finished, faulted = played[version.pk]
        version.seats_finished += finished
        version.seats_faulted += faulted
        version.fault_streak = version.fault_streak + 1 if faulted else 0
        if (
            faulted and after > 0 and version.fault_streak >= after
            and version.suspended_at is None and not version.builtin
        ):  # fmt: skip
            version.suspended_at = timezone.now()
            version.suspension_reason = (
                f"faulted in {version.fault_streak} rated matches in a row"
                f" (the last: {details[version.pk]})"
            )
    BotVersion.objects.bulk_update(versions, fields)


def bot_version_resume(*, version: BotVersion, user: Any) -> BotVersion:
    """The author lifts a suspension: the version is scheduled again, its streak starts over
    (FAULT_SUSPEND_AFTER more faulting matches in a row suspend it again). This is the only
    way a suspension ends: a new version of the bot is a version of its own, and lifts
    nothing; the suspended one stays out of rated matches until its author resumes it or
    replaces it in the league by the new one."""
    _check_owner(version.bot, user)
    if version.suspended_at is None:
        raise Conflict(Conflict.NOT_SUSPENDED)
    with transaction.atomic():
        locked = BotVersion.objects.select_for_update().get(pk=version.pk)
        locked.suspended_at, locked.suspension_reason, locked.fault_streak = None, "", 0
        locked.save(update_fields=["suspended_at", "suspension_reason", "fault_streak"])
    return locked


def bot_seat_counts_rebuild() -> int:
    """Every version's seat and fault totals from the finished rated matches (after
    bulk imports that bypass the result service, such as the web bench's fill)."""
    totals = (
        MatchSeat.objects.filter(match__status=Match.Status.FINISHED, match__kind=Match.Kind.LEAGUE)
        .values("bot_version_id")
        .annotate(seats=Count("pk"), faults=Count("pk", filter=~Q(fault=""))).order_by()
    )  # fmt: skip
    by_version = {t["bot_version_id"]: (t["seats"], t["faults"]) for t in totals}
    versions = list(BotVersion.objects.only("pk", "seats_finished", "seats_faulted"))
    for version in versions:
        version.seats_finished, version.seats_faulted = by_version.get(version.pk, (0, 0))
    BotVersion.objects.bulk_update(versions, ["seats_finished", "seats_faulted"],
                                   batch_size=1000)  # fmt: skip
    return len(versions)


def builtin_version(name: str) -> BotVersion:
    versions = builtin_bots_register()
    return versions[name]


def builtin_bots_register() -> dict[str, BotVersion]:
    """Register each built-in bot as a system-owned Bot with one ready version (idempotent)."""
    owner = None
    out: dict[str, BotVersion] = {}
    for name in BUILTIN_BOTS:
        version = (
            BotVersion.objects.select_related("bot").filter(builtin=name, bot__is_system=True)
            .order_by("number").first()
        )  # fmt: skip
        if version is None:
            owner = owner or system_user()
            bot, _ = Bot.objects.get_or_create(
                name=name,
                defaults={"owner": owner, "is_system": True,
                          "description": f"Built-in {name} bot of the engine."},
            )  # fmt: skip
            version, _ = BotVersion.objects.get_or_create(
                bot=bot, number=1,
                defaults={"builtin": name, "status": BotVersion.Status.READY},
            )  # fmt: skip
        out[name] = version
    return out
