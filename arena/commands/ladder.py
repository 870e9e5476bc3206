"""``python -m arena ladder LEAGUE``: a league's standings, as its page shows them.

Two seats: wins, draws, losses. Three or four: the mean finishing place. Solo: wins against
the sister and the mean margin over her. Always Elo, the conservative OpenSkill rating and the
mean score, and the faults: the rated matches an entrant faulted in (``suspended`` when its
version is suspended for faulting); ``*`` marks a provisional entrant (too few games for a
settled rating).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..client import add_server_arguments, client_from_args
from ..lookups import find_league
from .leagues import describe_mode


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("ladder", help="a league's standings")
    parser.add_argument("league", metavar="LEAGUE", help="the league's name or id")
    parser.add_argument("--order", choices=["elo", "conservative"], default=None,
                        help="what ranks it (default: the league's own choice)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the server's JSON")
    add_server_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    client = client_from_args(args, login_required=False)
    league = find_league(client, args.league)
    rows = client.pages(f"leagues/{league['id']}/ladder/", order=args.order)
    if args.json:
        print(json.dumps({"league": league, "ladder": rows}, sort_keys=True))
        return 0
    print(ladder_text(league, rows, args.order or league["ladder_order"]))
    return 0


def ladder_text(league: dict[str, Any], rows: list[dict[str, Any]], order: str) -> str:
    head = (f"{league['name']} ({describe_mode(league)}, {league['format']}, "
            f"{league['status']}): ordered by {order}")  # fmt: skip
    if not rows:
        return head + "\nno entrants yet"
    solo, multi = league["mode"] == "solo", league["seats"] >= 3
    names = [f"{r['bot']} v{r['version']}" + ("*" if r.get("provisional") else "") for r in rows]
    width = max(12, *(len(name) for name in names))
    columns = f"{'#':>3}  {'bot':<{width}}  {'elo':>6}  {'cons.':>6}  {'games':>5}  "
    columns += f"{'mean rank':>9}" if multi else f"{'W-D-L':>8}"
    columns += f"  {'mean score':>10}" + (f"  {'margin':>7}" if solo else "")
    columns += f"  {'faults':>6}"
    lines = [head, columns]
    for r, name in zip(rows, names, strict=True):
        line = (f"{r['rank']:>3}  {name:<{width}}  {r['elo']:>6.1f}  {r['conservative']:>6.1f}  "
                f"{r['games']:>5}  ")  # fmt: skip
        if multi:
            line += f"{_number(r.get('mean_rank'), 2):>9}"
        else:
            line += f"{'{}-{}-{}'.format(r['wins'], r['draws'], r['losses']):>8}"
        line += f"  {_number(r.get('mean_score'), 1):>10}"
        if solo:
            line += f"  {_number(r.get('mean_margin'), 1, signed=True):>7}"
        line += f"  {r.get('faults', 0):>6}" + ("  suspended" if r.get("suspended") else "")
        lines.append(line)
    if any(r.get("provisional") for r in rows):
        lines.append("* provisional: too few games for a settled rating")
    if any(r.get("faults") for r in rows):
        lines.append("faults: rated matches it faulted in (a faulted seat ranks last)")
    return "\n".join(lines)


def _number(value: float | None, digits: int, *, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"
