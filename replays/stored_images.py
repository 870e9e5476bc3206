"""Match pictures (replayfile/images.py) drawn once and kept: in the shared cache and in the
``replays`` storage beside the replay (named after it, so ``delete_replay`` takes them along).

A request reads the cache, then the storage, and only draws what neither holds. The key holds
the replay's sha256, the engine version and ``IMAGES_VERSION``: a new engine or new drawing
code draws again, nothing else does.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.files.storage import storages

from engine.version import ENGINE_VERSION
from replayfile.format import decode
from replayfile.images import IMAGES_VERSION, step_png, summary_gif

from .storage import STORAGE_ALIAS, open_replay

log = logging.getLogger(__name__)

CACHE_SECONDS = 7 * 24 * 3600


def image_key(sha256: str, what: str) -> str:
    """What identifies one picture: the replay, the picture, the drawing and engine versions."""
    return f"i{IMAGES_VERSION}-e{ENGINE_VERSION}-{sha256[:32]}-{what}"


def image_name(replay_name: str, key: str, ext: str) -> str:
    return f"{replay_name}.image-{key}.{ext}"


def _stored(key: str, replay_name: str | None, ext: str,
            draw: Callable[[], bytes]) -> tuple[bytes, bool]:
    """(the picture, whether it was drawn now). Cache, then storage, then ``draw()``."""
    cache_key = f"replays:image:{key}"
    body = cache.get(cache_key)
    if body is not None:
        return body, False
    storage = storages[STORAGE_ALIAS]
    name = image_name(replay_name, key, ext) if replay_name else None
    if name:
        try:
            if storage.exists(name):
                with storage.open(name, "rb") as handle:
                    body = handle.read()
        except OSError:  # unreadable: draw it again
            body = None
    drawn = body is None
    if body is None:
        body = draw()
        if name:
            try:
                storage.save(name, ContentFile(body))
            except OSError:
                log.warning("could not store picture %s", name, exc_info=True)
    cache.set(cache_key, body, CACHE_SECONDS)
    return body, drawn


def step_png_bytes(data: bytes, sha256: str, frame: int, title: str,
                   replay_name: str | None = None) -> tuple[bytes, bool]:
    """The PNG of one frame (already clamped by the caller) and whether it was drawn now."""
    key = image_key(sha256, f"step{frame}")
    return _stored(key, replay_name, "png", lambda: step_png(decode(data), frame, title))


def summary_gif_bytes(data: bytes, sha256: str, title: str,
                      replay_name: str | None = None) -> tuple[bytes, bool]:
    key = image_key(sha256, "summary")
    return _stored(key, replay_name, "gif", lambda: summary_gif(decode(data), title))


def steps_of(data: bytes, sha256: str) -> int:
    """How many steps the replay has (its last frame), cached: the step URL is clamped to it
    without decoding the replay every time."""
    cache_key = f"replays:steps:{sha256[:32]}"
    found: Any = cache.get(cache_key)
    if found is None:
        found = len(decode(data)["steps"])
        cache.set(cache_key, found, CACHE_SECONDS)
    return int(found)


def match_last_frame(match: Any) -> int | None:
    """The last frame of a match's replay (cached by its sha256), or None without a readable
    replay: what the match page's ``og:image`` shows unless the address names a step."""
    if not match.replay_name or not match.replay_sha256:
        return None
    found = cache.get(f"replays:steps:{match.replay_sha256[:32]}")
    if found is not None:
        return int(found)
    try:
        data = open_replay(match.replay_name, sha256=match.replay_sha256)
        return steps_of(data, match.replay_sha256)
    except Exception:  # noqa: BLE001 - a page never fails for want of a preview picture
        log.warning("no steps for the picture of match %s", match.pk, exc_info=True)
        return None
