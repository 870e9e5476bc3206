"""Replay endpoints: the file download and the viewer's frames.

``GET /api/v1/matches/{id}/replay`` sends the stored file as is: a zstd-compressed msgpack
document, ``Content-Type: application/zstd`` (decompress, then msgpack-decode; see
docs/replay-format.md). ``GET /api/v1/matches/{id}/frames?seat=K|spectator`` sends the
re-simulated views as JSON (see replays/frames.py), gzip-compressed when the client accepts
it and cached by replay sha256 + seat. Errors have the API's one body shape.
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.gzip import gzip_page

from engine.version import ENGINE_VERSION

from .format import FORMAT_VERSION, ReplayError, decode
from .frames import SPECTATOR, FramesError, InvalidSeat, build_frames, parse_seat
from .storage import ReplayCorrupt, ReplayNotFound, open_replay

REPLAY_CONTENT_TYPE = "application/zstd"
FRAMES_CACHE_SECONDS = 24 * 3600


def error_response(status: int, code: str, message: str) -> JsonResponse:
    """The API's one error body (built by the API's exception module, so it cannot drift)."""
    from tournament.api.exceptions import error_body

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


def _match_replay(request: HttpRequest, match_id: int) -> tuple[Any, bytes] | JsonResponse:
    """The visible match and its replay bytes, or the error response to send."""
    from tournament import selectors

    match = selectors.match_get(match_id=match_id, user=request.user)
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
    found = _match_replay(request, match_id)
    if isinstance(found, JsonResponse):
        return found
    match, data = found
    response = HttpResponse(data, content_type=REPLAY_CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.replay"'
    response["Content-Length"] = str(len(data))
    if match.replay_sha256:
        response["ETag"] = f'"{match.replay_sha256}"'
    return response


def frames_json(data: bytes, sha256: str, seat_param: str | None) -> bytes:
    """The frames payload (serialised), from the cache when this replay/seat was built."""
    doc = decode(data)
    seat = parse_seat(seat_param, int(doc["header"]["seats"]))
    key = (f"replays:frames:f{FORMAT_VERSION}:e{ENGINE_VERSION}:{sha256}:"
           f"{SPECTATOR if seat is None else seat}")
    cached = cache.get(key)
    if cached is not None:
        return cached
    payload = json.dumps(build_frames(doc, seat), separators=(",", ":")).encode()
    cache.set(key, payload, FRAMES_CACHE_SECONDS)
    return payload


MAX_UPLOAD_BYTES = 2 * 1024 * 1024  # a replay is kilobytes


@csrf_exempt  # a pure function of the body, no session state: token and script clients too
@_allow("POST")
@gzip_page
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
        body = frames_json(data, hashlib.sha256(data).hexdigest(), request.GET.get("seat"))
    except InvalidSeat as exc:
        return error_response(400, "invalid", str(exc))
    except (FramesError, ReplayError) as exc:
        return error_response(422, "replay_invalid", str(exc))
    return HttpResponse(body, content_type="application/json")


@_allow("GET")
@gzip_page
def replay_frames(request: HttpRequest, match_id: int) -> HttpResponse:
    found = _match_replay(request, match_id)
    if isinstance(found, JsonResponse):
        return found
    match, data = found
    sha = match.replay_sha256 or hashlib.sha256(data).hexdigest()
    try:
        body = frames_json(data, sha, request.GET.get("seat"))
    except InvalidSeat as exc:
        return error_response(400, "invalid", str(exc))
    except (FramesError, ReplayError) as exc:
        return error_response(422, "replay_invalid", str(exc))
    return HttpResponse(body, content_type="application/json")
