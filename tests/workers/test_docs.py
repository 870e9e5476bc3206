"""The protocol documents stay in step with the code: every fault kind and limit the bot is
told about is documented, and the generated examples cover every available mode."""

from __future__ import annotations

from pathlib import Path

from engine import available_modes
from workers.faults import FaultKind
from workers.limits import Limits
from workers.protocol import PROTOCOL_VERSION

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
