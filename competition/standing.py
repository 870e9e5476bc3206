"""How faults change a match's standing: a seat that faults loses.

The one place the rule lives. The runner applies it to the engine's result before anything
records it (tournament, CLI, replay), and replay verification applies it to the re-simulated
result, so ``arena verify`` reproduces the stored standing exactly. Pure and engine-free: it
reads only the engine's result (``ranks``, ``winners``, solo's ``won``) and the game step of
each seat's first fault.

The rule:

* every seat that did not fault ranks above every seat that faulted, in the engine's order
  among themselves (ties stay ties);
* seats that faulted rank by when they faulted: a later fault ranks higher, an earlier one
  lower, faults at the same game step tie;
* the board scores are left as they are (shown, marked as faulted); the engine's own ranks
  are kept as ``board_ranks`` and the faulted seats listed in ``faulted``;
* nobody who faulted wins: ``winners`` are the seats ranked first that did not fault, and a
  solo game whose player faulted is lost whatever its margin.

Ranks are competition ranks, as the engine's: 1 is best, tied seats share a rank and the
next rank skips (1, 1, 3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def fault_ranks(ranks: Sequence[int], fault_steps: Mapping[int, int]) -> list[int]:
    """The seats' ranks once faults count: ``ranks`` are the engine's (1 is best),
    ``fault_steps`` maps each faulted seat to the game step of its fault."""
    keys = []
    for seat, rank in enumerate(ranks):
        if seat in fault_steps:
            keys.append((1, -int(fault_steps[seat])))  # later fault, better place
        else:
            keys.append((0, int(rank)))
    return [1 + sum(other < key for other in keys) for key in keys]


def fault_steps_of(faults: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """Seat -> game step of its first fault, from fault records (``Fault.to_json`` rows)."""
    steps: dict[int, int] = {}
    for fault in faults:
        seat, step = int(fault["seat"]), int(fault["step"])
        steps[seat] = min(step, steps.get(seat, step))
    return steps


def fault_adjusted_result(
    result: Mapping[str, Any], faults: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """The engine's ``result`` with the standing the faults give (see the module's rule).
    Without faults it is returned unchanged (a copy)."""
    out = dict(result)
    steps = fault_steps_of(faults)
    if not steps:
        return out
    ranks = list(result.get("ranks") or [])
    out["board_ranks"] = ranks
    out["faulted"] = sorted(steps)
    if "won" in result:  # solo: a fault is a loss against the sister
        out["won"] = bool(result["won"]) and 0 not in steps
        out["ranks"] = [1 if out["won"] else 2]
        out["winners"] = [0] if out["won"] else []
        return out
    out["ranks"] = fault_ranks(ranks, steps)
    out["winners"] = [s for s, r in enumerate(out["ranks"]) if r == 1 and s not in steps]
    return out
