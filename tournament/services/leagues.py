"""Leagues: create, invite, enter, start, pause and close them, and run them between their
matches. What a league plays (its tables, its rounds, when it ends, its final places) is its
format's (`tournament/formats/`): this module asks the league's format at each step."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.template.defaultfilters import pluralize
from django.utils import timezone

from competition.limits import Limits, decisions_bound, match_worst_case_seconds
from competition.seeds import seed_from

# The built-in formats' tables and the entries they seat keep their names here (the tests and
# the bench call them so): `X as X` marks them re-exported.
from .. import formats
from .. import seed_privacy as seed_privacy_rules
from ..errors import BadGameConfig, Conflict, Faults, NotFound, PermissionDenied, ValidationFailed
from ..formats.ladder import ladder_tables as ladder_tables
from ..formats.playoff import playoffs_start
from ..formats.round_robin import round_robin_tables as round_robin_tables
from ..formats.swiss import swiss_byes as swiss_byes
from ..formats.swiss import swiss_tables as swiss_tables
from ..models import Bot, BotVersion, League, LeagueEntry, LeagueInvitation, LeaguePlace, Match
from ..selectors import league_list
from ..selectors.entries import scheduled_entries as scheduled_entries
from .event_rules import entry_open_check, event_problems
from .game_config import game_config_check
from .matches import match_cancel_queued, match_enqueue

log = logging.getLogger(__name__)

ORGANISE_PERMISSION = "tournament.organise_leagues"


def is_organiser(user: Any) -> bool:
    return bool(user and user.is_authenticated and user.has_perm(ORGANISE_PERMISSION))


def _check_league_organiser(league: League, user: Any) -> None:
    if not (user.is_superuser or (league.organiser_id == user.pk and is_organiser(user))):
        raise PermissionDenied(PermissionDenied.NOT_LEAGUE_ORGANISER)


def league_organiser_check(*, league: League, user: Any) -> None:
    """PermissionDenied unless `user` runs `league`: asked before a request's fields are
    read, so a stranger learns nothing of what the fields should be."""
    _check_league_organiser(league, user)


def league_create_check(*, user: Any) -> None:
    """PermissionDenied unless `user` may create leagues (asked before the fields too)."""
    if not is_organiser(user):
        raise PermissionDenied(PermissionDenied.NOT_ORGANISER)


def league_create(
    *,
    organiser: Any,
    name: str,
    mode: str,
    seats: int,
    format: str,  # noqa: A002 - the API's word
    options: dict[str, Any] | None = None,
    public: bool = True,
    decision_time_limit: float = 1.0,
    time_bank: float = 30.0,
    seeds: int = 1,
    rounds: int = 3,
    ladder_order: str = League.LadderOrder.ELO,
    marks_public: bool = False,
    points_table: list[Any] | None = None,
    bye_points: float | None = None,
    starts_at: Any = None,
    entry_deadline: Any = None,
    max_entrants: int | None = None,
    all_seat_orders: bool = False,
    seed_privacy: str = "public",
    division_size: int = 0,
    division_every: int = 10,
    format_settings: dict[str, Any] | None = None,
) -> League:
    """Create a draft league; `format_settings`: its format's own (a bracket's best_of,
    seeding, ...: `Format.settings_fields`). Every fault of the fields is named in one error."""
    league_create_check(user=organiser)
    fmt = formats.find(format)
    own_settings = dict(format_settings or {})
    own = (fmt.settings_problems(organiser=organiser, mode=mode, seats=seats,
                                 settings=own_settings)
           if fmt is not None else Faults())  # fmt: skip
    event = {"points_table": points_table or [], "bye_points": bye_points,
             "starts_at": starts_at, "entry_deadline": entry_deadline,
             "max_entrants": max_entrants, "seed_privacy": seed_privacy,
             "division_size": division_size, "division_every": division_every}  # fmt: skip
    try:
        cleaned = _league_config_check(
            mode=mode, seats=seats, format=format, options=options,
            decision_time_limit=decision_time_limit, time_bank=time_bank, seeds=seeds,
            rounds=rounds, ladder_order=ladder_order, event=event,
        )  # fmt: skip
    except ValidationFailed as exc:
        if not own:
            raise
        raise ValidationFailed(
            " ".join([exc.message, *own.messages]), fields={**exc.fields, **own.fields}
        ) from None
    event["points_table"] = [float(p) for p in event["points_table"]]
    if League.objects.filter(name__iexact=name.strip()).exists():
        raise Conflict(Conflict.LEAGUE_NAME_TAKEN, fields={"name": ["taken"]})
    if own:
        raise own.error()
    try:
        with transaction.atomic():
            league = League.objects.create(
                name=name.strip(), organiser=organiser, mode=mode, seats=seats, options=cleaned,
                format=format, public=public, decision_time_limit=decision_time_limit,
                time_bank=time_bank, seeds=seeds, rounds=rounds, ladder_order=ladder_order,
                marks_public=marks_public, all_seat_orders=all_seat_orders, **event,
            )  # fmt: skip
            league.base_seed = (
                seed_from("league", league.pk, league.name)
                if seed_privacy == seed_privacy_rules.PUBLIC
                else seed_privacy_rules.secret_base_seed()  # not to be worked out from the id
            )
            league.save(update_fields=["base_seed"])
            formats.get(format).created(league, own_settings)
            return league
    except IntegrityError:
        raise Conflict(Conflict.LEAGUE_NAME_TAKEN, fields={"name": ["taken"]}) from None


def _league_config_check(
    *,
    mode: str,
    seats: int,
    format: str,  # noqa: A002 - the API's word
    options: dict[str, Any] | None,
    decision_time_limit: float,
    time_bank: float,
    seeds: int,
    rounds: int,
    ladder_order: str,
    event: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The cleaned options, or one error that names every field at fault (not just the first).

    Game-config faults alone keep their own error (BadGameConfig); mixed with others they are
    reported together as one ValidationFailed.
    """
    messages: list[str] = []
    fields: dict[str, list[str]] = {}

    def fault(field: str, message: str, detail: str) -> None:
        messages.append(message)
        fields.setdefault(field, []).append(detail)

    cleaned: dict[str, Any] = {}
    game_error: BadGameConfig | None = None
    try:
        cleaned = game_config_check(mode=mode, seats=seats, options=options, what="leagues")
    except BadGameConfig as exc:
        game_error = exc
    if formats.find(format) is None:
        choices = ", ".join(key for key, _ in formats.choices())
        fault("format", f"Format must be one of {choices}.", f"one of {choices}")
    if not 0 < decision_time_limit <= 60:
        fault(
            "decision_time_limit", "Time per decision must be more than 0 and at most 60 "
            "seconds.",
            "out of range (0, 60]",
        )  # fmt: skip
    if not 0 <= time_bank <= 600:
        fault("time_bank", "Time bank must be from 0 to 600 seconds.", "out of range [0, 600]")
    elif 0 < decision_time_limit <= 60 and game_error is None:
        _check_worst_case(mode, seats, decision_time_limit, time_bank, fault)
    if ladder_order not in League.LadderOrder.values:
        choices = ", ".join(League.LadderOrder.values)
        fault("ladder_order", f"Ladder order must be one of {choices}.", f"one of {choices}")
    if not 1 <= seeds <= 100:
        fault("seeds", "Seeds must be from 1 to 100.", "1..100")
    if not 1 <= rounds <= 100:
        fault("rounds", "Rounds must be from 1 to 100.", "1..100")
    for field, message in event_problems(seats=seats, format=format, **(event or {})):
        fault(field, message, message)
    if game_error is not None and not messages:
        raise game_error
    if game_error is not None:
        messages.insert(0, game_error.message)
        for field, details in game_error.fields.items():
            fields.setdefault(field, []).extend(details)
    if messages:
        raise ValidationFailed(" ".join(messages), fields=fields)
    return cleaned


def _check_worst_case(
    mode: str, seats: int, decision_time_limit: float, time_bank: float, fault: Any
) -> None:
    """Refuse limits whose worst-case match (seats x (decisions x limit + bank) + startup,
    competition/limits.py) would outlast MATCH_WORST_CASE_CEILING_SECONDS."""
    limits = Limits(decision_seconds=decision_time_limit, bank_seconds=time_bank)
    try:
        worst = match_worst_case_seconds(mode, seats, limits)
    except KeyError:
        return
    ceiling = settings.MATCH_WORST_CASE_CEILING_SECONDS
    if worst > ceiling:
        fault(
            "decision_time_limit",
            f"With these limits a {mode} match of {seats} seat{pluralize(seats)} could last"
            f" {worst:.0f} s"
            f" ({seats} x ({decisions_bound(mode)} decisions x {decision_time_limit:g} s"
            f" + {time_bank:g} s bank) + startup), over the {ceiling:.0f} s this server"
            " allows: lower the time per decision or the time bank.",
            f"worst case {worst:.0f} s > {ceiling:.0f} s",
        )


def _check_ladder_order(ladder_order: str) -> None:
    if ladder_order not in League.LadderOrder.values:
        raise ValidationFailed(
            f"Ladder order must be one of {', '.join(League.LadderOrder.values)}.",
            fields={"ladder_order": [ladder_order]},
        )


def league_set_ladder_order(*, league: League, user: Any, ladder_order: str) -> League:
    """The organiser chooses what ranks the ladder: Elo, or the conservative OpenSkill rating
    (μ − 3σ), which keeps a lucky newcomer from topping it. Any time: both are always kept."""
    _check_league_organiser(league, user)
    _check_ladder_order(ladder_order)
    league.ladder_order = ladder_order
    league.save(update_fields=["ladder_order"])
    return league


def league_entry_add(
    *,
    league: League,
    user: Any,
    bot_id: int | None = None,
    bot_version_id: int | None = None,
) -> LeagueEntry:
    """Enter a bot's latest ready version, or a chosen version, by its owner or the organiser."""
    if (bot_id is None) == (bot_version_id is None):
        raise ValidationFailed(
            "Give exactly one of bot or bot_version.", fields={"bot": ["bot or bot_version"]}
        )
    fmt = formats.get(league.format)
    source = fmt.filled_by(league)
    if source is not None:
        raise Conflict(Conflict.PLAYOFF_FILLED.format(source=source.name))
    if not fmt.takes_entries(league):  # a draft, or a ladder while it runs
        raise Conflict(Conflict.LEAGUE_NOT_OPEN)
    entry_open_check(league)
    if bot_version_id is not None:
        version = BotVersion.objects.select_related("bot").filter(pk=bot_version_id).first()
        if version is None:
            raise NotFound(f"Bot version {bot_version_id} does not exist.")
        if version.status != BotVersion.Status.READY:
            raise Conflict(Conflict.VERSION_NOT_READY, fields={"bot_version": ["not ready"]})
        if version.suspended_at is not None:
            raise Conflict(Conflict.VERSION_SUSPENDED, fields={"bot_version": ["suspended"]})
        bot = version.bot
    else:
        bot = Bot.objects.filter(pk=bot_id).first()
        if bot is None:
            raise NotFound(f"Bot {bot_id} does not exist.")
        version = bot.versions.filter(status=BotVersion.Status.READY).order_by("-number").first()
        if version is None:
            raise Conflict(Conflict.NO_READY_VERSION, fields={"bot": ["no ready version"]})
        if version.suspended_at is not None:
            raise Conflict(Conflict.VERSION_SUSPENDED, fields={"bot": ["suspended"]})
    # The owner enters their bot; the organiser may also invite any ready bot (private leagues).
    is_organiser_here = user.is_superuser or league.organiser_id == user.pk
    if bot.owner_id != user.pk and not is_organiser_here:
        raise PermissionDenied(PermissionDenied.NOT_OWNER)
    if not league.public and not is_organiser_here and not _may_see(league, user):
        raise PermissionDenied(PermissionDenied.NOT_INVITED)
    if bot.retired:
        raise Conflict(Conflict.BOT_RETIRED)
    try:
        with transaction.atomic():
            entry = LeagueEntry.objects.create(league=league, bot_version=version)
    except IntegrityError:
        raise Conflict(Conflict.ALREADY_ENTERED) from None
    if fmt.continuous and league.status == League.Status.RUNNING:
        # A running ladder takes the newcomer at once (and wakes if it was at rest), instead
        # of at the beat's next tick.
        transaction.on_commit(lambda: league_schedule_round(league=league))
    return entry


def _may_see(league: League, user: Any) -> bool:
    return league_list(user=user).filter(pk=league.pk).exists()


def league_invite(*, league: League, user: Any, username: str) -> LeagueInvitation:
    """Invite a user into the league: they see it (even private) and may enter their bots."""
    _check_league_organiser(league, user)
    if league.status == League.Status.CLOSED:
        raise Conflict(Conflict.LEAGUE_CLOSED)
    invited = get_user_model().objects.filter(username=username, is_active=True).first()
    if invited is None:
        raise NotFound(f"User {username!r} does not exist.", fields={"user": ["no such user"]})
    try:
        with transaction.atomic():
            return LeagueInvitation.objects.create(league=league, user=invited, invited_by=user)
    except IntegrityError:
        raise Conflict(Conflict.ALREADY_INVITED, fields={"user": ["already invited"]}) from None


def league_start(*, league: League, user: Any, automatic: bool = False) -> League:
    """Start a draft league (and schedule its first matches) or resume a paused one;
    `automatic`: the beat job starting it at its start time (`leagues_start_due`)."""
    if not automatic:
        _check_league_organiser(league, user)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if league.status == League.Status.PAUSED:
            league.status = League.Status.RUNNING
            league.save(update_fields=["status"])
            waiting = league.matches.filter(status=Match.Status.QUEUED)
            waiting.update(queued_at=timezone.now())  # sent again now: not lost
            for match in waiting:
                match_enqueue(match, league.seats)
            return league
        if league.status != League.Status.DRAFT:
            raise Conflict(Conflict.LEAGUE_NOT_DRAFT)
        fmt = formats.get(league.format)
        source = fmt.filled_by(league)
        if source is not None:
            raise Conflict(Conflict.PLAYOFF_FILLED.format(source=source.name))
        fmt.start(league)
        return league


def league_open(*, league: League, user: Any) -> League:
    """Open a draft ladder for play without scheduling now: the ladder beat, or the next
    entry, schedules its matches. It may open with fewer entrants than a table needs (an
    open ladder waits for them)."""
    _check_league_organiser(league, user)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if not formats.get(league.format).continuous or league.status != League.Status.DRAFT:
            raise Conflict(Conflict.LEAGUE_NOT_DRAFT)
        league.status = League.Status.RUNNING
        league.save(update_fields=["status"])
    return league


def league_pause(*, league: League, user: Any) -> League:
    """Queued matches stay queued (workers skip them) until the league is started again."""
    _check_league_organiser(league, user)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if league.status != League.Status.RUNNING:
            raise Conflict(Conflict.LEAGUE_NOT_RUNNING)
        league.status = League.Status.PAUSED
        league.save(update_fields=["status"])
    return league


def league_close(*, league: League, user: Any) -> League:
    """Close a league for good; its queued matches are cancelled, running ones still count."""
    _check_league_organiser(league, user)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if league.status == League.Status.CLOSED:
            raise Conflict(Conflict.LEAGUE_CLOSED)
        league.status = League.Status.CLOSED
        league.save(update_fields=["status"])
        match_cancel_queued(league=league)
        _closed(league)
    return league


def _closed(league: League) -> None:
    """A league just closed (by its organiser, or at its end): record its places, then fill
    and start the playoffs that follow it (a season runs on with no further action)."""
    league_places_record(league=league)
    playoffs_start(source=league)


def league_places_record(*, league: League) -> list[LeaguePlace]:
    """Write a closed league's final places (its format's; a bracket closed early has none)
    once."""
    if LeaguePlace.objects.filter(league=league).exists():
        return []
    return LeaguePlace.objects.bulk_create(
        [
            LeaguePlace(league=league, entry_id=p.entry_id, place=p.place, result=p.result[:120],
                        figures=p.figures)
            for p in formats.get(league.format).places(league)
        ]  # fmt: skip
    )


# --- between matches ---------------------------------------------------------------------


def league_schedule_round(*, league: League) -> list[Match]:
    """Queue the next matches of a running league; returns them (empty when nothing is due)."""
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if league.status != League.Status.RUNNING:
            return []
        return formats.get(league.format).schedule(league)


def league_progress(*, league_id: int) -> None:
    """After a match of the league ended (in the transaction that recorded it): its format
    schedules what follows, and the league closes when its format says it is over."""
    league = League.objects.select_for_update().get(pk=league_id)
    if league.status != League.Status.RUNNING:
        return
    fmt = formats.get(league.format)
    fmt.after_match(league)
    if fmt.is_over(league):
        league.status = League.Status.CLOSED
        league.save(update_fields=["status"])
        _closed(league)


def leagues_start_due(*, now: datetime | None = None) -> list[int]:
    """The beat job's part: start every draft whose start time has come. One with too few
    entrants stays a draft (logged), and is tried again at the next tick until its organiser
    moves the time or closes it. Returns the ids started."""
    now = now or timezone.now()
    started = []
    due = League.objects.filter(status=League.Status.DRAFT, starts_at__lte=now)
    for league in due.select_related("organiser"):
        try:
            league_start(league=league, user=league.organiser, automatic=True)
        except (Conflict, PermissionDenied) as exc:
            log.info("league %s not started at its start time: %s", league.pk, exc.message)
            continue
        started.append(league.pk)
    return started


def ladders_schedule() -> int:
    """The beat job: start the drafts whose start time has come, then top up every running
    continuous league (a ladder). Returns the number of new ladder matches."""
    leagues_start_due()
    total = 0
    running = League.objects.filter(status=League.Status.RUNNING,
                                     format__in=formats.continuous_keys())  # fmt: skip
    for league in running:
        total += len(league_schedule_round(league=league))
    return total
