"""What of a replay is public, and the public copy of a replay.

A replay is public: anybody who may see its match may download it and watch it. A fault
record (``competition.faults.Fault.to_json``) also holds what is for the bot's owner and staff
only: ``stderr`` (the last lines the bot wrote on stderr, which can hold its secrets) and
``evidence`` (a timeout's CPU time, wall clock and the machine's load). The public copy keeps
each fault's seat, kind, step, message, seconds and decision, which is all the verifier and
the viewer read, and nothing else: a key the runner adds later stays out until it is listed
here (fail closed). The owner reads the stderr and the evidence from the match API's seat
(``log``, ``fault_evidence``), which hold the same text.

Pure (no Django): the match service strips a replay before storing it, the download and the
viewer's frames strip what older replays still carry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .format import ReplayError, decode, encode

# `decision`: the bot's own decision number when it faulted (None: at startup), written by
# runners that count faults against the bot's own decisions
PUBLIC_FAULT_KEYS = ("seat", "kind", "step", "message", "seconds", "decision")


def is_public(doc: Mapping[str, Any]) -> bool:
    """True when every fault of the decoded replay holds public keys only."""
    return all(
        isinstance(fault, Mapping) and set(fault) <= set(PUBLIC_FAULT_KEYS)
        for fault in doc.get("faults") or ()
    )


def public_fault(fault: Mapping[str, Any]) -> dict[str, Any]:
    """A fault record with its public keys only."""
    return {k: v for k, v in fault.items() if k in PUBLIC_FAULT_KEYS}


def public_document(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The decoded replay with its faults' public keys only (a new dict; ``doc`` is kept)."""
    out = dict(doc)
    out["faults"] = [public_fault(f) for f in doc.get("faults") or () if isinstance(f, Mapping)]
    return out


def public_replay(data: bytes) -> bytes:
    """The public bytes of a replay: ``data`` itself when it is public already, else the
    re-encoded public document. ``ReplayError`` when ``data`` is not a replay."""
    doc = decode(data)
    if is_public(doc):
        return bytes(data)
    return encode(public_document(doc))


def public_replay_or_same(data: bytes) -> bytes:
    """``public_replay``, or ``data`` unchanged when it is no replay at all: bytes that no
    reader can decode carry no fault records to strip (the runner only writes replays)."""
    try:
        return public_replay(data)
    except ReplayError:
        return data
