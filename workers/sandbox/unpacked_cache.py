"""Bundles unpacked once per worker host, for bots in a jail. No Django.

A match unpacks each seat's bundle into that bot's own folder. For a zip holding a static
executable that was about 16 ms of a bot's start (6 ms decompressing, the rest making and
removing folders and files), every match again. In a jail the bot's folder is bound
read-only at ``/bot`` and nothing writes into it, so every bot of the same bundle can be given
one unpacked copy: ``unpacked(data, filename)`` returns the folder of these bytes, unpacked on
first use under ``<sandbox root>/unpacked/<sha256>/`` with the permissions a bot's folder gets
(folders 0755, files 0644, an executable entry point 0755, all owned by the worker) and
renamed into place only when complete, so several worker processes of a host share it with no
lock. Bots outside a jail write into their folder and keep getting their own copy.

Each entry holds ``bot/`` and ``info.json`` (the ``BundleInfo``; its modification time is
the entry's last use). Past ``$ISLE_UNPACKED_CACHE_MAX_BYTES`` (default 256 MiB) the least
recently used entries go, except those used in the last ``KEEP_RECENT`` seconds: a bot
started from an entry has it bound into its jail for as long as its match lasts.
``ISLE_UNPACKED_CACHE=0`` turns the cache off.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from .bundle_cache import evict_lru, max_bytes_from_env, touch
from .bundles import BundleInfo, set_bot_permissions, unpack_bundle

ENABLED_ENV = "ISLE_UNPACKED_CACHE"
MAX_BYTES_ENV = "ISLE_UNPACKED_CACHE_MAX_BYTES"
MAX_BYTES = 256 * 1024 * 1024
# Longer than any match: the match task's hard time limit is 30 minutes by default.
KEEP_RECENT = 6 * 3600.0
_INCOMING = ".incoming-"


def enabled() -> bool:
    return os.environ.get(ENABLED_ENV, "1").strip() != "0"


def max_bytes() -> int:
    return max_bytes_from_env(MAX_BYTES_ENV, MAX_BYTES)


def unpacked(data: bytes, filename: str, root: Path) -> tuple[Path, BundleInfo]:
    """The shared, read-only folder of this bundle's files and its ``BundleInfo``, unpacked
    under ``root`` (``<sandbox root>/unpacked``) on first use. ``BundleError`` for a bundle
    that cannot be unpacked, as ``unpack_bundle`` says; ``ValueError`` for a size limit in
    the environment that is not a positive number of bytes."""
    sha256 = hashlib.sha256(data).hexdigest()
    entry = root / sha256
    found = _read_entry(entry)
    if found is not None:
        return found
    root.mkdir(mode=0o711, parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=_INCOMING, dir=root))
    try:
        info = unpack_bundle(data, filename, staging / "bot")
        size = set_bot_permissions(staging / "bot", info)
        (staging / "info.json").write_text(json.dumps({"info": info.to_json(), "bytes": size}))
        os.chmod(staging, 0o711)
        try:
            os.rename(staging, entry)
        except OSError:  # another process put the same bundle in place first
            shutil.rmtree(staging, ignore_errors=True)
            found = _read_entry(entry)
            if found is None:
                raise
            return found
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    with contextlib.suppress(OSError):  # best effort: never a reason to fail this start
        evict(root, protect=entry)
    return entry / "bot", info


def _read_entry(entry: Path) -> tuple[Path, BundleInfo] | None:
    try:
        saved = json.loads((entry / "info.json").read_text())
    except (FileNotFoundError, NotADirectoryError):
        return None
    touch(entry / "info.json")
    return entry / "bot", BundleInfo(**saved["info"])


def evict(root: Path, protect: Path | None = None) -> list[Path]:
    """Remove least recently used entries until the cache fits (never ``protect``, nor one
    used in the last KEEP_RECENT seconds, nor a staging folder younger than that); returns
    what went. Another process may be evicting too: what is gone already is skipped."""
    entries = []
    for entry in root.iterdir() if root.is_dir() else ():
        with contextlib.suppress(FileNotFoundError, NotADirectoryError, ValueError, KeyError):
            if entry.name.startswith(_INCOMING):
                if entry.stat().st_mtime < time.time() - KEEP_RECENT:  # a process died there
                    shutil.rmtree(entry, ignore_errors=True)
                continue
            info = entry / "info.json"
            entries.append((info.stat().st_mtime, json.loads(info.read_text())["bytes"], entry))
    entries.sort(key=lambda e: e[0])
    return evict_lru(entries, max_bytes=max_bytes(), keep_recent=KEEP_RECENT, protect=protect,
                     remove=_remove_entry)  # fmt: skip


def _remove_entry(entry: Path) -> None:
    doomed = entry.with_name(f"{_INCOMING}gone-{entry.name}")
    os.rename(entry, doomed)  # out of sight first: no bot starts from half of it
    shutil.rmtree(doomed, ignore_errors=True)
