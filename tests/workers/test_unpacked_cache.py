"""Bundles unpacked once per host for jailed bots (``workers.sandbox.unpacked_cache``): bots of one
bundle share a read-only copy that no bot can change, bots outside a jail keep their own, the
cache can be turned off, and eviction keeps what was used recently."""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from pathlib import Path

import pytest

from workers.sandbox import unpacked_cache
from workers.sandbox.bot_process import BotSandbox, detect_isolation, sandbox_root
from workers.sandbox.isolation import Isolation

from .conftest import FAST, make_zip

JAILED = detect_isolation().filesystem
needs_jail = pytest.mark.skipif(not JAILED, reason="no filesystem isolation on this machine")

# Reads its data file, tries to change its own folder, and says what happened.
BOT = """
import json, sys
with open("data.txt") as f:
    data = f.read()
tries = {}
for name, how in (("new", "w"), ("main.py", "a")):
    try:
        with open(name, how) as f:
            f.write("changed")
        tries[name] = "written"
    except OSError as exc:
        tries[name] = type(exc).__name__
sys.stdin.readline()
print(json.dumps({"ready": True, "name": json.dumps({"data": data, "tries": tries})}))
sys.stdout.flush()
"""


def _bundle(tmp_path: Path, data: str = "fish") -> bytes:
    return make_zip(tmp_path / f"bot-{data}.zip", {"main.py": BOT, "data.txt": data}).read_bytes()


def _start(box: BotSandbox) -> dict:
    process = box.start()
    line, _ = process.exchange(b'{"type": "start"}\n', 10.0)
    return json.loads(json.loads(line)["name"])


def _digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


@needs_jail
def test_bots_of_one_bundle_share_one_copy_that_none_can_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    unpacks = []
    real = unpacked_cache.unpack_bundle
    monkeypatch.setattr(unpacked_cache, "unpack_bundle",
                        lambda *a, **k: unpacks.append(1) or real(*a, **k))
    data = _bundle(tmp_path)
    with BotSandbox(data, "bot.zip", limits=FAST) as first:
        folder = first.workdir
        assert folder.parent.parent == sandbox_root() / "unpacked"
        before = _digests(folder)
        seen = _start(first)
        assert seen["data"] == "fish"
        assert set(seen["tries"]) == {"new", "main.py"}
        assert "written" not in seen["tries"].values(), seen  # a read-only folder
        with BotSandbox(data, "bot.zip", limits=FAST) as second:
            assert second.workdir == folder
            assert _start(second)["data"] == "fish"
    assert _digests(folder) == before  # nothing a bot did reached the shared copy
    assert len(unpacks) <= 1  # unpacked once (none if an earlier test left it there)
    assert folder.is_dir()  # closing a bot leaves the shared copy in place


@pytest.mark.parametrize("how", ["no jail", "turned off"])
def test_a_bot_gets_its_own_folder_outside_a_jail_or_with_the_cache_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    isolation = None
    if how == "no jail":
        isolation = Isolation()
    else:
        monkeypatch.setenv("ISLE_UNPACKED_CACHE", "0")
    with BotSandbox(_bundle(tmp_path, how.replace(" ", "-")), "bot.zip", limits=FAST,
                    isolation=isolation) as box:
        assert box.workdir == box.dir / "bot"
        assert (box.workdir / "data.txt").read_text() == how.replace(" ", "-")
        folder = box.workdir
    assert not folder.exists()


def test_side_by_side_unpacks_of_one_bundle_end_in_one_entry(tmp_path: Path) -> None:
    root, data = tmp_path / "unpacked", _bundle(tmp_path, "side")
    found: list[Path] = []
    threads = [threading.Thread(target=lambda: found.append(
        unpacked_cache.unpacked(data, "bot.zip", root)[0])) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(found)) == 1 and (found[0] / "data.txt").read_text() == "side"
    assert [p.name for p in root.iterdir()] == [found[0].parent.name]  # no staging left
    assert oct(os.stat(found[0] / "data.txt").st_mode & 0o777) == "0o644"


def test_eviction_keeps_the_recently_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "unpacked"
    old = [unpacked_cache.unpacked(_bundle(tmp_path, f"old{i}"), "bot.zip", root)[0].parent
           for i in range(3)]
    long_ago = time.time() - unpacked_cache.KEEP_RECENT - 60
    for entry in old[:2]:
        os.utime(entry / "info.json", (long_ago, long_ago))
    monkeypatch.setenv("ISLE_UNPACKED_CACHE_MAX_BYTES", "1")
    fresh = unpacked_cache.unpacked(_bundle(tmp_path, "fresh"), "bot.zip", root)[0].parent
    assert sorted(p.name for p in root.iterdir()) == sorted([old[2].name, fresh.name])
    monkeypatch.setenv("ISLE_UNPACKED_CACHE_MAX_BYTES", "nonsense")
    with pytest.raises(ValueError, match="ISLE_UNPACKED_CACHE_MAX_BYTES"):
        unpacked_cache.evict(root)
