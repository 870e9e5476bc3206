"""``python -m arena verify FILE``: prove a replay by re-simulating it.

Exit 0 when every step is legal and the final result and state hash match, 1 with one
readable line on the first mismatch or illegal step, 2 when the file cannot be read.
The replay modules are imported when the command runs, so ``--help`` works without them.
"""

from __future__ import annotations

import argparse
import sys

from replayfile.format import ReplayError, read_replay
from replayfile.verify import verify_document


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "verify", help="re-simulate a replay file and check its result and state hash"
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="replay file(s) (.replay)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    status = 0
    for path in args.files:
        prefix = f"{path}: " if len(args.files) > 1 else ""
        try:
            doc = read_replay(path)
        except (OSError, ReplayError) as exc:
            print(f"{prefix}error: cannot read replay: {exc}", file=sys.stderr)
            status = max(status, 2)
            continue
        verdict = verify_document(doc)
        if verdict.ok:
            print(f"{prefix}{verdict.message}")
        else:
            print(f"{prefix}FAILED: {verdict.message}", file=sys.stderr)
            status = max(status, 1)
    return status
