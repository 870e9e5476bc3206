"""The workers' local bundle cache: copied by sha256, checked, size-limited, LRU-evicted."""

from __future__ import annotations

import hashlib
import io
import os
import time

import pytest

from workers.sandbox.bundle_cache import BundleCache, BundleFetchError


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Opener:
    """Counts how often the store is read."""

    def __init__(self, data: bytes) -> None:
        self.data, self.calls = data, 0

    def __call__(self) -> io.BytesIO:
        self.calls += 1
        return io.BytesIO(self.data)


def test_a_miss_copies_and_a_hit_reads_nothing(tmp_path):
    data = b"print('hello')\n"
    cache = BundleCache(tmp_path, max_bytes=10_000)
    opener = Opener(data)
    path = cache.fetch(_sha(data), "py", opener)
    assert path.read_bytes() == data and path.name == f"{_sha(data)}.py"
    assert cache.fetch(_sha(data), "py", opener) == path
    assert opener.calls == 1
    assert cache.stats().files == 1 and cache.stats().bytes == len(data)


def test_bytes_with_another_hash_are_refused_and_leave_nothing(tmp_path):
    cache = BundleCache(tmp_path, max_bytes=10_000)
    expected = _sha(b"the uploaded bytes")
    with pytest.raises(BundleFetchError, match="the stored bytes have sha256"):
        cache.fetch(expected, "py", Opener(b"tampered bytes"))
    assert not list(tmp_path.rglob("*.*")), "no file, not even a partial one"


def test_a_bundle_over_the_file_limit_is_refused(tmp_path):
    data = b"x" * 5000
    cache = BundleCache(tmp_path, max_bytes=100_000, max_file_bytes=4096)
    with pytest.raises(BundleFetchError, match="larger than 4096 bytes"):
        cache.fetch(_sha(data), "zip", Opener(data))
    assert not list(tmp_path.rglob("*.*"))


def test_a_store_that_fails_to_open_is_a_fetch_error(tmp_path):
    def missing():
        raise FileNotFoundError("no such object")

    with pytest.raises(BundleFetchError, match="cannot open"):
        BundleCache(tmp_path, max_bytes=100).fetch("a" * 64, "py", missing)


@pytest.mark.parametrize("sha, kind", [("../../etc/passwd", "py"), ("a" * 64, "p/y"), ("", "py")])
def test_names_are_checked(tmp_path, sha, kind):
    with pytest.raises(BundleFetchError):
        BundleCache(tmp_path, max_bytes=100).path_of(sha, kind)


def test_least_recently_used_files_go_first_past_the_limit(tmp_path):
    cache = BundleCache(tmp_path, max_bytes=250, keep_recent=0)
    blobs = [bytes([65 + i]) * 100 for i in range(3)]
    paths = []
    for i, blob in enumerate(blobs[:2]):
        paths.append(cache.fetch(_sha(blob), "py", Opener(blob)))
        past = time.time() - 100 + i  # the first is the older one
        os.utime(paths[-1], (past, past))
    cache.fetch(_sha(blobs[0]), "py", Opener(blobs[0]))  # a hit: now the most recent
    third = cache.fetch(_sha(blobs[2]), "py", Opener(blobs[2]))
    assert third.exists() and paths[0].exists()
    assert not paths[1].exists(), "the least recently used one was evicted"
    assert cache.stats().bytes <= 250


def test_files_in_recent_use_are_kept_even_past_the_limit(tmp_path):
    """Another worker process on the host may be starting a bot from one of them."""
    cache = BundleCache(tmp_path, max_bytes=150, keep_recent=60)
    first, second = b"a" * 100, b"b" * 100
    kept = cache.fetch(_sha(first), "py", Opener(first))
    cache.fetch(_sha(second), "py", Opener(second))
    assert kept.exists()
    old = time.time() - 3600
    os.utime(kept, (old, old))
    assert cache.evict() == [kept]
