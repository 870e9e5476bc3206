"""``python -m arena enter LEAGUE BOT``: enter one of your bots in a league.

``BOT`` is a bot's name or id (the league takes its newest ready version) or ``NAME@N`` for
one version. Drafts take entries, and ladders while they run; a private league
takes its invited users' bots. The organiser may also enter anyone's ready bot.
"""

from __future__ import annotations

import argparse

from ..client import add_server_arguments, client_from_args
from ..lookups import find_bot, find_league, find_version


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("enter", help="enter a bot in a league")
    parser.add_argument("league", metavar="LEAGUE", help="the league's name or id")
    parser.add_argument("bot", metavar="BOT",
                        help="NAME or bot id (its newest ready version), or NAME@N for one version")
    add_server_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    client = client_from_args(args)
    league = find_league(client, args.league)
    ref = args.bot.strip()
    if "@" in ref:
        body = {"bot_version": find_version(client, ref)["id"]}
    else:
        body = {"bot": find_bot(client, ref)["id"]}
    entry = client.post(f"leagues/{league['id']}/entries/", body)
    print(f"entered {entry['bot_name']} v{entry['version']} in {league['name']} "
          f"(entry {entry['id']}); standings: python -m arena ladder {league['id']}")  # fmt: skip
    return 0
