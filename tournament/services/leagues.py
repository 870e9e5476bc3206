"""Leagues: create, invite, enter, start, pause, close, and schedule their matches (round robin
with seat rotations, swiss rounds by standing, continuous ladder batches)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from competition import ladder_scheduling as scheduling
from competition import swiss

from .. import seed_privacy as seed_privacy_rules
from ..errors import BadGameConfig, Conflict, NotFound, PermissionDenied, ValidationFailed
from ..ladder_rest import ladder_rest_state
from ..models import Bot, BotVersion, League, LeagueEntry, LeagueInvitation, Match
from . import brackets, events
from . import divisions as division_services
from .game_config import game_config_check
from .matches import derive_seed, match_cancel_queued, match_create_internal, match_enqueue

ORGANISE_PERMISSION = "tournament.organise_leagues"
LADDER_QUEUE_PER_ENTRANT = 1  # a ladder keeps about this many open matches per entrant


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
) -> League:
    league_create_check(user=organiser)
    event = {"points_table": points_table or [], "bye_points": bye_points,
             "starts_at": starts_at, "entry_deadline": entry_deadline,
             "max_entrants": max_entrants, "seed_privacy": seed_privacy,
             "division_size": division_size, "division_every": division_every}  # fmt: skip
    cleaned = _league_config_check(
        mode=mode, seats=seats, format=format, options=options,
        decision_time_limit=decision_time_limit, time_bank=time_bank, seeds=seeds,
        rounds=rounds, ladder_order=ladder_order, event=event,
    )  # fmt: skip
    event["points_table"] = [float(p) for p in event["points_table"]]
    if League.objects.filter(name__iexact=name.strip()).exists():
        raise Conflict(Conflict.LEAGUE_NAME_TAKEN, fields={"name": ["taken"]})
    try:
        with transaction.atomic():
            league = League.objects.create(
                name=name.strip(), organiser=organiser, mode=mode, seats=seats, options=cleaned,
                format=format, public=public, decision_time_limit=decision_time_limit,
                time_bank=time_bank, seeds=seeds, rounds=rounds, ladder_order=ladder_order,
                marks_public=marks_public, all_seat_orders=all_seat_orders, **event,
            )  # fmt: skip
            league.base_seed = (
                derive_seed("league", league.pk, league.name)
                if seed_privacy == seed_privacy_rules.PUBLIC
                else seed_privacy_rules.secret_base_seed()  # not to be worked out from the id
            )
            league.save(update_fields=["base_seed"])
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
    if format not in League.Format.values:
        choices = ", ".join(League.Format.values)
        fault("format", f"format must be one of {choices}.", f"one of {choices}")
    if not 0 < decision_time_limit <= 60:
        fault(
            "decision_time_limit", "decision_time_limit must be in (0, 60] seconds.",
            "out of range (0, 60]",
        )  # fmt: skip
    if not 0 <= time_bank <= 600:
        fault("time_bank", "time_bank must be in [0, 600] seconds.", "out of range [0, 600]")
    elif 0 < decision_time_limit <= 60 and game_error is None:
        _check_worst_case(mode, seats, decision_time_limit, time_bank, fault)
    if ladder_order not in League.LadderOrder.values:
        choices = ", ".join(League.LadderOrder.values)
        fault("ladder_order", f"ladder_order must be one of {choices}.", f"one of {choices}")
    if not 1 <= seeds <= 100:
        fault("seeds", "seeds must be in 1..100.", "1..100")
    if not 1 <= rounds <= 100:
        fault("rounds", "rounds must be in 1..100.", "1..100")
    for field, message in events.event_problems(seats=seats, format=format, **(event or {})):
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
    from competition.limits import Limits, decisions_bound, match_worst_case_seconds

    limits = Limits(decision_seconds=decision_time_limit, bank_seconds=time_bank)
    try:
        worst = match_worst_case_seconds(mode, seats, limits)
    except KeyError:
        return
    ceiling = settings.MATCH_WORST_CASE_CEILING_SECONDS
    if worst > ceiling:
        fault(
            "decision_time_limit",
            f"With these limits a {mode} match of {seats} seats could last {worst:.0f} s"
            f" ({seats} x ({decisions_bound(mode)} decisions x {decision_time_limit:g} s"
            f" + {time_bank:g} s bank) + startup), over the {ceiling:.0f} s this server"
            " allows: lower decision_time_limit or time_bank.",
            f"worst case {worst:.0f} s > {ceiling:.0f} s",
        )


def _check_ladder_order(ladder_order: str) -> None:
    if ladder_order not in League.LadderOrder.values:
        raise ValidationFailed(
            f"ladder_order must be one of {', '.join(League.LadderOrder.values)}.",
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
    open_statuses = {League.Status.DRAFT}
    if league.format == League.Format.LADDER:
        open_statuses |= {League.Status.RUNNING, League.Status.PAUSED}
    if league.status not in open_statuses:
        raise Conflict(Conflict.LEAGUE_NOT_OPEN)
    events.entry_open_check(league)
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
    if league.format == League.Format.LADDER and league.status == League.Status.RUNNING:
        # A running ladder takes the newcomer at once (and wakes if it was at rest), instead
        # of at the beat's next tick.
        transaction.on_commit(lambda: league_schedule_round(league=league))
    return entry


def _may_see(league: League, user: Any) -> bool:
    from ..selectors import league_list

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


def _min_entrants(league: League) -> int:
    return 1 if league.seats == 1 else league.seats


def league_start(*, league: League, user: Any, automatic: bool = False) -> League:
    """Start a draft league (and schedule its first matches) or resume a paused one;
    `automatic`: the beat job starting it at its start time (services/events.py)."""
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
        if brackets.is_bracket(league):  # seeded and played series by series
            brackets.bracket_start(league=league)
            return league
        if events.active_entries(league).count() < _min_entrants(league):
            raise Conflict(
                f"{Conflict.TOO_FEW_ENTRANTS} (at least {_min_entrants(league)})",
                fields={"entries": ["too few"]},
            )
        league.status = League.Status.RUNNING
        league.save(update_fields=["status"])
        league_schedule_round(league=league)
        return league


def league_open(*, league: League, user: Any) -> League:
    """Open a draft ladder for play without scheduling now: the ladder beat, or the next
    entry, schedules its matches. It may open with fewer entrants than a table needs (an
    open ladder waits for them)."""
    _check_league_organiser(league, user)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if league.format != League.Format.LADDER or league.status != League.Status.DRAFT:
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
        brackets.league_closed(league=league)  # its podium; the playoffs that follow it
    return league


# --- scheduling -----------------------------------------------------------------------------


def rotations(table: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Every cyclic seat order of a table, so each entrant sits in each seat once."""
    return [tuple(table[i:]) + tuple(table[:i]) for i in range(len(table))]


def round_robin_tables(
    entrants: Sequence[Any], seats: int, seeds: int, *, all_orders: bool = False
) -> list[tuple[int, tuple]]:
    """(seed index, seat order) of every match: each table of entrants, each seed, and each
    rotation (every entrant in every seat once: `seats` orders), or with `all_orders` every
    seat order (`seats`! of them: 24 at four seats)."""
    out = []
    for table in itertools.combinations(entrants, seats):
        orders = list(itertools.permutations(table)) if all_orders else rotations(table)
        for seed_index in range(seeds):
            out.extend((seed_index, order) for order in orders)
    return out


def swiss_byes(standing: Sequence[Any], seats: int, byes: Sequence[int]) -> list[Any]:
    """The entrants who sit out a round when the standing does not split into full tables.

    The usual Swiss rule: the bye goes to the lowest-ranked entrant who has not had one yet
    (`byes[i]` is how many entrant `standing[i]` has had), so it rotates instead of falling on
    the last entrant every round; once everyone has had one, the fewest byes decide again.
    """
    count = len(standing) % seats
    if not count:
        return []
    by_claim = sorted(range(len(standing)), key=lambda i: (byes[i], -i))
    return [standing[i] for i in sorted(by_claim[:count])]


def swiss_tables(
    standing: Sequence[Any],
    seats: int,
    round_number: int,
    byes: Sequence[Any] = (),
    *,
    history: Sequence[Sequence[Any]] = (),
    points: dict[Any, float] | None = None,
) -> list[tuple]:
    """The round's tables: the standing without the entrants who have a bye, paired by
    points avoiding repeat opponents of `history` (`competition/swiss.py`).

    The seat order inside each table rotates with the round so first seat is shared out.
    """
    playing = [e for e in standing if e not in byes]
    tables = []
    for table in swiss.pair_round(playing, seats, history, points):
        shift = round_number % seats
        tables.append(table[shift:] + table[:shift])
    return tables


def ladder_tables(
    league: League, entries: Sequence[LeagueEntry], count: int, rng: random.Random
) -> list[tuple[LeagueEntry, ...]]:
    """The next tables of a ladder, chosen by expected information
    (`competition/ladder_scheduling.py`):
    the least certain entrants first (new ones at once), unpredictable tables, and no pair
    meeting more than the cap within the recent window of the league's matches."""
    by_version = {e.bot_version_id: e for e in entries}
    recent = (
        league.matches.exclude(status=Match.Status.CANCELLED)
        .order_by("-created_at", "-id")
        .prefetch_related("seats")[: scheduling.pair_window(len(entries))]
    )
    recent_tables = []
    busy: set[int] = set()
    for match in recent:
        versions = [s.bot_version_id for s in match.seats.all()]
        recent_tables.append([by_version[v].pk for v in versions if v in by_version])
        if match.status in (Match.Status.QUEUED, Match.Status.RUNNING):
            busy.update(by_version[v].pk for v in versions if v in by_version)
    candidates = [
        scheduling.Candidate(e.pk, e.openskill_mu, e.openskill_sigma, e.games, e.pk in busy)
        for e in entries
    ]
    by_pk = {e.pk: e for e in entries}
    if league.division_size:  # mostly inside a division (services/divisions.py)
        tables = division_services.division_tables(
            league, entries, candidates, count, rng, scheduling.meetings(recent_tables)
        )
        return [tuple(by_pk[k] for k in table) for table in tables]
    tables = scheduling.information_tables(
        candidates, league.seats, count, rng, recent_meetings=scheduling.meetings(recent_tables)
    )
    return [tuple(by_pk[k] for k in table) for table in tables]


def _newcomer_first(order: Sequence[LeagueEntry], opened: tuple | None) -> bool:
    """Does the table seat the first match of an entrant that joined the ladder after its
    first match (`opened`)? Such a match goes ahead of the backlog; the entrants of the start
    all begin together and take their turn."""
    return opened is not None and any(e.games == 0 and e.created_at > opened[0] for e in order)


def _create_league_match(
    league: League, order: Sequence[LeagueEntry], seed: int, rnd: int, *, ahead: bool = False
) -> Match:
    """`ahead`: a ladder table seating an entrant's first rated match, sent ahead of the
    backlog (services/matches.py: match_enqueue), so a new version plays within minutes even
    when every bot submits at once before a deadline (bench/season.py)."""
    return match_create_internal(
        kind=Match.Kind.LEAGUE, mode=league.mode, options=league.options,
        bot_versions=[e.bot_version for e in order], league=league, requested_by=None,
        round=rnd, seed=seed, ahead=ahead,
    )  # fmt: skip


def scheduled_entries(league: League) -> Any:
    """The entries new matches are made of: every entry but those whose version is suspended
    for faulting (services/bots.py, FAULT_SUSPEND_AFTER) and those the organiser withdrew."""
    return league.entries.select_related("bot_version").filter(
        bot_version__suspended_at__isnull=True, withdrawn_at__isnull=True
    )


def _swiss_round(league: League) -> tuple[list, list, list, dict]:
    """The Swiss standing of the entries new matches are made of (points, tiebreaks, Elo;
    `tournament/standings.py`), the tables seated so far, and each entry's points."""
    from ..standings import league_standings, played_tables

    entries = list(scheduled_entries(league).order_by("pk"))
    rows = league_standings(league=league, entries=entries)
    standing = [r.entry for r in rows]
    by_version = {e.bot_version_id: e for e in entries}
    history = [
        [by_version[v] for v in table]
        for table in played_tables(league, {v: v for v in by_version})
    ]
    return standing, history, [e.byes for e in standing], {r.entry: r.points for r in rows}


def league_schedule_round(*, league: League) -> list[Match]:
    """Queue the next matches of a running league; returns them (empty when nothing is due)."""
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if league.status != League.Status.RUNNING or brackets.is_bracket(league):
            return []  # a bracket queues its own games (services/brackets.py)
        entries = list(scheduled_entries(league).order_by("pk"))
        created: list[Match] = []
        if league.format == League.Format.ROUND_ROBIN:
            if league.current_round:
                return []
            league.current_round = 1
            tables = round_robin_tables(entries, league.seats, league.seeds,
                                        all_orders=league.all_seat_orders)  # fmt: skip
            for seed_index, order in tables:
                table_key = "-".join(str(e.pk) for e in sorted(order, key=lambda e: e.pk))
                seed = derive_seed(league.base_seed, table_key, seed_index)
                created.append(_create_league_match(league, order, seed, 1))
        elif league.format == League.Format.SWISS:
            if league.current_round >= league.rounds:
                return []
            league.current_round += 1
            rnd = league.current_round
            standing, history, had_byes, points = _swiss_round(league)
            byes = swiss_byes(standing, league.seats, had_byes)
            LeagueEntry.objects.filter(pk__in=[e.pk for e in byes]).update(byes=F("byes") + 1)
            tables = swiss_tables(standing, league.seats, rnd, byes, history=history,
                                  points=points)  # fmt: skip
            for t, order in enumerate(tables):
                seed = derive_seed(league.base_seed, rnd, t)
                created.append(_create_league_match(league, order, seed, rnd))
        else:
            open_count = league.matches.filter(
                status__in=[Match.Status.QUEUED, Match.Status.RUNNING]
            ).count()
            wanted = max(1, len(entries) * LADDER_QUEUE_PER_ENTRANT // league.seats)
            if open_count >= wanted or len(entries) < _min_entrants(league):
                return []
            if ladder_rest_state(league, entries).resting:
                return []  # its order is known: it waits for a new entrant or version
            league.current_round += 1
            rnd = league.current_round
            rng = random.Random(derive_seed(league.base_seed, "ladder", rnd))
            if league.division_size:
                division_services.divisions_refresh(league, entries, rnd)
            opened = league.matches.order_by("created_at").values_list("created_at").first()
            for t, order in enumerate(ladder_tables(league, entries, wanted - open_count, rng)):
                seed = derive_seed(league.base_seed, rnd, t)
                created.append(_create_league_match(
                    league, order, seed, rnd, ahead=_newcomer_first(order, opened)))
        league.save(update_fields=["current_round"])
        return created


def league_progress(*, league_id: int) -> None:
    """After a match of the league ended: top up a ladder, start the next swiss round, or
    close a finished round robin / swiss league."""
    league = League.objects.select_for_update().get(pk=league_id)
    if league.status != League.Status.RUNNING:
        return
    if league.format == League.Format.LADDER:
        league_schedule_round(league=league)  # keep the ladder busy between beat ticks
        return
    if brackets.is_bracket(league):
        brackets.bracket_progress(league=league)
        return
    open_matches = league.matches.filter(
        status__in=[Match.Status.QUEUED, Match.Status.RUNNING]
    ).exists()
    if open_matches:
        return
    if league.format == League.Format.SWISS and league.current_round < league.rounds:
        league_schedule_round(league=league)
        return
    league.status = League.Status.CLOSED
    league.save(update_fields=["status"])
    brackets.league_closed(league=league)


def ladders_schedule() -> int:
    """The beat job: start the drafts whose start time has come (services/events.py), then
    top up every running ladder league. Returns the number of new ladder matches."""
    events.leagues_start_due()
    total = 0
    for league in League.objects.filter(status=League.Status.RUNNING, format=League.Format.LADDER):
        total += len(league_schedule_round(league=league))
    return total
