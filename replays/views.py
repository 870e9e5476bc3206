"""The replay viewer page: a template that loads the frames endpoint and draws them in JS."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csrf import ensure_csrf_cookie

from tournament import selectors
from tournament.models import SeatReview
from tournament.selectors.spectators import queue_place
from tournament.services.analysis import seat_reviews_for


def replay_viewer(request: HttpRequest, match_id: int) -> HttpResponse:
    """The page shell; everything game-specific is drawn by static/replays/viewer.js."""
    match = selectors.match_get(match_id=match_id, user=request.user)
    live = match is not None and not match.replay_name and match.status in ("queued", "running")
    if match is None or not (match.replay_name or live):
        raise Http404(f"No replay for match {match_id}.")
    return render(request, "replays/viewer.html", viewer_context(match, user=request.user))


def viewer_context(match: Any, user: Any = None) -> dict[str, Any]:
    """What ``replays/_viewer.html`` needs to embed the viewer of a match in any page (the
    standalone viewer here, the site's match page, the embed for other sites). With ``user``,
    the seats whose review (where they lost) that user may read, for the move list's marks."""
    live = not match.replay_name
    reviewed = [] if live or user is None else [
        seat for seat, review in seat_reviews_for(match=match, user=user)
        if review is not None and review.status == SeatReview.Status.DONE]
    frames_url = reverse("replays:frames", args=[match.pk])
    if not live and match.replay_sha256:
        frames_url += f"?v={match.replay_sha256[:16]}"  # a new replay gets a new URL
    return {
        "match": match,
        "seats": list(match.seats.select_related("bot_version__bot").order_by("seat")),
        "frames_url": frames_url,
        "replay_url": "" if live else reverse("replays:replay", args=[match.pk]),
        "marks_url": reverse("replays:marks", args=[match.pk]),
        "analysis_url": reverse("match-analysis", args=[match.pk]),
        "reviewed_seats": ",".join(str(s) for s in reviewed),
        "live": live,
        # a queued match is followed like a live one, but its badge says what it waits for
        "waiting": live and match.status == "queued",
        "queue_place": queue_place(match) if live else None,
    }


# Where other sites may frame the embed: anywhere (the rest of the site sends
# X-Frame-Options: DENY through Django's clickjacking middleware).
EMBED_FRAME_ANCESTORS = "frame-ancestors *"


@xframe_options_exempt
def match_embed(request: HttpRequest, match_id: int) -> HttpResponse:
    """``/embed/matches/N/?step=K&seat=S``: the viewer alone, for an iframe on another site
    (docs/site.md). A match the visitor may not see is a 404, as on the match page."""
    match = selectors.match_get(match_id=match_id, user=request.user)
    live = match is not None and not match.replay_name and match.status in ("queued", "running")
    if match is None or not (match.replay_name or live):
        raise Http404(f"No replay for match {match_id}.")
    context = viewer_context(match)
    context.update(chromeless=True,
                   share_url=request.build_absolute_uri(reverse("website:match", args=[match.pk])))
    response = render(request, "replays/embed.html", context)
    response["Content-Security-Policy"] = EMBED_FRAME_ANCESTORS
    return response


@ensure_csrf_cookie
def replay_file_viewer(request: HttpRequest) -> HttpResponse:
    """The viewer for a replay file the user opens (not stored with a match): the page
    posts the file to the upload frames endpoint and draws the answer."""
    return render(request, "replays/viewer.html", {
        "match": None,
        "seats": [],
        "upload_url": reverse("replays:upload-frames"),
    })
