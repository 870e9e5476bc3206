"""Bot bundles on the worker's disk: copied from the ``bots`` storage into the local cache.

The storage may be a folder on this machine or an object store on another host; either way
it is only read through ``storage.open``. The copy is checked against the sha256 recorded at
upload, so a worker never starts a bot from bytes other than those its author sent.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.files.storage import storages

from workers.sandbox.bundle_cache import BundleCache, BundleFetchError

if TYPE_CHECKING:
    from ..models import BotVersion

STORAGE_ALIAS = "bots"

__all__ = ["BundleFetchError", "bundle_cache", "bundle_local_path"]


@functools.cache
def _cache(root: str, max_bytes: int, max_file_bytes: int) -> BundleCache:
    return BundleCache(root, max_bytes=max_bytes, max_file_bytes=max_file_bytes)


def bundle_cache() -> BundleCache:
    """This process's cache, as configured (BUNDLE_CACHE_DIR, BUNDLE_CACHE_MAX_BYTES)."""
    return _cache(
        str(settings.BUNDLE_CACHE_DIR),
        settings.BUNDLE_CACHE_MAX_BYTES,
        settings.BOT_UPLOAD_MAX_BYTES,
    )


def bundle_local_path(version: BotVersion) -> Path:
    """A local file holding this version's bundle, fetched from storage if not cached.

    ``BundleFetchError`` when the stored bytes are missing, too large or not the uploaded
    ones: the match cannot be played here, which is not its bots' fault.
    """
    # a compiled language's version plays its built bundle (a zip), never its sources
    name = version.built_bundle_name or version.bundle_name
    sha256 = version.built_sha256 if version.built_bundle_name else version.sha256
    if not name or not sha256:
        raise BundleFetchError(f"bot version {version.pk} has no stored bundle")
    storage = storages[STORAGE_ALIAS]
    kind = version.bundle_kind or Path(name).suffix.lstrip(".") or "py"
    return bundle_cache().fetch(sha256, kind, lambda: storage.open(name, "rb"))
