"""The replay viewer page: a template that loads the frames endpoint and draws them in JS."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.csrf import ensure_csrf_cookie


def replay_viewer(request: HttpRequest, match_id: int) -> HttpResponse:
    """The page shell; everything game-specific is drawn by static/replays/viewer.js."""
    from tournament import selectors

    match = selectors.match_get(match_id=match_id, user=request.user)
    if match is None or not match.replay_name:
        raise Http404(f"No replay for match {match_id}.")
    seats = list(match.seats.all())
    return render(request, "replays/viewer.html", {
        "match": match,
        "seats": seats,
        "frames_url": reverse("replays:frames", args=[match.pk]),
        "replay_url": reverse("replays:replay", args=[match.pk]),
    })


@ensure_csrf_cookie
def replay_file_viewer(request: HttpRequest) -> HttpResponse:
    """The viewer for a replay file the user opens (not stored with a match): the page
    posts the file to the upload frames endpoint and draws the answer."""
    return render(request, "replays/viewer.html", {
        "match": None,
        "seats": [],
        "upload_url": reverse("replays:upload-frames"),
    })
