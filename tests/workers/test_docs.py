"""The protocol documents stay in step with the code: every fault kind and limit the bot is
told about is documented, and the generated examples cover every available mode."""

from __future__ import annotations

from pathlib import Path

from competition.faults import FaultKind
from competition.limits import Limits
from engine import available_modes
from workers.protocol.wire import PROTOCOL_VERSION

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_reference_documents_every_fault_kind_and_limit() -> None:
    text = (DOCS / "bot-protocol.md").read_text(encoding="utf-8")
    assert f"# The bot protocol (version {PROTOCOL_VERSION})" in text
    for kind in FaultKind:
        assert f"| `{kind.value}` |" in text, f"fault kind {kind.value} is not documented"
    for key in Limits().protocol_view():
        assert f"`{key}`" in text, f"limit {key} is not documented"


def test_examples_cover_every_available_mode() -> None:
    """Fails when a mode lands: re-run ``python scripts/protocol_examples.py``."""
    text = (DOCS / "bot-protocol-examples.md").read_text(encoding="utf-8")
    for mode in available_modes():
        assert f"\n## {mode}\n" in text, f"no examples for {mode}: run scripts/protocol_examples.py"
    assert f"(protocol version {PROTOCOL_VERSION})" in text


def test_every_card_and_shape_is_documented_from_the_game_data() -> None:
    """bot-protocol.md tables every card of every mode and engine.md lists every shape, both
    generated from ``game_data`` and kept current by ``scripts/protocol_docs.py --check``
    (test_protocol_schema.py); the languages table names every language."""
    import re

    from engine.game_data import GAME_DATA_MODES, game_data
    from scripts import game_data_docs
    from workers.sandbox.bundles import languages

    protocol = (DOCS / "bot-protocol.md").read_text(encoding="utf-8")
    cards = protocol.split(game_data_docs.CARDS_START)[1].split(game_data_docs.CARDS_END)[0]
    assert game_data_docs.card_table() in cards
    for mode in GAME_DATA_MODES:
        section = cards.split(f"### {mode}\n")[1].split("\n### ")[0]
        listed = set()
        for first, last in re.findall(r"^\| (\d+)(?:-(\d+))?", section, re.M):
            listed.update(range(int(first), int(last or first) + 1))
        for more in re.findall(r"^\| [\d, -]+", section, re.M):  # "7-10, 12" rows
            for first, last in re.findall(r"(\d+)(?:-(\d+))?", more):
                listed.update(range(int(first), int(last or first) + 1))
        ids = {c["id"] for c in game_data(mode)["cards"]}
        expected = ids - ({c["id"] for c in game_data("standard")["cards"]}
                          if mode == "solo" else set())
        assert listed == expected, mode
    engine = (DOCS / "engine.md").read_text(encoding="utf-8")
    for mode in GAME_DATA_MODES:
        for key in game_data(mode)["shapes"]:
            assert f"| `{key}` |" in engine, key
    for language in languages():
        assert f"| `{language}` |" in protocol, f"language {language} is not documented"
