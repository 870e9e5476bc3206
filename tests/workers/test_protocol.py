"""The protocol's messages: what we send is valid JSON of the documented shape, and every
kind of reply is parsed or rejected with the right fault kind."""

from __future__ import annotations

import json
import re
from unittest import mock

import pytest

from competition.faults import BotFault, FaultKind
from competition.limits import Limits
from engine import available_modes, new_game
from engine.actions import PlacementActions
from engine.bots import make_bot
from workers.protocol import wire as protocol
from workers.protocol.wire import (
    PROTOCOL_VERSION,
    LegalEncoder,
    decide_line,
    dumps_line,
    end_message,
    parse_ready,
    parse_reply,
    start_message,
)

from .tiny_game import TinyGame

CODEC = TinyGame.codec


def test_protocol_version_is_one() -> None:
    assert PROTOCOL_VERSION == 1


def test_start_message_carries_everything_a_bot_needs() -> None:
    game = TinyGame(2, 5, {"rounds": 3})
    message = json.loads(dumps_line(start_message(game, 1, Limits(decision_seconds=0.5))))
    assert message["type"] == "start" and message["protocol"] == 1
    assert (message["mode"], message["seat"], message["seats"]) == ("tiny", 1, 2)
    assert message["options"] == {"rounds": 3}
    assert message["limits"]["decision_seconds"] == 0.5
    assert message["catalogue"] == CODEC.catalogue()
    assert "seed" not in message  # a bot must not be able to predict the draws


def test_decide_line_is_one_json_line() -> None:
    game = TinyGame(2, 5)
    legal = game.legal_actions(0)
    line = decide_line(7, 0, game.observation(0), LegalEncoder(CODEC).encode_list(legal), 1.0, -2)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    message = json.loads(line)
    assert message["type"] == "decide" and message["step"] == 7 and message["seat"] == 0
    assert message["time"] == {"limit": 1.0, "bank": 0.0}  # an overdrawn bank shows as 0
    assert message["legal"] == [CODEC.encode(a) for a in legal]
    assert message["observation"] == game.observation(0)
    assert line == dumps_line(message)  # the compact form, keys in this order


def test_end_message() -> None:
    assert end_message(1, {"scores": [3, 4]}) == {"type": "end", "seat": 1,
                                                  "result": {"scores": [3, 4]}}  # fmt: skip


@pytest.mark.parametrize("mode", available_modes())
def test_legal_encoder_matches_the_codec_on_real_games(mode: str) -> None:
    """The cached text form equals ``codec.encode`` on every decision of a real game."""
    game = new_game(mode, 2 if mode != "solo" else 1, 11)
    encoder = LegalEncoder(game.codec)
    bots = [make_bot("random", mode, s, 11) for s in range(game.seats)]
    while not game.is_over():
        seat = game.pending()[0]
        legal = game.legal_actions(seat)
        expected = [game.codec.encode(a) for a in legal]
        assert json.loads(encoder.encode_list(legal)) == expected
        game.apply_unchecked(seat, bots[seat].act(game, seat))


@pytest.mark.parametrize("limit", [100_000, 150])
def test_placement_texts_kept_for_the_process_are_the_codec_s(
    limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Placement texts found in the process-wide table (from an earlier match, or after the
    table was emptied for being full) are byte for byte the codec's JSON."""
    monkeypatch.setattr(protocol, "_PLACEMENT_TEXTS", {})
    monkeypatch.setattr(protocol, "_PLACEMENT_TEXTS_LIMIT", limit)
    placements = biggest = 0
    for _match in range(2):
        game = new_game("standard", 3, 8)
        encoder = LegalEncoder(game.codec)
        bots = [make_bot("random", "standard", s, 8) for s in range(3)]
        while not game.is_over():
            seat = game.pending()[0]
            legal = game.legal_actions(seat)
            if isinstance(legal, PlacementActions):
                placements += len(legal)
                biggest = max(biggest, len(legal))
                assert encoder.encode_list(legal) == protocol._dumps(
                    [game.codec.encode(a) for a in legal])
            game.apply_unchecked(seat, bots[seat].act(game, seat))
    assert placements > 1000
    assert 0 < len(protocol._PLACEMENT_TEXTS["place"]) <= max(limit, biggest)


def test_placement_lists_with_extras_only_or_nothing_encode_like_the_codec() -> None:
    from engine.actions import Action, PlacementActions

    game = new_game("standard", 2, 0)
    encoder = LegalEncoder(game.codec)
    for legal in (
        PlacementActions((), before=[Action("pass")]),
        PlacementActions((), after=[Action("decline")]),
        PlacementActions(()),
    ):
        assert json.loads(encoder.encode_list(legal)) == [game.codec.encode(a) for a in legal]


def test_cells_text_matches_the_codec_past_the_table_and_on_no_cells() -> None:
    """A mask below the precomputed rows, a repeated shape elsewhere, and a mask with no
    cells all give the codec's ``[[x, y], ...]``."""
    from engine.boat import STRIDE, cells_of
    from workers.protocol.wire import _CELL_ROWS, _cells_text

    shape = 0b11 | (0b1 << STRIDE)  # an L of three cells
    for mask in (shape, shape << 5, shape << (STRIDE * (_CELL_ROWS + 2)), 0):
        assert json.loads(_cells_text(mask)) == cells_of(mask)


@pytest.mark.parametrize(
    ("line", "index", "action", "debug"),
    [
        (b'{"index": 2}', 2, None, None),
        (b'{"index": 0, "debug": "thinking"}', 0, None, "thinking"),
        (b'{"kind": "take", "n": 3}', None, ("take", 3), None),
        (b'{"kind": "pass", "debug": "nothing to do"}', None, ("pass",), "nothing to do"),
    ],
)
def test_valid_replies(line: bytes, index: int | None, action: tuple | None,
                       debug: str | None) -> None:  # fmt: skip
    reply = parse_reply(line, CODEC, 200)
    assert reply.index == index and reply.debug == debug
    assert (tuple(reply.action) if reply.action else None) == action


@pytest.mark.parametrize("line", [
    b'{"index": 0}', b'{"index":12}', b' {\t"index" :\r\n 3 } ', b'{"index": -1}',
    b'{"index": 01}', b'{"index": 1.0}', b'{"index": 1e2}', b'\xef\xbb\xbf{"index": 1}',
    b'{"index": 1234567890123456789012}', b'{"index": ' + b"9" * 5000 + b"}",
    b'{"index": 4}x', b'{"index": 4,}', b'{"index": 4, "index": 5}', b'{"index ": 4}',
    b'{"index": 4\f}',
])
def test_index_replies_read_fast_are_read_as_by_the_json_decoder(line: bytes) -> None:
    """``{"index": i}`` alone skips the JSON decoder; the reply (or the fault) is the one the
    decoder's way gives."""
    def outcome() -> object:
        try:
            return parse_reply(line, CODEC, 200)
        except BotFault as fault:
            return fault.kind, fault.message

    fast = outcome()
    with mock.patch.object(protocol, "_INDEX_ONLY", re.compile(b"(?!)")):  # never matches
        assert outcome() == fast


def test_debug_notes_are_cut_to_the_limit() -> None:
    reply = parse_reply(json.dumps({"index": 0, "debug": "x" * 500}).encode(), CODEC, 200)
    assert reply.debug == "x" * 200


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"rescue the orange cat", "not JSON"),
        (b"[1, 2]", "JSON object"),
        (b'"index"', "JSON object"),
        (b'{"index": "2"}', "integer"),
        (b'{"index": true}', "integer"),
        (b'{"index": 1, "kind": "pass"}', "unexpected field"),  # an action: it has a kind
        (b'{"index": 1, "debug": 7}', "debug must be a string"),
        (b'{"move": 1}', 'action object (with "kind")'),
        (b'{"kind": "fly"}', "unknown action kind"),
        (b'{"kind": "take"}', "needs the field"),
        (b'{"kind": "take", "n": "3"}', "must be an integer"),
        (b'{"kind": "pass", "why": 1}', "unexpected field"),
        (b"\xff\xfe", "not JSON"),
    ],
)
def test_malformed_replies_are_bad_output(line: bytes, reason: str) -> None:
    with pytest.raises(BotFault) as caught:
        parse_reply(line, CODEC, 200)
    assert caught.value.kind is FaultKind.BAD_OUTPUT
    assert reason in caught.value.message


def test_ready_answer() -> None:
    assert parse_ready(b'{"ready": true}') is None
    assert parse_ready(b'{"ready": true, "name": "cat herder"}') == "cat herder"
    for bad in (b'{"ready": 1}', b"{}", b"ok"):
        with pytest.raises(BotFault) as caught:
            parse_ready(bad)
        assert caught.value.kind is FaultKind.BAD_OUTPUT


@pytest.mark.parametrize("mode", available_modes())
def test_start_line_splices_the_modes_game_data(mode: str) -> None:
    """The line sent at launch is exactly the start message encoded, with the mode's game data
    (encoded once per mode) last; a mode without game data (the tests' tiny mode) has none."""
    game = new_game(mode, 2 if mode != "solo" else 1, 3)
    line = protocol.start_line(game, 0, Limits())
    assert line == dumps_line(start_message(game, 0, Limits()))
    message = json.loads(line)
    assert list(message)[-1] == "game_data" and message["game_data"]["mode"] == mode
    assert message["game_data"]["version"].startswith(message["engine_version"] + "+")
    tiny = TinyGame(2, 5)
    assert protocol.start_line(tiny, 0, Limits()) == dumps_line(start_message(tiny, 0, Limits()))
    assert "game_data" not in start_message(tiny, 0, Limits())
