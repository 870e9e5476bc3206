"""Replay files in the ``replays`` storage (Django's storage API: a folder or an object store).

The caller (the match-recording service) stores the returned name, sha256 and size on the
``Match``; readers open a replay by that stored name only (never one derived from the match
id: older replays have older names) and check the sha256 before trusting the bytes. Nothing
here asks for a local path: the web may run on a host that has none of the files.
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


NAME_SHA_CHARS = 16  # of the sha256 in a replay's name: 64 bits, distinct plays never share


def replay_name(match_id: int, sha256: str) -> str:
    """Storage name of one play's replay of a match, sharded by thousands of match ids.

    A match can be played twice at once (re-queued while its first worker still played it):
    the sha256 prefix gives each play's replay its own object, so the play that loses the
    race never replaces the bytes the recorded result points to, while a retried upload of the
    same bytes lands on the same name. Replays stored before carry the older
    ``match-<id>.replay`` names, still read through the name stored on their match."""
    return f"matches/{match_id // 1000:04d}/match-{match_id}-{sha256[:NAME_SHA_CHARS]}.replay"


def save_replay(*, match_id: int, data: bytes) -> StoredReplay:
    """Store one play's replay of a match and describe what was stored."""
    if not isinstance(data, (bytes, bytearray)) or not data:
        raise ValueError("a replay is non-empty bytes")
    data = bytes(data)
    sha256 = hashlib.sha256(data).hexdigest()
    storage = storages[STORAGE_ALIAS]
    name = replay_name(match_id, sha256)
    # An object store overwrites in place (the same bytes: one PUT, never a gap). A folder
    # would pick another name instead: the same bytes there already (an earlier attempt of
    # this upload, or another play that gave a byte-identical replay) are kept as they are.
    if not getattr(storage, "file_overwrite", False) and storage.exists(name):
        if _sha256_of(storage, name) == sha256:
            return StoredReplay(name, sha256, len(data))
        storage.delete(name)  # a write cut short
    saved = storage.save(name, ContentFile(data))
    return StoredReplay(saved, sha256, len(data))


def _sha256_of(storage, name: str) -> str | None:
    try:
        with storage.open(name, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


def delete_replay(name: str) -> list[str]:
    """Delete a stored replay and the files named after it (``<name>.<anything>``: its
    stored viewer frames), so a replay nothing points to leaves nothing behind. Returns the
    names deleted; storage errors propagate."""
    storage = storages[STORAGE_ALIAS]
    folder, _, base = name.rpartition("/")
    try:
        _dirs, files = storage.listdir(folder)
    except FileNotFoundError:  # a folder storage without that folder: nothing stored there
        files = []
    prefix = f"{base}."
    derived = sorted(f"{folder}/{f}" if folder else f for f in files if f.startswith(prefix))
    for each in [name, *derived]:
        storage.delete(each)  # a missing file is no error, in a folder or an object store
    return [name, *derived]


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
