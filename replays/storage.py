"""Replay files in the ``replays`` storage (Django's storage API: a folder or an object store).

The caller (the match-recording service) stores the returned name, sha256 and size on the
``Match``; readers check the sha256 before trusting the bytes. Nothing here asks for a local
path: the web may run on a host that has none of the files.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
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
    # An object store overwrites in place; a folder would pick another name instead.
    if not getattr(storage, "file_overwrite", False) and storage.exists(name):
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


CHUNK = 64 * 1024


class ReplayStream(NamedTuple):
    """A stored replay to send: its chunks (checked as they go) and its size in bytes."""

    chunks: Iterator[bytes]
    size: int


def stream_replay(name: str, *, sha256: str | None = None) -> ReplayStream:
    """The stored replay as chunks, read from storage as they are sent.

    A replay of one chunk is checked before anything is sent (``ReplayCorrupt`` at once). A
    longer one is checked as it streams and its last chunk is held back until the sha256 is
    known: on a mismatch the stream stops short of its announced size, so no client ever
    receives a whole file that differs from the one recorded.
    """
    storage = storages[STORAGE_ALIAS]
    if not name:
        raise ReplayNotFound("no replay name")
    try:
        handle = storage.open(name, "rb")
    except FileNotFoundError:
        raise ReplayNotFound(f"no replay named {name!r}") from None
    try:
        size = handle.size
        first = handle.read(CHUNK)
    except BaseException:
        handle.close()
        raise
    if len(first) >= size:
        handle.close()
        if sha256 and hashlib.sha256(first).hexdigest() != sha256:
            raise ReplayCorrupt(f"replay {name!r} does not match its recorded sha256")
        return ReplayStream(iter((first,)) if first else iter(()), size)
    return ReplayStream(_checked_chunks(handle, first, name, sha256), size)


def _checked_chunks(handle, first: bytes, name: str, sha256: str | None) -> Iterator[bytes]:
    digest = hashlib.sha256(first)
    held = first
    try:
        while chunk := handle.read(CHUNK):
            yield held
            digest.update(chunk)
            held = chunk
    finally:
        handle.close()
    if sha256 and digest.hexdigest() != sha256:
        raise ReplayCorrupt(f"replay {name!r} does not match its recorded sha256")
    yield held
