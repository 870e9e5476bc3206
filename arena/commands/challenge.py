"""``python -m arena challenge --mode duel mybot greedy``: an unrated match on the server.

Each seat is a bot version: ``NAME`` (its newest ready version), ``NAME@N`` or a version id;
anyone's bots may be challenged, built-in ``random`` and ``greedy`` included. The server limits
how many challenges one user may request (a refusal says when to try again). ``--wait`` waits
for the result and prints it; exit 1 if the match failed.
"""

from __future__ import annotations

import argparse
from typing import Any

from competition.versions import version_label

from ..client import add_server_arguments, client_from_args
from ..lookups import find_version, wait_for
from ..options import options_from_args
from .matches import rank_text

EXIT_FAILED = 1


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("challenge", help="request an unrated match between bots")
    parser.add_argument("bots", nargs="+", metavar="BOT",
                        help="one per seat, in seat order: NAME, NAME@VERSION or a version id")
    parser.add_argument("--mode", default="standard", help="standard, family, solo or duel")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a mode option (repeatable)")
    parser.add_argument("--difficulty", default=None, help="solo: the sister's difficulty")
    parser.add_argument("--wait", action="store_true", help="wait for the result and print it")
    parser.add_argument("--timeout", type=float, default=900.0, metavar="SECONDS",
                        help="how long --wait waits (default 900)")  # fmt: skip
    add_server_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    client = client_from_args(args)
    versions = [find_version(client, ref) for ref in args.bots]
    match = client.post("challenges/", {
        "mode": args.mode, "options": options_from_args(args),
        "bot_versions": [v["id"] for v in versions], "seats": len(versions),
    })  # fmt: skip
    print(f"challenge match {match['id']} {match['status']}: {seat_names(match)}")
    if not args.wait:
        print(f"follow it: python -m arena matches --mine  (or {client.server}/api/v1/matches/"
              f"{match['id']}/)")  # fmt: skip
        return 0
    match = wait_for(
        lambda: client.get(f"matches/{match['id']}/"),
        lambda m: m["status"] not in ("queued", "running"),
        timeout=args.timeout, what=f"match {match['id']}",
    )  # fmt: skip
    print(result_lines(match))
    if match.get("viewer_url"):
        print(f"watch it: {match['viewer_url']}")
    return 0 if match["status"] == "finished" else EXIT_FAILED


def seat_names(match: dict[str, Any]) -> str:
    return ", ".join(version_label(s["bot"], s["version"]) for s in match.get("seats", []))


def result_lines(match: dict[str, Any]) -> str:
    """A finished match as a small table: seat, bot, score, rank, fault."""
    lines = [f"match {match['id']} ({match['mode']}, {match['kind']}): {match['status']}"]
    if match.get("error"):
        lines.append(f"error: {match['error']}")
    for seat in match.get("seats", []):
        score = "-" if seat.get("score") is None else f"{seat['score']:g}"
        rank = rank_text(seat.get("rank"), match["mode"] == "solo")
        fault = f"  fault: {seat['fault']}" if seat.get("fault") else ""
        lines.append(f"  seat {seat['seat']}  {seat['bot']} v{seat['version']:<4} "
                     f"score {score:>5}  rank {rank}{fault}")  # fmt: skip
    return "\n".join(lines)
