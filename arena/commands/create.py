"""``python -m arena create NAME``: a new bot on the server, ready for ``submit``."""

from __future__ import annotations

import argparse

from ..client import add_server_arguments, client_from_args


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("create", help="create a bot (then submit versions of it)")
    parser.add_argument("name", help="the bot's name, unique on the server")
    parser.add_argument("--description", default="", help="one line about the bot")
    add_server_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    client = client_from_args(args)
    bot = client.post("bots/", {"name": args.name, "description": args.description})
    print(f"created bot {bot['name']} (id {bot['id']}); "
          f"now: python -m arena submit FILE --bot {bot['name']}")  # fmt: skip
    return 0
