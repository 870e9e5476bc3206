"""The machine's cache of built C++ bundles (``workers.sandbox.build.cached_build``): bounded by
``$ISLE_BUILD_CACHE_MAX_BYTES``, least recently used first, never deleting a build used in the
last two minutes (another process may be about to read it), and cleaning partial files left by
processes that died. The compiler is a fake that counts its calls (real compiles:
test_languages.py)."""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path
from typing import Any

import pytest

from workers.sandbox import build
from workers.sandbox.bot_process import SandboxError
from workers.sandbox.build import BuildResult, cached_build, prune_build_cache

from .starters import zip_bundle

SIZE = 100  # bytes of each fake built bundle


class FakeCompiler:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, data: bytes, filename: str | None, **_: Any) -> BuildResult:
        self.calls += 1
        built = hashlib.sha256(data).digest() * (SIZE // 32) + b"b" * (SIZE % 32)
        return BuildResult(
            ok=True, log="built", reason="", source_sha256=hashlib.sha256(data).hexdigest(),
            language="cpp", seconds=0.0, bundle=built, filename="b.zip",
            sha256=hashlib.sha256(built).hexdigest(),
        )  # fmt: skip


@pytest.fixture
def compiler(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> FakeCompiler:
    fake = FakeCompiler()
    monkeypatch.setattr(build, "build_bundle", fake)
    monkeypatch.setenv("ISLE_SANDBOX_ROOT", str(tmp_path / "sandbox"))
    monkeypatch.setenv("ISLE_BUILD_CACHE_MAX_BYTES", str(2 * SIZE + SIZE // 2))  # two fit
    return fake


def source(tmp_path: Path, n: int) -> bytes:
    manifest = {"entrypoint": "main.cpp", "language": "cpp"}
    files = {"main.cpp": f"int main() {{ return {n}; }}\n".encode()}
    return zip_bundle(tmp_path / f"src{n}.zip", manifest, files).read_bytes()


def cached(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "sandbox" / "builds").iterdir())


def used_ago(path: Path, seconds: float) -> None:
    when = time.time() - seconds
    os.utime(path, (when, when))


def test_least_recently_used_builds_go_first_past_the_limit(compiler, tmp_path: Path) -> None:
    sources = [source(tmp_path, n) for n in range(3)]
    names = [cached_build(data, "main.zip")[1] for data in sources[:2]]
    builds = tmp_path / "sandbox" / "builds"
    used_ago(builds / names[0], 600)
    used_ago(builds / names[1], 500)
    cached_build(sources[0], "main.zip")  # a hit: now the most recently used
    assert compiler.calls == 2
    third = cached_build(sources[2], "main.zip")[1]
    assert [p.name for p in cached(tmp_path)] == sorted([names[0], third])
    cached_build(sources[1], "main.zip")  # the evicted one is built again
    assert compiler.calls == 4


def test_builds_used_recently_stay_even_past_the_limit(compiler, tmp_path: Path) -> None:
    """Another worker process on this host may be about to read one of them."""
    names = [cached_build(source(tmp_path, n), "main.zip")[1] for n in range(3)]
    assert sorted(p.name for p in cached(tmp_path)) == sorted(names)  # all used just now
    used_ago(tmp_path / "sandbox" / "builds" / names[1], build.BUILD_CACHE_KEEP_RECENT + 5)
    cached_build(source(tmp_path, 3), "main.zip")
    assert names[1] not in {p.name for p in cached(tmp_path)}
    assert len(cached(tmp_path)) == 3


def test_partial_files_of_dead_processes_are_removed(compiler, tmp_path: Path) -> None:
    cached_build(source(tmp_path, 0), "main.zip")
    builds = tmp_path / "sandbox" / "builds"
    dead, writing = builds / ".incoming-dead", builds / ".incoming-writing"
    dead.write_bytes(b"x" * 10)
    writing.write_bytes(b"x" * 10)
    used_ago(dead, 2 * 3600)
    assert prune_build_cache(builds, max_bytes=10_000) == [dead]
    assert writing.exists()  # another process is writing it now


def test_a_build_deleted_under_a_reader_is_built_again(compiler, tmp_path: Path) -> None:
    data = source(tmp_path, 0)
    first, name = cached_build(data, "main.zip")
    (tmp_path / "sandbox" / "builds" / name).unlink()  # another process's pruning
    assert cached_build(data, "main.zip") == (first, name) and compiler.calls == 2


@pytest.mark.parametrize("value", ["lots", "0", "-5"])
def test_a_bad_limit_is_one_readable_error(compiler, tmp_path, monkeypatch, value) -> None:
    monkeypatch.setenv("ISLE_BUILD_CACHE_MAX_BYTES", value)
    with pytest.raises(SandboxError, match="ISLE_BUILD_CACHE_MAX_BYTES must be a positive"):
        cached_build(source(tmp_path, 0), "main.zip")
    assert compiler.calls == 0
