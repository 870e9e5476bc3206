"""A worker's local copy of bot bundles, addressed by sha256. No Django.

Bundles live in the object store; a match needs a file on the worker's own disk to start a
bot from. ``BundleCache.fetch(sha256, kind, opener)`` returns that file: from the cache when
it is there, else copied from ``opener()`` (a readable binary stream, e.g. a storage's
``open``) while hashing, refused unless the bytes have the expected sha256 and fit the size
limit, and renamed into place only when complete. Past ``max_bytes`` the least recently used
files are deleted, except those used in the last ``keep_recent`` seconds: another worker
process on the same host may be about to start one of them. That eviction (``lru_entries``,
``evict_lru``) also bounds the cache of built C++ bundles (``workers.sandbox.build``).

Several worker processes on one host may share the folder: files appear by atomic rename and
are only ever replaced by identical bytes, so no lock is needed to read them.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

CHUNK = 64 * 1024
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_KIND = re.compile(r"^[a-z0-9]{1,8}$")


class BundleFetchError(RuntimeError):
    """The bundle could not be copied: wrong hash, too large, or the store failed."""


@dataclass(frozen=True)
class CacheStats:
    files: int
    bytes: int


class BundleCache:
    """A folder of ``<sha[:2]>/<sha256>.<kind>`` files with a size limit and LRU eviction."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        max_bytes: int,
        max_file_bytes: int | None = None,
        keep_recent: float = 120.0,
    ) -> None:
        if max_bytes <= 0:
            raise ValueError("a bundle cache needs a positive max_bytes")
        self.root = Path(root)
        self.max_bytes = max_bytes
        self.max_file_bytes = max_file_bytes or max_bytes
        self.keep_recent = keep_recent

    def path_of(self, sha256: str, kind: str) -> Path:
        if not _SHA256.match(sha256 or ""):
            raise BundleFetchError(f"not a sha256: {sha256!r}")
        if not _KIND.match(kind or ""):
            raise BundleFetchError(f"not a bundle kind: {kind!r}")
        return self.root / sha256[:2] / f"{sha256}.{kind}"

    def fetch(self, sha256: str, kind: str, opener: Callable[[], BinaryIO]) -> Path:
        """The local file of this bundle, copied from ``opener()`` on a miss."""
        path = self.path_of(sha256, kind)
        if path.is_file():
            touch(path)
            return path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._copy_in(path, sha256, opener)
        self.evict(protect=path)
        return path

    def _copy_in(self, path: Path, sha256: str, opener: Callable[[], BinaryIO]) -> None:
        digest, size = hashlib.sha256(), 0
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".incoming-")
        try:
            with os.fdopen(fd, "wb") as out:
                try:
                    source = opener()
                except (OSError, ValueError) as exc:
                    raise BundleFetchError(f"bundle {sha256[:12]}: cannot open: {exc}") from exc
                with source:
                    while chunk := source.read(CHUNK):
                        size += len(chunk)
                        if size > self.max_file_bytes:
                            raise BundleFetchError(
                                f"bundle {sha256[:12]} is larger than {self.max_file_bytes} bytes"
                            )
                        digest.update(chunk)
                        out.write(chunk)
            if digest.hexdigest() != sha256:
                raise BundleFetchError(
                    f"bundle {sha256[:12]}: the stored bytes have sha256 {digest.hexdigest()}"
                )
            os.chmod(tmp, 0o644)  # bots run under other uids and read their bundle's copy
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise

    def entries(self) -> list[tuple[float, int, Path]]:
        """(last use, size, path) of every cached file, least recently used first."""
        return lru_entries(p for p in self.root.glob("??/*.*") if not p.name.startswith("."))

    def stats(self) -> CacheStats:
        entries = self.entries()
        return CacheStats(files=len(entries), bytes=sum(size for _, size, _ in entries))

    def evict(self, protect: Path | None = None) -> list[Path]:
        """Delete least recently used files until the cache fits; returns what went."""
        return evict_lru(
            self.entries(), max_bytes=self.max_bytes, keep_recent=self.keep_recent,
            protect=protect,
        )  # fmt: skip


def lru_entries(paths: Iterable[Path]) -> list[tuple[float, int, Path]]:
    """(last use, size, path) of these files, least recently used first; a file deleted
    meanwhile (by another process's eviction) is left out."""
    out = []
    for path in paths:
        with contextlib.suppress(FileNotFoundError):
            st = path.stat()
            out.append((st.st_mtime, st.st_size, path))
    out.sort(key=lambda e: e[0])
    return out


def evict_lru(
    entries: list[tuple[float, int, Path]],
    *,
    max_bytes: int,
    keep_recent: float,
    protect: Path | None = None,
    remove: Callable[[Path], None] = Path.unlink,
) -> list[Path]:
    """Delete the least recently used of ``entries`` (as ``lru_entries`` lists them, oldest
    first) until they fit in ``max_bytes``; returns what went. Entries used in the last
    ``keep_recent`` seconds stay even past the limit: another process on the host may be
    about to read one. ``remove`` deletes one entry (a file by default). Several processes
    may evict at once: an entry already gone is simply skipped."""
    total = sum(size for _, size, _ in entries)
    recent = time.time() - keep_recent
    removed = []
    for used, size, path in entries:
        if total <= max_bytes:
            break
        if path == protect or used > recent:
            continue
        with contextlib.suppress(FileNotFoundError):
            remove(path)
            removed.append(path)
        total -= size
    return removed


def max_bytes_from_env(name: str, default: int) -> int:
    """A cache's size limit from the environment variable ``name`` (positive bytes), else
    ``default``; ``ValueError`` naming the variable for anything else."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value <= 0:
        raise ValueError(f"{name} must be a positive number of bytes, not {raw!r}")
    return value


def touch(path: Path) -> None:
    """Mark a file used now (its mtime is the LRU clock; atime is often not kept)."""
    with contextlib.suppress(FileNotFoundError):
        os.utime(path)
