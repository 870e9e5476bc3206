"""``python -m arena analyse REPLAY [--seat K]``: who was winning, and where a seat lost.

Offline, on a replay file, with the estimator the site's workers use. Without ``--seat``:
each seat's chance of winning at the start and at each day's end, with its 95% interval,
and the falls larger than their intervals (replayfile/win_chances.py). With ``--seat K``:
each decision of seat K with a choice judged from K's own information, the costliest
first, marked "?" (a loss of 10 points or more) or "??" (15 or more)
(replayfile/decision_review.py). Exit 0 with the table, 2 with one readable line when the
file cannot be read or does not replay, or the seat is not in the game.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from replayfile.decision_review import review_seat
from replayfile.format import ReplayError, read_replay
from replayfile.frames import FramesError
from replayfile.win_chances import MAX_PLAYOUTS, analyse

DEFAULT_PLAYOUTS = 400


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "analyse", help="win chances of a replay, or (--seat K) where seat K lost")
    parser.add_argument("replay", metavar="REPLAY", help="replay file (.replay)")
    parser.add_argument("--seat", type=int, default=None,
                        help="judge each decision of this seat (0, 1, ...)")
    parser.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS,
                        help=f"playouts per point of the chances (1..{MAX_PLAYOUTS}, "
                             f"default {DEFAULT_PLAYOUTS})")
    parser.add_argument("--seed", type=int, default=0, help="seed of the playouts")
    parser.add_argument("--all", action="store_true",
                        help="with --seat: every judged decision, not only the costliest")
    parser.set_defaults(func=run)


def _pct(value: float) -> str:
    return f"{value * 100:.0f}%"


def _chances_table(result: dict[str, Any]) -> list[str]:
    names = result["names"]
    lines = [f"{result['mode']}: {result['playouts']} playouts per point by "
             f"{result['policy']}; {result['method']}", ""]
    header = ["point", "step", *names]
    rows = [header]
    for i, point in enumerate(result["points"]):
        label = "start" if i == 0 else "result" if point.get("final") else \
            f"end of day {result['points'][i - 1].get('day')}"
        cells = [f"{_pct(c)} [{_pct(lo)}-{_pct(hi)}]" if lo != hi else _pct(c)
                 for c, lo, hi in zip(point["chances"], point["low"], point["high"],
                                      strict=True)]
        rows.append([label, str(point["frame"]), *cells])
    widths = [max(len(r[k]) for r in rows) for k in range(len(header))]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip()
              for r in rows]
    lines.append("")
    if not result["blunders"]:
        lines.append("No fall larger than its intervals.")
    for b in result["blunders"]:
        lines.append(f"blunder: {b['name']} in day {b['day']}: {_pct(b['before'])} -> "
                     f"{_pct(b['after'])} (step {b['frame']})")
    return lines


def _review_table(result: dict[str, Any], every: bool) -> list[str]:
    shown = result["decisions"] if every else result["costliest"]
    lines = [f"{result['name']}: {len(result['decisions'])} decisions with a choice judged "
             f"from the seat's information, {result['worlds']} determinizations, "
             f"{result['playouts']} playouts per action by {result['policy']}, at most "
             f"{result['candidates']} candidates per decision; {result['method']}; "
             f"? >= {_pct(result['thresholds']['?'])}, ?? >= {_pct(result['thresholds']['??'])}",
             ""]
    if not shown:
        lines.append("No decision lost more than the uncertainty of its estimates.")
        return lines
    rows = [["step", "", "loss", "taken", "chance", "better", "chance"]]
    for d in shown:
        t, b = d["taken"], d["best"]
        rows.append([str(d["step"]), d["mark"], _pct(d["loss"]), t["text"],
                     f"{_pct(t['chance'])} [{_pct(t['low'])}-{_pct(t['high'])}]", b["text"],
                     f"{_pct(b['chance'])} [{_pct(b['low'])}-{_pct(b['high'])}]"])
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip()
              for r in rows]
    return lines


def run(args: argparse.Namespace) -> int:
    try:
        doc = read_replay(args.replay)
    except (OSError, ReplayError) as exc:
        print(f"error: cannot read replay: {exc}", file=sys.stderr)
        return 2
    try:
        if args.seat is None:
            lines = _chances_table(analyse(doc, args.playouts, seed=args.seed))
        else:
            lines = _review_table(review_seat(doc, args.seat, seed=args.seed), args.all)
    except (FramesError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0
