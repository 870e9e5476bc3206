"""``python -m arena replay ID``: download a match's replay and prove it.

Checks the file's sha256 against the one the server recorded, then re-simulates it with the
local engine (``replayfile.verify``) as ``python -m arena verify`` does. Exit 0 when both hold,
1 when the file does not match its record or the re-simulation disagrees.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys

from replayfile.format import ReplayError, decode
from replayfile.verify import verify_document

from ..client import EXIT_REFUSED, add_server_arguments, client_from_args
from ..errors import CliError

EXIT_MISMATCH = 1


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("replay", help="download a match's replay and verify it")
    parser.add_argument("match", type=int, metavar="ID", help="the match id")
    parser.add_argument("-o", "--output", default=None, metavar="FILE",
                        help="where to save it (default: match-ID.replay)")
    parser.add_argument("--no-verify", action="store_true",
                        help="only check the sha256, do not re-simulate")  # fmt: skip
    add_server_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    client = client_from_args(args, login_required=False)
    match = client.get(f"matches/{args.match}/")
    if not match.get("replay_sha256"):
        raise CliError(f"match {args.match} has no replay (it is {match['status']})", EXIT_REFUSED)
    data = client.download(f"/api/v1/matches/{args.match}/replay")
    digest = hashlib.sha256(data).hexdigest()
    if digest != match["replay_sha256"]:
        print(f"FAILED: the download's sha256 {digest} is not the recorded "
              f"{match['replay_sha256']}", file=sys.stderr)  # fmt: skip
        return EXIT_MISMATCH
    path = args.output or f"match-{args.match}.replay"
    tmp = f"{path}.part"
    with open(tmp, "wb") as out:
        out.write(data)
    os.replace(tmp, path)
    print(f"saved {path} ({len(data)} bytes, sha256 as recorded)")
    if args.no_verify:
        return 0
    try:
        verdict = verify_document(decode(data))
    except ReplayError as exc:
        print(f"FAILED: cannot read the replay: {exc}", file=sys.stderr)
        return EXIT_MISMATCH
    if not verdict.ok:
        print(f"FAILED: {verdict.message}", file=sys.stderr)
        return EXIT_MISMATCH
    print(f"verified: {verdict.message}")
    return 0
