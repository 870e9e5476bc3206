"""Viewer frames stored beside their replay, gzip-compressed, so no web process builds them.

The frames of a finished match are built once, when the match is recorded
(``frames_precompute``, called by the match service), and saved through Django's storage API
in the ``replays`` storage next to the replay (so they follow it to S3). A request reads the
shared cache, then the storage, and only builds (and stores) frames that are missing: a seat's
view on its first request, or frames of an older engine version. The bytes are gzip, served
as they are to any client that accepts gzip.
"""

from __future__ import annotations

import gzip
import json
import logging
from typing import Any

from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.files.storage import storages

from engine.version import ENGINE_VERSION
from replayfile.format import FORMAT_VERSION, decode
from replayfile.frames import SPECTATOR, build_frames, parse_seat

from .storage import STORAGE_ALIAS

log = logging.getLogger(__name__)

FRAMES_VERSION = 4  # bumped when the payload changes shape (old stored frames are rebuilt)
CACHE_SECONDS = 24 * 3600
GZIP_LEVEL = 6


def frames_key(sha256: str, seat: int | None) -> str:
    """What identifies one frames payload: the replay, the view, the builders' versions."""
    who = SPECTATOR if seat is None else str(seat)
    return f"v{FRAMES_VERSION}-f{FORMAT_VERSION}-e{ENGINE_VERSION}-{sha256[:32]}-{who}"


def frames_name(replay_name: str, key: str) -> str:
    """Storage name of stored frames: beside the replay file and named after it. A replay's
    name is its play's own (``replays.storage.replay_name``), so the frames of another play
    of the same match never replace these, and ``delete_replay`` takes them with it."""
    return f"{replay_name}.frames-{key}.json.gz"


def encode_frames(payload: dict[str, Any]) -> bytes:
    body = json.dumps(payload, separators=(",", ":")).encode()
    return gzip.compress(body, GZIP_LEVEL, mtime=0)


def frames_gz(data: bytes, sha256: str, seat_param: str | int | None,
              replay_name: str | None = None) -> tuple[bytes, str]:
    """The gzip'd frames of a replay for one view and their key (used as the ETag).

    ``replay_name`` set: frames are looked up in and saved to storage beside the replay.
    Raises ``FramesError``/``ReplayError`` for a replay that cannot be re-simulated."""
    doc = None
    if isinstance(seat_param, int):
        seat: int | None = seat_param
    else:
        doc = decode(data)
        seat = parse_seat(seat_param, int(doc["header"]["seats"]))
    key = frames_key(sha256, seat)
    cache_key = f"replays:frames:{key}"
    cached = cache.get(cache_key)
    if cached is not None:
        return cached, key
    storage = storages[STORAGE_ALIAS]
    name = frames_name(replay_name, key) if replay_name else None
    body = None
    if name:
        try:
            if storage.exists(name):
                with storage.open(name, "rb") as handle:
                    body = handle.read()
        except OSError:  # unreadable: build it again
            body = None
    if body is None:
        doc = doc if doc is not None else decode(data)
        body = encode_frames(build_frames(doc, seat))
        if name:
            _save(storage, name, body)
    cache.set(cache_key, body, CACHE_SECONDS)
    return body, key


def _save(storage: Any, name: str, body: bytes) -> None:
    try:
        if storage.exists(name):
            storage.delete(name)
        storage.save(name, ContentFile(body))
    except OSError:
        log.warning("could not store frames %s", name, exc_info=True)


def frames_precompute(*, replay_name: str, sha256: str, data: bytes) -> None:
    """Build and store the spectator's frames of a just-recorded match (the first view of
    nearly every replay). Never raises: a failure here must not fail the match; the frames
    are then built on their first request."""
    try:
        frames_gz(data, sha256, None, replay_name)
    except Exception:  # noqa: BLE001 - the match stands; the viewer builds the frames later
        log.exception("frames of %s were not precomputed", replay_name)
