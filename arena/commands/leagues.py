"""``python -m arena leagues``: the leagues on the server you may see, newest first, filtered
by status, mode and format."""

from __future__ import annotations

import argparse
import json

from ..client import add_server_arguments, client_from_args


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("leagues", help="list leagues")
    parser.add_argument("--status", choices=["draft", "running", "paused", "closed"], default=None)
    parser.add_argument("--mode", default=None, help="standard, family, solo or duel")
    parser.add_argument("--format", choices=["round_robin", "swiss", "ladder"], default=None)
    parser.add_argument("--limit", type=int, default=50, help="at most this many (default 50)")
    parser.add_argument("--json", action="store_true", help="print the server's JSON")
    add_server_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Anyone may list public leagues; a stored login also shows the private ones you are in.
    client = client_from_args(args, login_required=False)
    leagues = client.pages("leagues/", limit=max(args.limit, 1), status=args.status,
                           mode=args.mode, format=args.format)  # fmt: skip
    if args.json:
        print(json.dumps(leagues, sort_keys=True))
        return 0
    if not leagues:
        print("no leagues")
        return 0
    width = max(12, *(len(league["name"]) for league in leagues))
    modes = [describe_mode(league) for league in leagues]
    mode_width = max(len(mode) for mode in modes)
    print(f"{'id':>5}  {'league':<{width}}  {'mode':<{mode_width}}  {'format':<11}  "
          f"{'status':<7}  {'round':>5}  organiser")  # fmt: skip
    for league, mode in zip(leagues, modes, strict=True):
        print(f"{league['id']:>5}  {league['name']:<{width}}  {mode:<{mode_width}}  "
              f"{league['format']:<11}  {league['status']:<7}  {league['current_round']:>5}  "
              f"{league['organiser']}")  # fmt: skip
    return 0


def describe_mode(league: dict) -> str:
    """``duel, 2 seats``; solo with its difficulty."""
    if league["mode"] == "solo":
        return f"solo, {(league.get('options') or {}).get('difficulty', '?')}"
    seats = league["seats"]
    return f"{league['mode']}, {seats} seat{'s' * (seats != 1)}"
