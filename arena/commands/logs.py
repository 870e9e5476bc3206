"""``python -m arena logs VERSION`` / ``logs --match ID``: your bot's build log and stderr.

``logs VERSION`` (``NAME``, ``NAME@N`` or a version id) prints the version's whole build log
(compiled languages: the compiler's output as the server kept it) and the bot's kept stderr
of its validation match. ``logs --match ID`` prints the kept stderr of each seat of that match
held by one of your bots, with its fault. What a bot writes can hold its author's secrets, so
the server gives these to the bot's owner (and staff) only (``tournament/private_output.py``); for
anyone else this command says so with exit code 3.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..client import EXIT_REFUSED, add_server_arguments, client_from_args
from ..errors import CliError
from ..lookups import find_version


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "logs", help="your version's build log and stderr, or your bot's stderr in a match"
    )
    parser.add_argument("version", nargs="?", metavar="VERSION",
                        help="NAME (newest ready version), NAME@N or a version id")
    parser.add_argument("--match", type=int, default=None, metavar="ID",
                        help="the stderr of your bots' seats in match ID instead")
    add_server_arguments(parser)
    parser.set_defaults(func=run)  # fmt: skip


def run(args: argparse.Namespace) -> int:
    if (args.version is None) == (args.match is None):
        raise CliError("name a version (logs VERSION) or a match (logs --match ID)")
    client = client_from_args(args)
    if args.match is not None:
        print(match_logs(client.get(f"matches/{args.match}/")))
        return 0
    print(version_logs(find_version(client, args.version)))
    return 0


def _block(title: str, text: str) -> list[str]:
    lines = text.splitlines()
    return [f"{title}:", *(f"  | {line}" for line in lines)] if lines else [f"{title}: (empty)"]


def version_logs(version: dict[str, Any]) -> str:
    label = f"{version['bot_name']} v{version['number']} (version id {version['id']})"
    if version.get("log") is None and version.get("build_log") is None:
        raise CliError(f"the logs of {label} are for its owner only", EXIT_REFUSED)
    lines = [f"{label}: {version['status']}"
             + (f": {version['failure_reason']}" if version.get("failure_reason") else "")]
    if version.get("language"):
        lines[0] += f" ({version['language']})"
    if version.get("build_log"):
        lines += _block("build log", version["build_log"])
    lines += _block("stderr of its validation match", version.get("log") or "")
    return "\n".join(lines)


def match_logs(match: dict[str, Any]) -> str:
    mine = [s for s in match.get("seats", []) if s.get("log") is not None]
    if not mine:
        raise CliError(
            f"match {match['id']} has no seat of your bots (a seat's stderr is for its owner)",
            EXIT_REFUSED,
        )
    lines = [f"match {match['id']}: {match.get('mode', '')}, {match.get('status', '')}"]
    for seat in mine:
        head = f"seat {seat['seat']} ({seat['bot']} v{seat['version']})"
        if seat.get("fault"):
            head += f", fault {seat['fault']}: {seat.get('fault_detail') or ''}".rstrip()
        lines += _block(head, seat["log"])
    return "\n".join(lines)
