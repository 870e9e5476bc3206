"""``python -m arena matches``: matches on the server, newest first (``--mine``: your
challenges), filtered by bot, league, kind and status."""

from __future__ import annotations

import argparse
import json
from typing import Any

from competition.versions import version_label

from ..client import add_server_arguments, client_from_args
from ..lookups import find_bot, find_league


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("matches", help="list matches (yours with --mine)")
    parser.add_argument("--mine", action="store_true", help="the challenges you requested")
    parser.add_argument("--bot", default=None, help="a bot's name or id")
    parser.add_argument("--league", default=None, help="a league's name or id")
    parser.add_argument("--kind", choices=["league", "challenge", "validation"], default=None)
    parser.add_argument("--status", default=None,
                        help="queued, running, finished, failed or cancelled")
    parser.add_argument("--limit", type=int, default=20, help="at most this many (default 20)")
    parser.add_argument("--json", action="store_true", help="print the server's JSON")
    add_server_arguments(parser)
    parser.set_defaults(func=run)  # fmt: skip


def run(args: argparse.Namespace) -> int:
    client = client_from_args(args, login_required=args.mine)
    query: dict[str, Any] = {"kind": args.kind, "status": args.status}
    if args.bot:
        query["bot"] = find_bot(client, args.bot)["id"]
    if args.league:
        query["league"] = find_league(client, args.league)["id"]
    path = "challenges/" if args.mine else "matches/"
    matches = client.pages(path, limit=max(args.limit, 1), **query)
    if args.json:
        print(json.dumps(matches, sort_keys=True))
        return 0
    if not matches:
        print("no matches")
        return 0
    print(f"{'id':>6}  {'kind':<10}  {'mode':<8}  {'status':<9}  seats (score, rank)")
    for match in matches:
        solo = match["mode"] == "solo"
        seats = ", ".join(
            version_label(s["bot"], s["version"])
            + ("" if s.get("score") is None else f" ({s['score']:g}, {rank_text(s['rank'], solo)})")
            + (f" [{s['fault']}]" if s.get("fault") else "")
            for s in match.get("seats", [])
        )
        print(f"{match['id']:>6}  {match['kind']:<10}  {match['mode']:<8}  "
              f"{match['status']:<9}  {seats}")  # fmt: skip
    return 0


def rank_text(rank: int | None, solo: bool) -> str:
    """Solo ranks the player 1 on a win and 2 otherwise (a tie goes to the sister): say who won."""
    if solo and rank in (1, 2):
        return "won" if rank == 1 else "sister won"
    return "-" if rank is None else str(rank)
