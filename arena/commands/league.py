"""``python -m arena league ACTION``: what an organiser does to a league, without a browser.

* ``create NAME --mode M --seats N --format F``: a draft (``--rounds`` for swiss, ``--seeds``
  for round robin, ``--difficulty`` for solo, ``--private``, ``--order conservative``);
* ``start``, ``pause``, ``close LEAGUE``: run it (or resume it), hold it, end it for good;
  brackets: ``--format single_elim|double_elim|knockout`` with ``--best-of``, ``--seeding``,
  ``--advance`` (knockout) and, for a season's playoff, ``--playoff-of LEAGUE --playoff-top N``;
* ``podium LEAGUE``: a closed league's champion and podium;
* ``invite LEAGUE USER``: a user whose bots may enter a private league;
* ``order LEAGUE elo|conservative``: what ranks its ladder.

Only organisers (the server's "Can create and run leagues" permission) may create leagues,
and only a league's organiser may act on it; the server's refusal says so.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..client import add_server_arguments, client_from_args
from ..lookups import find_league
from ..options import options_from_args
from .leagues import describe_mode

ACTIONS = {  # the help of each action
    "start": "start a draft (its first matches are scheduled) or resume a paused league",
    "pause": "hold a league: its queued matches wait until it is started again",
    "close": "end a league for good: queued matches are cancelled, running ones still count",
}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("league", help="create, start, pause and close leagues")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    create = actions.add_parser("create", help="a new league, as a draft")
    create.add_argument("name", help="the league's name, unique on the server")
    create.add_argument("--mode", required=True, help="standard, family, solo or duel")
    create.add_argument("--seats", type=int, required=True, help="seats per match (1-4)")
    create.add_argument("--format", required=True, choices=[
        "round_robin", "swiss", "ladder", "single_elim", "double_elim", "knockout"])
    create.add_argument("--best-of", type=int, default=None,
                        help="brackets: games of a series (odd) or of a knockout table")
    create.add_argument("--seeding", choices=["ratings", "random", "standings"], default=None,
                        help="brackets: who is seed 1 (standings: of --playoff-of)")
    create.add_argument("--advance", type=int, default=None,
                        help="knockout: the top K of each table who go on")
    create.add_argument("--playoff-of", default=None, metavar="LEAGUE",
                        help="a season: this bracket starts when LEAGUE closes, with its top N")
    create.add_argument("--playoff-top", type=int, default=None, metavar="N",
                        help="with --playoff-of: how many of its final order enter")
    create.add_argument("--rounds", type=int, default=None, help="swiss: rounds (default 3)")
    create.add_argument("--seeds", type=int, default=None,
                        help="round robin: deals per table (default 1)")
    create.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a mode option (repeatable)")
    create.add_argument("--difficulty", default=None, help="solo: the sister's difficulty")
    create.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                        help="CPU seconds per decision (default 1)")
    create.add_argument("--time-bank", type=float, default=None, metavar="SECONDS",
                        help="extra seconds a bot may spend over a whole match (default 30)")
    create.add_argument("--order", choices=["elo", "conservative"], default=None,
                        help="what ranks the ladder (default elo)")
    create.add_argument("--private", action="store_true",
                        help="only invited users' bots may enter, and only they see it")
    create.set_defaults(func=run_create)

    for action, text in ACTIONS.items():
        sub = actions.add_parser(action, help=text)
        sub.add_argument("league", metavar="LEAGUE", help="the league's name or id")
        sub.set_defaults(func=run_action, verb=action)

    podium = actions.add_parser("podium", help="a closed league's champion and podium")
    podium.add_argument("league", metavar="LEAGUE", help="the league's name or id")
    podium.set_defaults(func=run_podium)

    invite = actions.add_parser("invite", help="let a user enter bots in a private league")
    invite.add_argument("league", metavar="LEAGUE", help="the league's name or id")
    invite.add_argument("user", metavar="USER", help="their username")
    invite.set_defaults(func=run_invite)

    order = actions.add_parser("order", help="what ranks the league's ladder")
    order.add_argument("league", metavar="LEAGUE", help="the league's name or id")
    order.add_argument("order", choices=["elo", "conservative"])
    order.set_defaults(func=run_order)

    for sub in actions.choices.values():
        add_server_arguments(sub)


def run_create(args: argparse.Namespace) -> int:
    client = client_from_args(args)
    body: dict[str, Any] = {
        "name": args.name, "mode": args.mode, "seats": args.seats, "format": args.format,
        "options": options_from_args(args), "public": not args.private,
    }  # fmt: skip
    optional = {"rounds": args.rounds, "seeds": args.seeds, "ladder_order": args.order,
                "decision_time_limit": args.time_limit, "time_bank": args.time_bank,
                "best_of": args.best_of, "seeding": args.seeding, "advance": args.advance,
                "playoff_top": args.playoff_top}  # fmt: skip
    if args.playoff_of is not None:
        optional["playoff_of"] = find_league(client, args.playoff_of)["id"]
    body.update({key: value for key, value in optional.items() if value is not None})
    league = client.post("leagues/", body)
    print(f"created league {league['name']} (id {league['id']}, {describe_mode(league)}, "
          f"{league['format']}, draft)")  # fmt: skip
    print(f"next: bots enter with `python -m arena enter {league['id']} BOT`, "
          f"then `python -m arena league start {league['id']}`")  # fmt: skip
    return 0


def run_action(args: argparse.Namespace) -> int:
    client = client_from_args(args)
    league = find_league(client, args.league)
    league = client.post(f"leagues/{league['id']}/{args.verb}/")
    print(f"{league['name']}: {league['status']}, round {league['current_round']}")
    if league["status"] != "draft":
        print(f"follow it: python -m arena matches --league {league['id']}; "
              f"standings: python -m arena ladder {league['id']}")  # fmt: skip
    return 0


def run_podium(args: argparse.Namespace) -> int:
    client = client_from_args(args)
    league = client.get(f"leagues/{find_league(client, args.league)['id']}/")
    if not league["podium"]:
        print(f"{league['name']}: {league['status']}, no podium yet (it is decided at the close"
              f"{', when the bracket ends' if league.get('bracket') else ''})")  # fmt: skip
        return 0
    print(f"{league['name']} ({league['format']}, {league['status']})")
    for place in league["podium"]:
        print(f"{place['place']:>2}. {place['bot_name']} v{place['version']}  {place['result']}")
    return 0


def run_invite(args: argparse.Namespace) -> int:
    client = client_from_args(args)
    league = find_league(client, args.league)
    invitation = client.post(f"leagues/{league['id']}/invitations/", {"user": args.user})
    print(f"invited {invitation['user']} to {league['name']}: they may now enter their bots "
          f"(`python -m arena enter {league['id']} BOT`)")  # fmt: skip
    return 0


def run_order(args: argparse.Namespace) -> int:
    client = client_from_args(args)
    league = find_league(client, args.league)
    league = client.patch(f"leagues/{league['id']}/", {"ladder_order": args.order})
    print(f"{league['name']}: the ladder is ordered by {league['ladder_order']}")
    return 0
