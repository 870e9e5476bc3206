"""``python -m arena test VERSION_OR_FILE --vs greedy[,random] --mode duel [--watch]``: play a
test game of your own version on the server now, privately and unrated.

``VERSION_OR_FILE`` is a version of one of your bots (``NAME``: its newest version that did
not fail, ``NAME@N`` or a version id) or a bot file, which is first uploaded as a new version
of ``--bot`` (as ``submit`` does) and tested while it is validated. ``--draft BOT`` (a name or
an id) tests instead that bot's draft in the site's workshop as it is now, unsubmitted: it
plays as a draft snapshot, version 0, which no list shows. ``--vs`` lists the
opponents, one per other seat: built-in bots (``random``, ``greedy``, ``search-0.25s``) or your
own versions; with ``--seats``, a single opponent takes every other seat. The game waits in
the workshop lane, ahead of the leagues' matches; the server caps how many test games one
author may have running and play per day (a refusal says when the next is possible).

The command prints the match page (its viewer follows the game live; ``--watch`` opens it in
the browser, where you must be signed in to the site: a test game is yours alone), waits for
the end and prints the result with each seat's fault. Exit 1 if the match failed or the
tested version faulted.
"""

from __future__ import annotations

import argparse
import os
import webbrowser
from typing import Any

from engine.bots.names import is_builtin_bot

from ..client import EXIT_REFUSED, ApiClient, add_server_arguments, client_from_args
from ..errors import CliError
from ..lookups import find_bot, find_version, wait_for
from ..options import options_from_args
from .challenge import result_lines, seat_names
from .submit import upload_version, version_label

EXIT_FAILED = 1
FILE_SUFFIXES = (".py", ".js", ".zip")  # a bot file, never a bot's name


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "test", help="play a private, unrated test game of your version now"
    )
    parser.add_argument("version", metavar="VERSION_OR_FILE", nargs="?", default=None,
                        help="NAME, NAME@VERSION, a version id, or a bot file to upload first")
    parser.add_argument("--draft", default=None, metavar="BOT",
                        help="test this bot's workshop draft (name or id) instead of a version")
    parser.add_argument("--vs", required=True, metavar="BOT[,BOT...]",
                        help="the opponents: built-in bots or your own versions")
    parser.add_argument("--bot", default=None,
                        help="with a file: the bot (name or id) it becomes a version of")
    parser.add_argument("--mode", default="duel", help="standard, family, solo or duel")
    parser.add_argument("--seats", type=int, default=None,
                        help="the number of seats (one opponent then fills every other seat)")
    parser.add_argument("--seed", type=int, default=None, help="the game's seed")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a mode option (repeatable)")
    parser.add_argument("--difficulty", default=None, help="solo: the sister's difficulty")
    parser.add_argument("--watch", action="store_true",
                        help="open the match page, whose viewer follows the game live")
    parser.add_argument("--no-wait", action="store_true", help="do not wait for the result")
    parser.add_argument("--timeout", type=float, default=900.0, metavar="SECONDS",
                        help="how long to wait for the build and the result (default 900)")
    add_server_arguments(parser)  # fmt: skip
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if (args.version is None) == (args.draft is None):
        raise CliError("give exactly one of VERSION_OR_FILE (a version or a file) and --draft BOT")
    client = client_from_args(args)
    body: dict[str, Any] = {
        "mode": args.mode, "opponents": [_opponent(client, ref) for ref in _split(args.vs)],
        "options": options_from_args(args),
    }  # fmt: skip
    if args.draft is not None:
        body["draft"] = find_bot(client, args.draft)["id"]
    else:
        body["bot_version"] = _tested_version(client, args)["id"]
    if args.seats is not None:
        body["seats"] = args.seats
    if args.seed is not None:
        body["seed"] = args.seed
    match = client.post("test-games/", body)
    print(f"test game {match['id']} {match['status']}{_place(match)}: {seat_names(match)}")
    print(f"watch it: {match['page_url']}", flush=True)
    if args.watch and not webbrowser.open(match["page_url"]):
        print("(no browser could be opened: open the address above)")
    if args.no_wait:
        return 0
    match = wait_for(
        lambda: client.get(f"test-games/{match['id']}/"),
        lambda m: m["status"] not in ("queued", "running"),
        timeout=args.timeout, what=f"test game {match['id']}",
    )  # fmt: skip
    print(result_lines(match))
    tested = next((s for s in match["seats"] if s["seat"] == 0), {})
    if tested.get("fault"):
        print(f"your bot faulted: {tested['fault']}: {tested.get('fault_detail') or ''}".rstrip())
        print(f"its stderr and decision times: {match['page_url']}")
    return 0 if match["status"] == "finished" and not tested.get("fault") else EXIT_FAILED


def _split(refs: str) -> list[str]:
    names = [ref.strip() for ref in refs.split(",") if ref.strip()]
    if not names:
        raise CliError("--vs needs at least one opponent, e.g. --vs greedy")
    return names


def _opponent(client: ApiClient, ref: str) -> str | int:
    """A built-in bot by its name, else one of your versions by its id."""
    if is_builtin_bot(ref):
        return ref
    return find_version(client, ref)["id"]


def _tested_version(client: ApiClient, args: argparse.Namespace) -> dict[str, Any]:
    """The version to test: one named on the server, or the file uploaded as a new version
    (waited for until its build, if any, is done: its validation match is then queued)."""
    ref = args.version
    if not (os.path.sep in ref or ref.endswith(FILE_SUFFIXES) or os.path.isfile(ref)):
        return _named_version(client, ref)
    if args.bot is None:
        raise CliError("testing a file needs --bot NAME: the bot it becomes a version of")
    version = upload_version(client, ref, args.bot)
    if version["status"] == "pending":
        version = wait_for(
            lambda: client.get(f"bot-versions/{version['id']}/"),
            lambda v: v["status"] != "pending" or _validation_queued(client, v["id"]),
            timeout=args.timeout, what=f"the build of {version_label(version)}",
        )  # fmt: skip
    if version["status"] == "failed":
        raise CliError(f"{version_label(version)} failed: {version.get('failure_reason')}",
                       EXIT_FAILED)  # fmt: skip
    return version


def _validation_queued(client: ApiClient, version_id: int) -> bool:
    return bool(client.pages("matches/", limit=1, bot_version=version_id, kind="validation"))


def _named_version(client: ApiClient, ref: str) -> dict[str, Any]:
    """``NAME``: the newest version that did not fail (a new upload may be tested while it is
    validated); ``NAME@N`` and ids as everywhere."""
    if ref.isdigit() or "@" in ref:
        return find_version(client, ref)
    bot = find_bot(client, ref)
    usable = [v for v in bot.get("versions") or [] if v["status"] != "failed"]
    if not usable:
        raise CliError(f"bot {bot['name']!r} has no version that can play", EXIT_REFUSED)
    return max(usable, key=lambda v: v["number"])


def _place(match: dict[str, Any]) -> str:
    if match.get("place") is None:
        return ""
    return f" (place {match['place']} in the {match['lane']} lane)"
