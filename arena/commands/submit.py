"""``python -m arena submit FILE --bot NAME``: upload a version and wait for its validation.

The server checks the bundle at once, then plays a validation match against ``random``. This
command waits for the verdict: exit 0 when the version is ready; exit 1 when it failed, with
the failure reason, the fault of the validation match (its page on the site), the whole build
log when a compiled bot failed to build, and the bot's stderr log; exit 5 when
it is still pending after ``--timeout`` seconds.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ..client import ApiClient, add_server_arguments, client_from_args
from ..errors import CliError
from ..lookups import find_bot, wait_for

EXIT_FAILED = 1


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("submit", help="upload a bot version and wait for validation")
    parser.add_argument("file", metavar="FILE",
                        help="a bot file: .py or .js, or a .zip bundle (C++ sources, a binary)")
    parser.add_argument("--bot", required=True, help="the bot's name or id")
    parser.add_argument("--no-wait", action="store_true", help="do not wait for validation")
    parser.add_argument("--timeout", type=float, default=600.0, metavar="SECONDS",
                        help="how long to wait for validation (default 600)")  # fmt: skip
    add_server_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    client = client_from_args(args)
    version = upload_version(client, args.file, args.bot)
    label = version_label(version)
    if args.no_wait:
        print(f"validation: {version['status']}")
        return 0
    print("validating: a match against random ...", flush=True)
    version = wait_for(
        lambda: client.get(f"bot-versions/{version['id']}/"),
        lambda v: v["status"] != "pending",
        timeout=args.timeout, what=f"the validation of {label}",
    )  # fmt: skip
    if version["status"] == "ready":
        print(f"ready: {label} can enter leagues and challenges")
        for match in client.pages("matches/", limit=1, bot_version=version["id"],
                                  kind="validation"):  # fmt: skip
            print(f"validation match: {match_page(client, match['id'])}")
        return 0
    report_failure(client, version, label)
    return EXIT_FAILED


def upload_version(client: ApiClient, path: str, bot_ref: str) -> dict[str, Any]:
    """Upload the file at ``path`` as a new version of the bot ``bot_ref`` and say so (`submit`
    and `test FILE`)."""
    if not os.path.exists(path):
        raise CliError(f"no such file: {path}")
    if not os.path.isfile(path):
        raise CliError(f"not a file: {path}")
    with open(path, "rb") as source:
        content = source.read()
    bot = find_bot(client, bot_ref)
    version = client.upload(f"bots/{bot['id']}/versions/", "file", path, content)
    print(f"uploaded {version_label(version)}, sha256 {version['sha256'][:12]}")
    return version


def version_label(version: dict[str, Any]) -> str:
    return f"{version['bot_name']} v{version['number']} (version id {version['id']})"


def match_page(client: ApiClient, match_id: int) -> str:
    """The match's page on the site (what a person opens), not its API address."""
    return f"{client.server}/matches/{match_id}/"


def report_failure(client: ApiClient, version: dict[str, Any], label: str) -> None:
    """The reason, the validation match's fault and the kept stderr log, on stderr."""
    lines = [f"failed: {label}: {version.get('failure_reason') or 'no reason given'}"]
    for match in client.pages("matches/", limit=1, bot_version=version["id"], kind="validation"):
        for seat in match.get("seats", []):
            if seat["bot_version"] == version["id"] and seat.get("fault"):
                lines.append(f"fault: {seat['fault']}: {seat.get('fault_detail') or ''}".rstrip())
        lines.append(f"validation match: {match_page(client, match['id'])}")
    build = (version.get("build_log") or "").splitlines()
    if build and version.get("failure_reason", "").startswith("build failed"):
        lines.append("build log (the whole compiler output kept):")
        lines += [f"  | {line}" for line in build]
    log = (version.get("log") or "").splitlines()
    if log:
        lines.append("log (the bot's stderr):")
        lines += [f"  | {line}" for line in log]
    print("\n".join(lines), file=sys.stderr)
