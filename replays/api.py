"""Replay endpoints: the file download and the viewer's frames.

``GET /api/v1/matches/{id}/replay`` streams the stored file as is: a zstd-compressed msgpack
document, ``Content-Type: application/zstd`` (decompress, then msgpack-decode; see
docs/replay-format.md). ``GET /api/v1/matches/{id}/frames?seat=K|spectator`` sends the
re-simulated views as JSON (see replayfile/frames.py): for a finished match built once when it
was recorded and stored gzip'd beside the replay (replays/stored_frames.py), sent with an
ETag and a long cache lifetime; for a running match the live steps (replays/live.py, the
public view only). Errors have the API's one body shape.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from replayfile.format import ReplayError
from replayfile.frames import SPECTATOR, FramesError, InvalidSeat, parse_seat
from replayfile.public_copy import public_replay_or_same
from tournament import selectors
from tournament.api.exceptions import error_body
from tournament.selectors.spectators import queue_place, visible_marks

from .live import live_payload, valid_play
from .storage import CHUNK, ReplayCorrupt, ReplayNotFound, open_replay, stream_replay
from .stored_frames import frames_gz, frames_key

REPLAY_CONTENT_TYPE = "application/zstd"
FRAMES_MAX_AGE = 365 * 24 * 3600


def error_response(status: int, code: str, message: str) -> JsonResponse:
    """The API's one error body (built by the API's exception module, so it cannot drift)."""
    return JsonResponse(error_body(code, message), status=status)


def _allow(*methods: str):
    """Like Django's require_http_methods, but a wrong method gets the API's error body."""

    def decorate(view):
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in methods:
                response = error_response(
                    405, "method_not_allowed", f"Method {request.method} is not allowed here."
                )
                response["Allow"] = ", ".join(methods)
                return response
            return view(request, *args, **kwargs)

        return wrapper

    return decorate


def _viewer(request: HttpRequest) -> Any:
    """Who asks: the session's user, or the API token's (`arena replay` and scripts send
    one), so a match only its author may see yet (a private league, hidden seeds) is theirs
    to download too."""
    user = request.user
    if not user.is_authenticated and request.META.get("HTTP_AUTHORIZATION"):
        try:
            found = TokenAuthentication().authenticate(request)
        except AuthenticationFailed:
            found = None
        if found is not None:
            user = found[0]
    return user


def _match_replay(request: HttpRequest, match_id: int) -> tuple[Any, bytes] | JsonResponse:
    """The visible match and its replay bytes, or the error response to send."""
    match = selectors.match_get(match_id=match_id, user=_viewer(request))
    if match is None:
        return error_response(404, "not_found", f"No match {match_id}.")
    if not match.replay_name:
        return error_response(404, "not_found", f"Match {match_id} has no replay yet.")
    try:
        data = open_replay(match.replay_name, sha256=match.replay_sha256 or None)
    except ReplayNotFound:
        return error_response(404, "not_found", f"The replay of match {match_id} is missing.")
    except ReplayCorrupt as exc:
        return error_response(500, "replay_corrupt", str(exc))
    return match, data


@_allow("GET")
def replay_download(request: HttpRequest, match_id: int) -> HttpResponse:
    """The stored file from the replays storage (a folder or an object store): sent whole when
    it fits in one read (the page cache can then keep it), streamed when larger."""
    match = selectors.match_replay_fields(match_id=match_id, user=_viewer(request))
    if match is None:
        return error_response(404, "not_found", f"No match {match_id}.")
    if not match.replay_name:
        return error_response(404, "not_found", f"Match {match_id} has no replay yet.")
    try:
        stream = stream_replay(match.replay_name, sha256=match.replay_sha256 or None)
    except ReplayNotFound:
        return error_response(404, "not_found", f"The replay of match {match_id} is missing.")
    except ReplayCorrupt as exc:
        return error_response(500, "replay_corrupt", str(exc))
    sha256, size = match.replay_sha256, stream.size
    if stream.size <= CHUNK:  # a replay is kilobytes: one chunk, checked already, cacheable
        body = b"".join(stream.chunks)
        # Stored since replays are stripped when recorded, a replay is public as it is; one
        # stored before still carries its faults' stderr and evidence, which no download sends.
        public = public_replay_or_same(body)
        if public != body:
            body, size = public, len(public)
            sha256 = hashlib.sha256(public).hexdigest()
        response: HttpResponse = HttpResponse(body, content_type=REPLAY_CONTENT_TYPE)
    else:  # no replay the runner writes is this large (a 4-seat game is about 3 KB)
        response = StreamingHttpResponse(stream.chunks, content_type=REPLAY_CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.replay"'
    response["Content-Length"] = str(size)
    if sha256:
        response["ETag"] = f'"{sha256}"'
    return response


def _gzip_response(request: HttpRequest, body: bytes) -> HttpResponse:
    """Stored gzip bytes as they are when the client accepts gzip, else unpacked."""
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response = HttpResponse(body, content_type="application/json")
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(gzip.decompress(body), content_type="application/json")
    response["Vary"] = "Accept-Encoding, Cookie"
    return response


MAX_UPLOAD_BYTES = 2 * 1024 * 1024  # a replay is kilobytes


@csrf_exempt  # a pure function of the body, no session state: token and script clients too
@_allow("POST")
def uploaded_replay_frames(request: HttpRequest) -> HttpResponse:
    """Frames of a replay file sent in the body (the viewer's "open a file" page): for
    replays that are not in the database, e.g. from ``python -m arena play`` or another server."""
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > MAX_UPLOAD_BYTES:  # refused before the body is read
        return error_response(413, "too_large", f"A replay is at most {MAX_UPLOAD_BYTES} bytes.")
    data = request.body
    if not data:
        return error_response(400, "invalid", "Send the replay file as the request body.")
    if len(data) > MAX_UPLOAD_BYTES:
        return error_response(413, "too_large", f"A replay is at most {MAX_UPLOAD_BYTES} bytes.")
    try:
        body, _key = frames_gz(data, hashlib.sha256(data).hexdigest(), request.GET.get("seat"))
    except InvalidSeat as exc:
        return error_response(400, "invalid", str(exc))
    except (FramesError, ReplayError) as exc:
        return error_response(422, "replay_invalid", str(exc))
    return _gzip_response(request, body)


@_allow("GET")
def replay_frames(request: HttpRequest, match_id: int) -> HttpResponse:
    """Frames of a finished match (stored, gzip, long-lived with an ETag), or of a running
    match (``live``: the public view only, ``?since=N`` for the steps after step N)."""
    match = selectors.match_get(match_id=match_id, user=_viewer(request))
    if match is None:
        return error_response(404, "not_found", f"No match {match_id}.")
    if not match.replay_name:
        return _live_frames(request, match)
    found = _match_replay(request, match_id)
    if isinstance(found, JsonResponse):
        return found
    match, data = found
    sha = match.replay_sha256 or hashlib.sha256(data).hexdigest()
    try:
        seat = parse_seat(request.GET.get("seat"), match.seats.count())
    except InvalidSeat as exc:
        return error_response(400, "invalid", str(exc))
    etag = f'"{frames_key(sha, seat)}"'
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponse(status=304)
    else:
        try:
            body, _key = frames_gz(data, sha, seat, match.replay_name)
        except (FramesError, ReplayError) as exc:
            return error_response(422, "replay_invalid", str(exc))
        response = _gzip_response(request, body)
    response["ETag"] = etag
    # A finished match's frames never change for this engine; the ETag revalidates the rest.
    response["Cache-Control"] = f"private, max-age={FRAMES_MAX_AGE}"
    return response


@_allow("GET")
def match_marks(request: HttpRequest, match_id: int) -> HttpResponse:
    """The bots' marks of a match that this visitor may see, ``{"seats": {seat: [[step,
    marks], ...]}}``: a seat's owner sees its marks, everyone in a league that allows it
    (tournament/selectors/spectators.py). Never cached by a shared cache."""
    match = selectors.match_get(match_id=match_id, user=request.user)
    if match is None:
        return error_response(404, "not_found", f"No match {match_id}.")
    seats = visible_marks(match=match, user=request.user)
    response = JsonResponse({"seats": {str(s): steps for s, steps in seats.items()}})
    response["Cache-Control"] = "private, no-cache"
    return response


def _live_frames(request: HttpRequest, match: Any) -> HttpResponse:
    """A match without a replay: its live steps while it runs; the viewer polls this."""
    status = str(match.status)
    if request.GET.get("seat") not in (None, "", SPECTATOR):
        return error_response(400, "invalid", "A running match is shown to spectators only: "
                              "the seats' views open when the match has finished.")
    try:
        since = max(0, int(request.GET.get("since") or 0))
    except ValueError:
        return error_response(400, "invalid", "since must be a step number.")
    play = request.GET.get("play") or None
    if play is not None and not valid_play(play):
        return error_response(400, "invalid", "play is the token of an earlier payload.")
    payload = live_payload(match.pk, since, play) if status == "running" else None
    if payload is None:
        if status in ("queued", "running"):
            payload = {"live": True, "waiting": True, "status": status, "cursor": since,
                       "queue_place": queue_place(match)}
        else:
            return error_response(404, "not_found", f"Match {match.pk} has no replay "
                                  f"({status}).")
    payload["status"] = status
    response = JsonResponse(payload)
    response["Cache-Control"] = "no-store"
    return response
