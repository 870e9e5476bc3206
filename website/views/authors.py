"""What a signed-in author does: the dashboard, create a bot, upload a version (form post or
XHR with progress), retire a bot, enter a league, request a challenge match."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournament import selectors
from tournament.errors import ArenaError
from tournament.match_summaries import summaries_of
from tournament.paging import NEWEST_FIRST
from tournament.selectors import site as site_selectors
from tournament.services import bots as bot_services
from tournament.services import leagues as league_services

from ..forms import BotForm, ChallengeForm, UploadForm, add_service_error
from ..match_rows import match_rows
from . import challenges
from .common import found

RECENT_CHALLENGES = 5


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    return render(request, "website/dashboard.html", {
        "bots": site_selectors.author_bots(user=request.user),
        "faults": site_selectors.seat_faults(user=request.user),
        "challenges": match_rows(summaries_of(selectors.challenge_list(user=request.user)
                                              .order_by(*NEWEST_FIRST)[:RECENT_CHALLENGES])),
        "is_organiser": league_services.is_organiser(request.user),
        "my_leagues": selectors.league_list(user=request.user).filter(
            organiser=request.user).order_by("-created_at")[:20],
    })  # fmt: skip


@login_required
def bot_create(request: HttpRequest) -> HttpResponse:
    form = BotForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            bot = bot_services.bot_create(owner=request.user, **form.cleaned_data)
        except ArenaError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, f"Bot {bot.name} created: now upload its first version.")
            return redirect("website:bot", bot.pk)
    return render(request, "website/bot_new.html", {"form": form})


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@login_required
@require_POST
def bot_upload(request: HttpRequest, bot_id: int) -> HttpResponse:
    """Store a bundle and queue its validation. The page's script posts here by XHR (to show
    progress) and asks for JSON; without script the form posts and is redirected."""
    bot = found(selectors.bot_get(bot_id=bot_id), "bot", bot_id)
    form = UploadForm(request.POST, request.FILES)
    error = None
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            version = bot_services.bot_version_upload(
                bot=bot, user=request.user, filename=upload.name,
                data=upload.read(settings.BOT_UPLOAD_MAX_BYTES + 1),
            )  # fmt: skip
        except ArenaError as exc:
            error = exc.message
            status = exc.status
    elif "file" in request.FILES:  # a file that is not a file (no name): said as it is
        error, status = "; ".join(form.errors.get("file", ["The file cannot be read."])), 400
    else:
        error, status = "Choose a file to upload.", 400
    if error:
        if _wants_json(request):
            return JsonResponse({"error": error}, status=status)
        messages.error(request, error)
        return redirect("website:bot", bot.pk)
    url = reverse("website:version", args=[version.pk])
    if _wants_json(request):
        return JsonResponse({"id": version.pk, "number": version.number, "url": url}, status=201)
    return redirect(url)


@login_required
@require_POST
def bot_retire(request: HttpRequest, bot_id: int) -> HttpResponse:
    bot = found(selectors.bot_get(bot_id=bot_id), "bot", bot_id)
    try:
        bot_services.bot_retire(bot=bot, user=request.user)
    except ArenaError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{bot.name} is retired: it keeps its history.")
    return redirect("website:bot", bot.pk)


@login_required
@require_POST
def version_resume(request: HttpRequest, version_id: int) -> HttpResponse:
    """The author lifts a version's suspension for faulting (posted from the bot page or the
    dashboard); back to where it was posted from when that is one of ours."""
    version = selectors.bot_version_get(version_id=version_id, user=request.user)
    version = found(version, "bot version", version_id)
    try:
        bot_services.bot_version_resume(version=version, user=request.user)
    except ArenaError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, f"{version.bot.name} v{version.number} is resumed: it is scheduled again."
        )
    if request.POST.get("next") == "dashboard":
        return redirect("website:dashboard")
    return redirect("website:bot", version.bot_id)


@login_required
@require_POST
def league_enter(request: HttpRequest) -> HttpResponse:
    """Enter a bot's latest ready version in a league (posted from the bot or league page)."""
    try:
        league_id, bot_id = int(request.POST.get("league", "")), int(request.POST.get("bot", ""))
    except ValueError:
        messages.error(request, "Choose a league and a bot.")
        return redirect("website:dashboard")
    league = found(selectors.league_get(league_id=league_id, user=request.user), "league",
                   league_id)  # fmt: skip
    try:
        entry = league_services.league_entry_add(league=league, user=request.user, bot_id=bot_id)
    except ArenaError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{entry.bot_version} entered in {league.name}.")
    return redirect("website:league", league.pk)


@login_required
def challenge(request: HttpRequest) -> HttpResponse:
    versions = selectors.challenge_versions()
    initial = {}
    if request.GET.get("bot_version"):
        initial["seat_0"] = request.GET["bot_version"]
    form = ChallengeForm(request.POST or None, versions=versions, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            match = challenges.request_challenge(request, form.service_kwargs())
        except ArenaError as exc:
            add_service_error(form, exc)
        else:
            return redirect("website:match", match.pk)
    return render(request, "website/challenge.html", {"form": form})
