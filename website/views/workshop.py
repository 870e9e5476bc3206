"""The workshop: an author's bots with their drafts, and the editor of one bot's draft.

The editor page works as a plain form (save, play, submit) and the script (static
website/workshop.js) turns its text area into CodeMirror with autosave through the drafts API.
Play keeps the posted text as the draft and plays a test game of it as it is (unsubmitted),
followed on the match page. Only the owner sees a bot's workshop; for anyone else it does not
exist (404)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from tournament import selectors
from tournament.errors import ArenaError, NotFound
from tournament.selectors import workshop as workshop_selectors
from tournament.services import drafts as draft_services
from tournament.services import test_games as test_game_services

from ..forms import DraftForm, PlayForm, WorkshopStartForm, add_service_error
from .common import found

# the editor's language modes (website/workshop.js) by the languages table's key
EDITOR_MODES = {"python3": "python", "node": "javascript"}


def _kits() -> list[tuple[str, str]]:
    return [(kit.slug, kit.title) for kit in draft_services.editable_kits()]


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def workshop(request: HttpRequest) -> HttpResponse:
    form = WorkshopStartForm(request.POST or None, kits=_kits())
    if request.method == "POST" and form.is_valid():
        try:
            bot = draft_services.workshop_start(
                owner=request.user, name=form.cleaned_data["name"], kit=form.cleaned_data["kit"]
            )
        except ArenaError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, f"{bot.name} starts from the {bot.draft.filename} starter.")
            return redirect("website:workshop-bot", bot.pk)
    return render(request, "website/workshop.html", {
        "rows": workshop_selectors.workshop_bots(user=request.user), "form": form,
    })  # fmt: skip


def _owned_bot(request: HttpRequest, bot_id: int) -> Any:
    """The bot when the signed-in user owns it; a 404 otherwise, as if it had no workshop."""
    bot = found(selectors.bot_get(bot_id=bot_id), "bot", bot_id)
    try:
        draft = draft_services.draft_for(bot=bot, user=request.user)
    except NotFound:
        raise Http404(f"No workshop for bot {bot_id}.") from None
    return bot, draft


def _editor_page(request: HttpRequest, bot: Any, draft: Any, form: DraftForm | None = None,
                 status: int = 200) -> HttpResponse:  # fmt: skip
    row = workshop_selectors.workshop_bot(bot=bot)
    if form is None:
        form = DraftForm(initial={"source": draft.source if draft else ""})
    return render(request, "website/workshop_bot.html", {
        "bot": bot, "draft": draft, "row": row, "form": form, "kits": _kits(),
        "mode": EDITOR_MODES.get(draft.language, "") if draft else "",
        "files": workshop_selectors.bundle_files(version=row.latest) if row.is_zip else [],
        "play_form": _play_form(request),
    }, status=status)  # fmt: skip


def _play_form(request: HttpRequest) -> PlayForm:
    opponents = workshop_selectors.play_opponents(user=request.user)
    return PlayForm(request.POST or None, opponents=opponents)


def _save_posted(request: HttpRequest, bot: Any, draft: Any) -> HttpResponse | None:
    """Keep the posted text as the draft: None when kept, else the editor again with the
    text and the reason (nothing typed is lost)."""
    form = DraftForm(request.POST)
    if form.is_valid():
        try:
            draft_services.draft_save(bot=bot, user=request.user,
                                      source=form.cleaned_data["source"])  # fmt: skip
        except ArenaError as exc:
            add_service_error(form, exc)
        else:
            return None
    return _editor_page(request, bot, draft, form=form, status=400)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def workshop_bot(request: HttpRequest, bot_id: int) -> HttpResponse:
    """GET: the editor. POST (the form without script): keep the posted text as the draft."""
    bot, draft = _owned_bot(request, bot_id)
    if request.method != "POST":
        return _editor_page(request, bot, draft)
    refused = _save_posted(request, bot, draft)
    if refused is not None:
        return refused
    messages.success(request, "Draft saved.")
    return redirect("website:workshop-bot", bot.pk)


@login_required
@require_POST
def workshop_play(request: HttpRequest, bot_id: int) -> HttpResponse:
    """Play a test game of the draft as it is and follow it on its match page. The editor's
    text, when posted (the match page's "Play again" posts none), is kept as the draft first;
    a refusal (over the test-game caps, a bad choice) brings the author back to the editor
    with the reason, the draft saved."""
    bot, draft = _owned_bot(request, bot_id)
    if "source" in request.POST:
        refused = _save_posted(request, bot, draft)
        if refused is not None:
            return refused
    form = _play_form(request)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
        return redirect("website:workshop-bot", bot.pk)
    try:
        match = test_game_services.test_game_of_draft(user=request.user, bot=bot,
                                                      **form.test_game())  # fmt: skip
    except ArenaError as exc:
        messages.error(request, exc.message)
        return redirect("website:workshop-bot", bot.pk)
    return redirect("website:match", match.pk)


@login_required
@require_POST
def workshop_kit(request: HttpRequest, bot_id: int) -> HttpResponse:
    """The draft begins again as a starter kit's entry point."""
    bot, _ = _owned_bot(request, bot_id)
    try:
        draft = draft_services.draft_from_kit(bot=bot, user=request.user,
                                              kit=request.POST.get("kit", ""))  # fmt: skip
    except ArenaError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"The draft is now the starter's {draft.filename}.")
    return redirect("website:workshop-bot", bot.pk)


@login_required
@require_POST
def workshop_submit(request: HttpRequest, bot_id: int) -> HttpResponse:
    """Submit this draft: the posted text (the editor's, when the form carries it) becomes a
    new version, and the author lands on its page to watch its validation."""
    bot, _ = _owned_bot(request, bot_id)
    source = request.POST.get("source")
    try:
        version = draft_services.draft_submit(bot=bot, user=request.user, source=source)
    except ArenaError as exc:
        messages.error(request, exc.message)
        return redirect("website:workshop-bot", bot.pk)
    messages.success(request, f"{bot.name} v{version.number} submitted: its validation follows.")
    return redirect("website:version", version.pk)
