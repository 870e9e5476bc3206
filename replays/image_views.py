"""The match pictures: ``/matches/N/step/K.png`` (one moment) and ``/matches/N/summary.gif``
(the whole game, animated). Drawn on the server by replayfile/images.py, kept by
replays/stored_images.py.

Who may see the match may see its pictures: anybody else gets the same 404 as for the match
page (a private league's match is not revealed to exist). A step beyond the end is clamped:
the request is redirected (302) to the last step's address, so every picture has one address.
``X-Image-Cache`` says ``hit`` or ``miss`` (drawn by this request).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_GET

from replayfile.format import ReplayError
from replayfile.frames import FramesError
from tournament import selectors

from .storage import ReplayCorrupt, ReplayNotFound, open_replay
from .stored_images import step_png_bytes, steps_of, summary_gif_bytes

MAX_AGE = 24 * 3600


def _visible_replay(request: HttpRequest, match_id: int) -> tuple[Any, bytes]:
    match = selectors.match_get(match_id=match_id, user=request.user)
    if match is None:
        raise Http404(f"No match {match_id}.")
    if not match.replay_name:
        raise Http404(f"Match {match_id} has no replay yet.")
    try:
        data = open_replay(match.replay_name, sha256=match.replay_sha256 or None)
    except (ReplayNotFound, ReplayCorrupt):
        raise Http404(f"The replay of match {match_id} cannot be read.") from None
    if not match.replay_sha256:  # recorded before sha256s were kept
        match.replay_sha256 = hashlib.sha256(data).hexdigest()
    return match, data


def image_title(match: Any) -> str:
    """The header line of a picture: the match and where it was played."""
    where = match.league.name if match.league_id else str(match.kind)
    return f"Match #{match.pk} · {match.mode} · {where}"


def _picture(match: Any, body: bytes, drawn: bool, content_type: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    public = match.league_id is None or match.league.public
    # A private league's picture is kept by the browser only, never by a shared proxy.
    response["Cache-Control"] = f"{'public' if public else 'private'}, max-age={MAX_AGE}"
    response["Vary"] = "Cookie"
    response["X-Image-Cache"] = "miss" if drawn else "hit"
    return response


@require_GET
def match_step_png(request: HttpRequest, match_id: int, step: int) -> HttpResponse:
    match, data = _visible_replay(request, match_id)
    sha = match.replay_sha256
    try:
        last = steps_of(data, sha)
        if step > last:
            return HttpResponseRedirect(reverse("replays:step-png", args=[match.pk, last]))
        body, drawn = step_png_bytes(data, sha, step, image_title(match), match.replay_name)
    except (FramesError, ReplayError) as exc:
        raise Http404(f"The replay of match {match_id} cannot be drawn: {exc}") from None
    return _picture(match, body, drawn, "image/png")


@require_GET
def match_summary_gif(request: HttpRequest, match_id: int) -> HttpResponse:
    match, data = _visible_replay(request, match_id)
    try:
        body, drawn = summary_gif_bytes(data, match.replay_sha256, image_title(match),
                                        match.replay_name)
    except (FramesError, ReplayError) as exc:
        raise Http404(f"The replay of match {match_id} cannot be drawn: {exc}") from None
    return _picture(match, body, drawn, "image/gif")
