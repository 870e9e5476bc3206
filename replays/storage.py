"""Replay files in the ``replays`` storage (Django's storage API, so S3 can replace disk).

The caller (the match-recording service) stores the returned name, sha256 and size on the
``Match``; readers check the sha256 before trusting the bytes.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

from django.core.files.base import ContentFile
from django.core.files.storage import storages

STORAGE_ALIAS = "replays"


class ReplayNotFound(LookupError):
    """No replay file under that name."""


class ReplayCorrupt(ValueError):
    """The stored bytes do not have the sha256 recorded on the match."""


class StoredReplay(NamedTuple):
    """Where a replay went. Unpacks as ``(name, sha256, size)``; ``dict()`` also works."""

    name: str
    sha256: str
    size: int

    def keys(self) -> tuple[str, ...]:
        return self._fields

    def __getitem__(self, key):  # type: ignore[override]
        return getattr(self, key) if isinstance(key, str) else tuple.__getitem__(self, key)


def replay_name(match_id: int) -> str:
    """Storage name of a match's replay: sharded by thousands to keep directories small."""
    return f"matches/{match_id // 1000:04d}/match-{match_id}.replay"


def save_replay(*, match_id: int, data: bytes) -> StoredReplay:
    """Store a match's replay (replacing an earlier attempt's) and describe what was stored."""
    if not isinstance(data, (bytes, bytearray)) or not data:
        raise ValueError("a replay is non-empty bytes")
    storage = storages[STORAGE_ALIAS]
    name = replay_name(match_id)
    if storage.exists(name):
        storage.delete(name)
    saved = storage.save(name, ContentFile(bytes(data)))
    return StoredReplay(saved, hashlib.sha256(data).hexdigest(), len(data))


def open_replay(name: str, *, sha256: str | None = None) -> bytes:
    """The bytes of a stored replay; with ``sha256``, ``ReplayCorrupt`` if they differ."""
    storage = storages[STORAGE_ALIAS]
    if not name or not storage.exists(name):
        raise ReplayNotFound(f"no replay named {name!r}")
    with storage.open(name, "rb") as handle:
        data = handle.read()
    if sha256 and hashlib.sha256(data).hexdigest() != sha256:
        raise ReplayCorrupt(f"replay {name!r} does not match its recorded sha256")
    return data
