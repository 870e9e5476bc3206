"""The replay format: round trip, determinism, plain-msgpack readability, bad input."""

from __future__ import annotations

import pytest

from engine.game import canonical_json
from replayfile.format import (
    FORMAT_VERSION,
    ReplayError,
    decode,
    document_from_game,
    encode,
    read_replay,
    steps_of,
    write_replay,
)
from replayfile.verify import verify_document


def test_round_trip_write_read_verify(any_mode, record, tmp_path):
    game, steps, _ = record(any_mode)
    path = tmp_path / "game.replay"
    write_replay(path, game, steps, {"players": [{"seat": 0, "bot": "random"}]})
    doc = read_replay(path)
    assert doc["format_version"] == FORMAT_VERSION
    assert doc["header"]["mode"] == any_mode
    assert doc["header"]["seats"] == game.seats
    assert doc["header"]["players"] == [{"seat": 0, "bot": "random"}]
    assert steps_of(doc) == [
        {**s, "seconds": round(s["seconds"] * 1e6) / 1e6} for s in steps
    ]
    assert canonical_json(doc["result"]) == canonical_json(game.result())
    assert doc["state_hash"] == game.state_hash()
    verdict = verify_document(doc)
    assert verdict.ok, verdict.message
    assert verdict.steps == len(steps)


def test_same_game_gives_identical_bytes(record, toy_mode):
    game, steps, _ = record(toy_mode, seed=3)
    doc = document_from_game(game, steps, {"ended_at": "2026-01-01T00:00:00+00:00"})
    again, steps2, _ = record(toy_mode, seed=3)
    doc2 = document_from_game(again, steps2, {"ended_at": "2026-01-01T00:00:00+00:00"})
    for s in (*doc["steps"], *doc2["steps"]):
        s[2] = 0  # wall-clock times differ between runs; everything else must not
    assert encode(doc) == encode(doc2)


def test_plain_msgpack_reader_gets_everything(record, toy_mode):
    """Only msgpack and zstandard: what a bot author in any language would do."""
    import msgpack
    import zstandard

    _, steps, data = record(toy_mode, seed=5)
    doc = msgpack.unpackb(zstandard.ZstdDecompressor().decompress(data, max_output_size=1 << 24))
    assert doc["format_version"] == 1
    catalogue = doc["header"]["actions"]
    first_place = next(i for i, s in enumerate(steps) if s["action"]["kind"] == "place")
    seat, action, micros = doc["steps"][first_place][:3]
    kind, *fields = action
    names = [name for name, _ in catalogue[kind]]
    cells = [[i % 23, i // 23] for i in fields[names.index("cells")]]
    assert seat == steps[first_place]["seat"]
    assert cells == steps[first_place]["action"]["cells"]
    assert isinstance(micros, int)
    assert len(doc["result"]["scores"]) == len(doc["header"]["players"])


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (b"", "zstd"),
        (b"hello world, not a replay", "zstd"),
        (__import__("zstandard").ZstdCompressor().compress(b"\xc1\xc1\xc1"), "msgpack"),
        (__import__("zstandard").ZstdCompressor().compress(
            __import__("msgpack").packb({"a": 1})), "magic"),
    ],
)
def test_garbage_is_a_clear_replay_error(data, needle):
    with pytest.raises(ReplayError, match=needle):
        decode(data)


def test_unknown_version_is_refused(record, toy_mode):
    import msgpack
    import zstandard

    _, _, data = record(toy_mode)
    doc = decode(data)
    doc["format_version"] = 99
    with pytest.raises(ReplayError, match="unknown replay format version 99"):
        decode(zstandard.ZstdCompressor().compress(msgpack.packb(doc)))


def test_four_player_replay_is_a_few_kilobytes(record):
    """The size budget (docs/replay-format.md): a full 4-player game in a few KB."""
    _, steps, data = record("standard", seed=11, seats=4)
    assert len(data) < 8 * 1024, f"{len(data)} bytes for {len(steps)} steps"
