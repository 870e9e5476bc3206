"""``python -m arena bots``: your bots on the server, with their newest version's status."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..client import add_server_arguments, client_from_args


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bots", help="list your bots and their versions' status")
    parser.add_argument("--all", action="store_true", help="every bot on the server, not yours")
    parser.add_argument("--json", action="store_true", help="print the server's JSON")
    add_server_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    client = client_from_args(args, login_required=not args.all)
    query: dict[str, Any] = {}
    if not args.all:
        query["owner"] = client.get("accounts/me/")["username"]
    bots = client.pages("bots/", **query)
    if args.json:
        print(json.dumps(bots, sort_keys=True))
        return 0
    if not bots:
        print("no bots yet: `python -m arena create NAME`, then `python -m arena submit FILE`")
        return 0
    width = max(12, *(len(b["name"]) for b in bots))
    print(f"{'id':>5}  {'bot':<{width}}  {'newest version':<18}  {'ready':<7}  owner")
    for bot in bots:
        versions = bot.get("versions") or []
        newest = max(versions, key=lambda v: v["number"], default=None)
        ready = [v["number"] for v in versions if v["status"] == "ready"]
        latest = f"v{newest['number']} {newest['status']}" if newest else "-"
        name = bot["name"] + (" (retired)" if bot.get("retired") else "")
        print(f"{bot['id']:>5}  {name:<{width}}  {latest:<18}  "
              f"{('v' + str(max(ready))) if ready else '-':<7}  {bot['owner']}")  # fmt: skip
    return 0
