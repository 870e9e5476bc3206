"""What the viewer says of a fault: where it happened, in words, and which moves were the
default policy's.

After a fault the runner plays the default policy for the seat until the game ends. A replay
records each fault's seat, kind, step (the actions applied when it happened) and message, and
the moves in order; from those this module finds the seat's decision at which it faulted and
every later move of that seat, which the viewer then narrates as the default policy's:
"seat 2 (cats v3) timed out at its 12th decision; the default policy plays for it from here."
Only public fields are used (no stderr, no evidence; replayfile/public_copy.py). Pure: no Django.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from competition.versions import version_label

from .public_copy import public_fault


@cache
def kind_verbs() -> dict[str, str]:
    """kind -> how a sentence says it ("timed out"), from data/fault_kinds.json."""
    raw = json.loads(resources.files("replayfile").joinpath("data/fault_kinds.json").read_text())
    return {k: v for k, v in raw.items() if not k.startswith("_")}


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def seat_label(players: Sequence[Mapping[str, Any]] | None, seat: int) -> str:
    """``seat 2 (cats v3)`` from a replay header's players (``seat 2`` when it names none;
    ``seat 0 (cats (draft))`` for a snapshot of the workshop draft, version 0)."""
    player = next((p for p in players or () if p.get("seat") == seat), None) or {}
    bot, version = player.get("bot"), player.get("version")
    if not bot:
        return f"seat {seat}"
    if version in (None, "", "builtin"):
        return f"seat {seat} ({bot})"
    if str(version).isdigit():
        return f"seat {seat} ({version_label(bot, int(version))})"
    return f"seat {seat} ({bot} v{version})"


def fault_notes(
    faults: Sequence[Mapping[str, Any]],
    step_seats: Sequence[int],
    players: Sequence[Mapping[str, Any]] | None,
) -> tuple[list[dict[str, Any]], dict[int, int]]:
    """The public faults, each with ``decision`` (the seat's decision at which it faulted,
    1 = its first; None at startup), ``frame`` (the viewer's frame that shows its first
    default move, or the last frame), ``who`` and ``say`` (the sentence); and ``{step index:
    seat}`` of every move the default policy played. ``step_seats``: the seat of each logged
    move, in order."""
    notes: list[dict[str, Any]] = []
    default_steps: dict[int, int] = {}
    verbs = kind_verbs()
    for fault in faults:
        if not isinstance(fault, Mapping):
            continue
        note = public_fault(fault)
        seat, step = fault.get("seat"), fault.get("step")
        if not isinstance(seat, int) or not isinstance(step, int):
            notes.append(note)
            continue
        kind = str(fault.get("kind") or "fault")
        verb = verbs.get(kind, kind.replace("_", " "))
        who = seat_label(players, seat)
        later = [i for i in range(max(step, 0), len(step_seats)) if step_seats[i] == seat]
        # The runner's own count of the bot's decisions when it has one (None: at startup),
        # else the seat's moves logged before the fault.
        decision = fault.get("decision", sum(1 for s in step_seats[:step] if s == seat) + 1)
        if kind == "start_failed":
            say = f"{who} {verb}; the default policy plays for it from its first decision."
        elif not isinstance(decision, int) or decision < 1:
            say = (f"{who} {verb} at startup; the default policy plays for it from its first "
                   "decision.")  # fmt: skip
        elif later:
            say = (f"{who} {verb} at its {ordinal(decision)} decision; the default policy "
                   "plays for it from here.")  # fmt: skip
        else:
            say = f"{who} {verb} after its last decision."
        note.update(who=who, say=say, decision=decision,
                    frame=later[0] + 1 if later else len(step_seats))  # fmt: skip
        notes.append(note)
        default_steps.update({i: seat for i in later})
    return notes, default_steps


def default_say(say: str | None, name: str) -> str:
    """A move's sentence as the default policy's: "cats (seat 2) takes ..." becomes "The
    default policy, playing for cats (seat 2), takes ..."."""
    text = say or ""
    if text.startswith(name):
        return f"The default policy, playing for {name},{text[len(name):]}"
    return f"The default policy, playing for {name}: {text}"
