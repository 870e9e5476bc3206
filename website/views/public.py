"""Pages anyone may open: home, leagues and their ladders, matches, bots, bot versions."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from competition import skill
from replays.views import viewer_context
from tournament import selectors
from tournament.errors import ValidationFailed, size_text
from tournament.ladder_rest import ladder_rest_state
from tournament.models import League, Match
from tournament.private_output import failure_kind, may_see_private
from tournament.selectors import boss_leagues as boss_selectors
from tournament.selectors import site as site_selectors
from tournament.selectors.queue_place import match_queue_place
from tournament.selectors.spectators import featured_match
from tournament.selectors.test_games import LABEL as TEST_GAME_LABEL
from tournament.selectors.test_games import test_game_seats
from tournament.services.leagues import is_organiser

from .. import charts
from ..colours import page_colours
from ..forms import EnterForm, InviteForm, UploadForm
from ..head_to_head_cells import head_to_head_cells
from ..match_analysis import analysis_context
from ..match_rows import match_rows
from ..og_image import og_image_context
from ..play_games import play_again
from .common import found, int_param, match_page, paginate
from .events import league_event_context

LADDER_PAGE = 50


def home(request: HttpRequest) -> HttpResponse:
    user = request.user
    featured = featured_match(user=user)
    if featured is not None:  # its bots in their seats' colours, as the board below draws them
        page_colours().prime_seats(s.bot_version.bot_id for s in featured.seats.all())
    return render(request, "website/home.html", {
        "leagues": site_selectors.home_leagues(user=user),
        "playing": site_selectors.matches_playing(user=user),
        "finished": site_selectors.matches_finished(user=user),
        "featured": featured,
    })  # fmt: skip


def league_list(request: HttpRequest) -> HttpResponse:
    leagues = site_selectors.league_rows(user=request.user)
    return render(request, "website/leagues.html", {
        "page": paginate(request, leagues), "can_organise": is_organiser(request.user),
    })  # fmt: skip


def _tier_filter(request: HttpRequest, league: League) -> tuple[str | None, str | None]:
    """The ladder's ``?tier=`` filter (None: the whole ladder) and the words of a bad one."""
    try:
        return boss_selectors.tier_param(request.GET.get("tier"), mode=league.mode), None
    except ValidationFailed as exc:
        return None, exc.message


def league_detail(request: HttpRequest, league_id: int) -> HttpResponse:
    league = found(selectors.league_get(league_id=league_id, user=request.user), "league",
                   league_id)  # fmt: skip
    status = request.GET.get("status") or None
    if status not in Match.Status.values:
        status = None
    bot_id, round_number = int_param(request, "bot"), int_param(request, "round")
    visible = selectors.visible_matches(user=request.user).filter(league=league)
    matches = site_selectors.league_matches(
        matches=visible, bot_id=bot_id, status=status, round_number=round_number
    )
    ladder = site_selectors.league_ladder_rows(league=league)
    tier, tier_error = _tier_filter(request, league)
    kept = {id(e) for e in boss_selectors.with_tiers([r.entry for r in ladder], mode=league.mode,
                                                     tier=tier)}  # fmt: skip
    lines = site_selectors.league_chart_lines(league=league)
    # the entrants' colours in the order they entered: the same on every visit, whatever the
    # ladder's order, for the dots of the tables and the lines of the chart
    colours = page_colours().prime(
        r.entry.bot_version.bot_id for r in sorted(ladder, key=lambda r: r.entry.pk)
    )
    h2h_rows = []  # solo entrants never meet: each plays the sister
    if league.seats > 1:
        entries = [r.entry for r in ladder]
        h2h_rows = selectors.league_head_to_head(league=league, entries=entries)
    user = request.user
    organiser = user.is_authenticated and (user.is_superuser or league.organiser_id == user.pk)
    filters = request.GET.copy()
    for key in ("page", "before", "after"):
        filters.pop(key, None)
    shown = [r for r in ladder if id(r.entry) in kept]  # the ladder, or one boss league of it
    ladder_page = None
    if len(shown) > LADDER_PAGE:
        ladder_page = paginate(request, shown, LADDER_PAGE, param="ladder_page")
    return render(request, "website/league.html", {
        "league": league,
        "ladder": ladder_page,
        "ladder_rows": ladder_page.object_list if ladder_page else shown,
        "boss_tiers": boss_selectors.tier_choices(mode=league.mode),
        "tier": request.GET.get("tier", "") if tier_error is None else "",
        "tier_error": tier_error,
        "rows": ladder,
        # #, entrant, Elo, games, W/D/L or one per place + mean rank, mean score, the margin
        # over the sister (solo), interval, conservative, last change, faults
        "ladder_columns": 9 + (league.seats + 1 if league.seats >= 3 else 3) + (league.seats == 1),
        "fault_suspend_after": settings.FAULT_SUSPEND_AFTER,
        "provisional_games": skill.PROVISIONAL_GAMES,
        "provisional_sigma": f"{skill.PROVISIONAL_SIGMA:g}",
        "chart": charts.rating_chart(charts.league_series(lines, colours)),
        "h2h_rows": h2h_rows,
        "h2h_cells": head_to_head_cells(h2h_rows),
        "page": match_page(request, matches, scope=visible),
        "filters": {"bot": bot_id, "status": status, "round": round_number},
        "filter_query": filters.urlencode(),
        "statuses": Match.Status.values,
        "entrant_bots": sorted({r.entry.bot_version.bot for r in ladder}, key=lambda b: b.name),
        "counts": site_selectors.league_match_counts(league=league),
        "is_organiser": organiser,
        "invitations": selectors.league_invitations(league=league, user=user) if organiser
        else (),
        "invite_form": InviteForm() if organiser else None,
        "enter_form": _enter_form(request, league),
        "rest": ladder_rest_state(league, entries=_scheduled(ladder))
        if league.status == League.Status.RUNNING else None,
        **league_event_context(league, organiser=organiser, entrants=len(ladder)),
    }, status=400 if tier_error else 200)  # fmt: skip


def _scheduled(ladder: list[Any]) -> list[Any]:
    """The ladder's entries that new matches are made of (`services.leagues.scheduled_entries`),
    from the rows the page has read already: not withdrawn, their version not suspended."""
    entries = [r.entry for r in ladder]
    return [e for e in entries if e.withdrawn_at is None and e.bot_version.suspended_at is None]


def _enter_form(request: HttpRequest, league: Any) -> Any:
    """The "enter one of my bots" form when the user has a bot and the league takes entries."""
    if not request.user.is_authenticated:
        return None
    if not site_selectors.enterable_leagues(user=request.user).filter(pk=league.pk).exists():
        return None
    bots = [b for b in site_selectors.author_bots(user=request.user) if not b.retired]
    return {"league": league, "bots": bots} if bots else None


def match_list(request: HttpRequest) -> HttpResponse:
    """Every visible match, newest first, by pages that cost the same at any depth."""
    visible = selectors.visible_matches(user=request.user)
    matches = visible
    status = request.GET.get("status") or None
    if status in Match.Status.values:
        matches = matches.filter(status=status)
    kind = request.GET.get("kind") or None
    if kind in Match.Kind.values:
        matches = matches.filter(kind=kind)
    bot_id = int_param(request, "bot")
    bot = selectors.bot_get(bot_id=bot_id) if bot_id is not None else None
    if bot is not None:
        matches = matches.filter(selectors.seated(bot_id=bot.pk))
    filters = request.GET.copy()
    for key in ("page", "before", "after"):
        filters.pop(key, None)
    return render(request, "website/matches.html", {
        "page": match_page(request, matches, scope=visible),
        "statuses": Match.Status.values, "kinds": Match.Kind.values,
        "filters": {"status": status, "kind": kind}, "filter_query": filters.urlencode(),
        "bot": bot,
    })  # fmt: skip


def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    """Seats, scores, ranks, faults, timing, the download, and the replay viewer of `replays/`
    (its embeddable template and context): the replay, or the match live while it plays."""
    match = found(selectors.match_get(match_id=match_id, user=request.user), "match", match_id)
    open_ = match.status in (Match.Status.QUEUED, Match.Status.RUNNING)
    context = {"match": match, "open": open_, "viewer": bool(match.replay_name or open_),
               "lane_place": match_queue_place(match=match)}
    if context["viewer"]:
        context.update(viewer_context(match, user=request.user))
    seats = list(match.seats.all())
    # each bot in its seat's colour, as the board of the viewer draws it
    page_colours().prime_seats(seat.bot_version.bot_id for seat in seats)
    for seat in seats:
        seat.private = may_see_private(request.user, seat.bot_version.bot.owner_id)
    context["seats"] = seats
    if match.kind == Match.Kind.TEST:  # beside the viewer: each seat's stderr, times, fault
        context["test_game"] = {"label": TEST_GAME_LABEL,
                                "seats": test_game_seats(match=match, seats=seats,
                                                         user=request.user),
                                "again": play_again(match=match, seats=seats,
                                                    user=request.user)}  # fmt: skip
    if match.replay_name:
        context["replay_url"] = reverse("replays:replay", args=[match.pk])
        context.update(og_image_context(request, match), **analysis_context(match, request.user))
    return render(request, "website/match.html", context)


def bot_list(request: HttpRequest) -> HttpResponse:
    bots = selectors.bot_list().order_by("retired", "name")
    return render(request, "website/bots.html", {"page": paginate(request, bots)})


PAIRED_ON_BOT_PAGE = 10  # the latest paired comparisons shown on a bot's page


def bot_detail(request: HttpRequest, bot_id: int) -> HttpResponse:
    bot = found(selectors.bot_get(bot_id=bot_id), "bot", bot_id)
    user = request.user
    owner = user.is_authenticated and bot.owner_id == user.pk and not bot.is_system
    ratings = list(selectors.bot_ratings(bot=bot, user=user))
    series = charts.bot_series_by_league(
        site_selectors.bot_chart_lines(bot=bot, user=user), bot.pk, page_colours()
    )
    leagues = []
    for league_id in dict.fromkeys(e.league_id for e in ratings):
        entries = [e for e in ratings if e.league_id == league_id]
        chart = charts.rating_chart(series.get(league_id, []),
                                    x_title="Games played in the league")  # fmt: skip
        leagues.append({"league": entries[0].league, "entries": entries, "chart": chart,
                        "chart_id": f"chart-{league_id}"})
    enter = None
    if owner and not bot.retired:
        enter = EnterForm(leagues=site_selectors.enterable_leagues(user=user))
    versions = paginate(request, site_selectors.bot_versions(bot=bot), 10)
    private = may_see_private(user, bot.owner_id)
    for version in versions:  # why a version failed: its kind only, for others
        version.shown_reason = version.failure_reason if private else failure_kind(
            version.failure_reason)  # fmt: skip
    return render(request, "website/bot.html", {
        "bot": bot, "owner": owner,
        "versions": versions,
        "leagues": leagues,
        "matches": match_rows(selectors.bot_recent_matches(bot=bot, user=user)),
        "fault_rate": site_selectors.bot_fault_rate(bot=bot),
        "opponents": selectors.bot_head_to_head(bot=bot, user=user),
        "paired": selectors.paired_of_bot(bot_id=bot.pk, limit=PAIRED_ON_BOT_PAGE),
        "boss_leagues": boss_selectors.bot_leagues(bot_id=bot.pk),
        "may_compare": is_organiser(user),
        "upload_form": UploadForm() if owner and not bot.retired else None,
        "upload_max_bytes": settings.BOT_UPLOAD_MAX_BYTES,
        "upload_limit": size_text(settings.BOT_UPLOAD_MAX_BYTES),
        "enter_form": enter,
        "challenge_version": next(iter(site_selectors.ready_versions(bot=bot)), None),
    })  # fmt: skip


def version_detail(request: HttpRequest, version_id: int) -> HttpResponse:
    version = selectors.bot_version_get(version_id=version_id, user=request.user)
    version = found(version, "bot version", version_id)
    return render(request, "website/version.html", _version_context(request, version))


def version_status(request: HttpRequest, version_id: int) -> HttpResponse:
    """The status panel alone, for the page's poller (it replaces the panel in place)."""
    version = selectors.bot_version_get(version_id=version_id, user=request.user)
    version = found(version, "bot version", version_id)
    response = render(request, "website/_version_status.html", _version_context(request, version))
    response["Cache-Control"] = "no-store"
    return response


def _version_context(request: HttpRequest, version: Any) -> dict[str, Any]:
    validation = site_selectors.validation_match(version=version)
    seat = validation.seats.filter(bot_version=version).first() if validation else None
    return {
        "version": version, "bot": version.bot, "validation": validation,
        "private": may_see_private(request.user, version.bot.owner_id),
        "owner": request.user.is_authenticated and request.user.pk == version.bot.owner_id,
        "fault_kind": (seat.fault if seat and seat.fault else "validation match failed"),
        "lane_place": match_queue_place(match=validation) if validation else None,
    }  # fmt: skip
