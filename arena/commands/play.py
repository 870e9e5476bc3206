"""``python -m arena play``: play one game with bots and print the result.

    python -m arena play --mode standard --players 4 --seed 7 \\
        --bots greedy,mybot.py,random,random [--json] [--strict] [--verbose] [--replay FILE]

The game runs through the workers' match runner, so bot files (``.py`` or ``.zip`` bundles)
play in the sandbox under the tournament's limits, exactly as on a server. Prints scores,
ranks, the score breakdown and each final boat as ASCII, or with ``--json`` one JSON object
(mode, seed, engine version, scores, breakdown, ranks, winners, tiebreak, final boats, state
hash, and the bots' faults). A fault is also printed on stderr with the bot's whole kept
stderr log; ``--verbose`` shows the bots' stderr as they play and, for every decision, its
time, the CPU time charged, the time bank left and the bot's ``debug`` note; ``--strict``
exits 1 when any seat faulted. ``--replay FILE`` writes the replay; ``--watch`` then opens it
in the replay viewer, served from this computer (``arena.watch``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from competition.faults import Fault, when_faulted
from competition.limits import Limits
from engine.actions import Action
from engine.boat import Boat, Tile, base_layouts, mask_of
from engine.bots import builtin_names
from engine.game import Game
from engine.modes import mode_class, new_game
from engine.narration import Narrator
from engine.version import ENGINE_VERSION
from workers.runner import MatchOutcome, MatchSpec, run_match

from ..errors import CliError
from ..options import options_from_args
from ..seats import seat_specs
from ..stderr_echo import StderrEcho
from ..watch import LocalReplay, watch

DEFAULT_PLAYERS = {"standard": 2, "family": 2, "solo": 1, "duel": 2}
# Bot programs: one source file (Python, JavaScript) or a zip bundle of any language.
BOT_FILE_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".zip")
EXIT_FAULTED = 1  # --strict: the game was played, but a seat faulted


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("play", help="play one game with bots and print the result")
    parser.add_argument("--mode", default="standard", help="standard, family, solo or duel")
    parser.add_argument("--players", type=int, default=None,
                        help="number of players (default: 2; solo: 1)")
    parser.add_argument("--seed", type=int, default=0, help="the game seed (default 0)")
    parser.add_argument("--bots", default=None,
                        help="comma-separated bot per seat, each a built-in bot, one of "
                             f"{builtin_names()}, or a bot file (.py, .js, .zip of any "
                             "language); default: random")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a mode option, e.g. difficulty=hard (repeatable)")
    parser.add_argument("--difficulty", default=None,
                        help="solo: easy (default), medium, hard, very_hard or expert")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--strict", action="store_true",
                        help=f"exit {EXIT_FAULTED} when any seat faulted")
    parser.add_argument("--verbose", action="store_true",
                        help="show the bot programs' stderr as they play, and each decision's "
                             "time, time bank and debug note")
    parser.add_argument("--replay", metavar="FILE", help="also write the replay to FILE")
    parser.add_argument("--narrate", action="store_true",
                        help="print a sentence for every step and event as it is played")
    parser.add_argument("--watch", action="store_true",
                        help="then open the game in the replay viewer, served on 127.0.0.1")
    parser.add_argument("--no-browser", action="store_true",
                        help="with --watch: print the viewer's address, do not open a browser")
    add_limit_arguments(parser)
    parser.set_defaults(func=run)


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags for the limits of bot programs (the workers' defaults unless given)."""
    parser.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                        help="seconds per decision for bot programs (default 1)")
    parser.add_argument("--time-bank", type=float, default=None, metavar="SECONDS",
                        help="extra seconds per match a late bot program may draw (default 30)")
    parser.add_argument("--memory-mb", type=int, default=None, metavar="MB",
                        help="memory limit of a bot program (default 512)")


def limits_from_args(args: argparse.Namespace) -> dict[str, Any]:
    return {"decision_seconds": args.time_limit, "bank_seconds": args.time_bank,
            "memory_mb": args.memory_mb}


def match_spec_from_args(args: argparse.Namespace, *, replay: bool) -> tuple[MatchSpec, list[str]]:
    """The runner's spec for the command line (every mistake a ConfigError), and the bot names."""
    mode = args.mode
    mode_class(mode)  # a readable error for an unknown or unbuilt mode
    players = args.players if args.players is not None else DEFAULT_PLAYERS.get(mode, 2)
    names = [b.strip() for b in args.bots.split(",")] if args.bots else ["random"] * players
    seats = seat_specs(names, players)
    limits = Limits().override(**limits_from_args(args))
    spec = MatchSpec(mode=mode, seats=tuple(seats), seed=args.seed,
                     options=options_from_args(args), limits=limits, replay=replay)
    return spec, names


def run(args: argparse.Namespace) -> int:
    if getattr(args, "no_browser", False) and not getattr(args, "watch", False):
        raise CliError("--no-browser applies only to --watch (it prints the viewer's address)")
    want_replay = bool(args.replay or args.watch)
    spec, names = match_spec_from_args(args, replay=want_replay)
    echo = StderrEcho(names) if args.verbose else None
    narrate = _narrator(spec, names) if getattr(args, "narrate", False) else None
    try:
        outcome = run_match(spec, stderr_sink=echo, on_step=narrate,
                            on_decision=echo.decision if echo is not None else None)
    finally:
        if echo is not None:
            echo.flush()
    if args.replay and outcome.replay is not None:
        with open(args.replay, "wb") as out:
            out.write(outcome.replay)
    if args.json:
        print(json.dumps(summary(outcome.result, names, outcome), sort_keys=True))
    else:
        print(readable(outcome.result, names, outcome.duration))
    sys.stdout.flush()  # the result first; then the faults, each on lines of their own
    for line in fault_lines(outcome.faults, names) + [f"warning: {w}" for w in outcome.warnings]:
        print(line, file=sys.stderr)
    sys.stderr.flush()
    if args.watch and outcome.replay is not None:
        title = f"{spec.mode}, seed {spec.seed}: " + " vs ".join(os.path.basename(n) for n in names)
        filename = os.path.basename(args.replay) if args.replay else "game.replay"
        watch(LocalReplay(outcome.replay, title, filename), open_browser=not args.no_browser,
              out=sys.stderr if args.json else sys.stdout)  # fmt: skip
    return EXIT_FAULTED if args.strict and outcome.faults else 0


def _narrator(spec: MatchSpec, names: Sequence[str]) -> Any:
    """A step hook printing what happened in words (engine.narration), the set-up first.

    The runner makes its game itself; the same configuration gives the same set-up, so a
    twin made here tells the set-up and the view before the first step."""
    twin = new_game(spec.mode, len(spec.seats), spec.seed, dict(spec.options))
    narrator = Narrator(twin, [f"{name} (seat {s})" for s, name in enumerate(names)])
    state: dict[str, Any] = {"seen": len(twin.events), "before": twin.spectator_view()}

    def tell(events: Sequence[dict[str, Any]], kind: str | None) -> None:
        for event in events:
            line = narrator.event(event, kind)
            if line:
                print(f"  {line}", flush=True)

    tell(twin.events, None)

    def hook(g: Game, seat: int, action: Action, _seconds: float) -> None:
        encoded = g.encode_action(action)
        new = g.events[state["seen"]:]
        state["seen"] = len(g.events)
        print(f"{len(g.history)}. {narrator.step(seat, encoded, new, state['before'])}",
              flush=True)  # fmt: skip
        tell(new, encoded.get("kind"))
        state["before"] = g.spectator_view() if g.mode == "duel" else {}

    return hook


def fault_json(fault: Fault, names: Sequence[str]) -> dict[str, Any]:
    """A fault as scripts see it: who, what, when, and the bot's kept stderr log."""
    return {"seat": fault.seat, "bot": names[fault.seat], "kind": fault.kind.value,
            "detail": fault.message, "step": bot_step(fault), "decision": fault.decision,
            "when": when_faulted(fault.decision), "seconds": round(fault.seconds, 6),
            "stderr_tail": list(fault.stderr)}  # fmt: skip


def bot_step(fault: Fault) -> int | None:
    """The fault's step in the bot's own terms: the ``decide.step`` of the decision it faulted
    at (0 at its first; None at startup), never the game's action count, which counts the
    other seats' moves too."""
    return None if fault.decision is None else fault.decision - 1


def fault_lines(faults: Sequence[Fault], names: Sequence[str]) -> list[str]:
    """Each fault as one line, then the bot's whole kept stderr log (the sandbox keeps its
    last 50 lines, at most 8 KiB), indented."""
    lines: list[str] = []
    for fault in faults:
        detail = " ".join(fault.message.split())  # never a line break inside the line
        lines.append(f"fault: seat {fault.seat} ({names[fault.seat]}): {fault.kind.value} "
                     f"{when_faulted(fault.decision)}: {detail} ({fault.seconds:.3f} s); "
                     f"ranked below every seat that did not fault")
        lines += [f"  | {line}" for line in fault.stderr]
    return lines


def summary(
    result: dict[str, Any], specs: Sequence[str], outcome: MatchOutcome | None = None
) -> dict[str, Any]:
    keys = ("mode", "seats", "seed", "scores", "breakdown", "ranks", "winners", "tiebreak",
            "sister", "margin", "won", "difficulty", "boats", "state_hash", "faulted",
            "board_ranks")
    out = {k: result[k] for k in keys if k in result}
    out["engine_version"] = result.get("engine_version", ENGINE_VERSION)
    out["bots"] = list(specs)
    if outcome is not None:
        out["faults"] = [fault_json(f, specs) for f in outcome.faults]
        out["warnings"] = list(outcome.warnings)
    return out


def _boat_picture(boat: dict[str, Any]) -> str | None:
    """The ASCII picture of a final boat of the base game (None for other boats)."""
    layout = base_layouts().get(boat.get("boat", ""))
    if layout is None:
        return None
    b = Boat(layout)
    for t in boat.get("tiles", []):
        b.place(Tile(t["kind"], t.get("colour"), t.get("shape", ""), mask_of(t["cells"]),
                     t.get("id", -1)))
    return str(b)


def _score_table(result: dict[str, Any], specs: Sequence[str]) -> list[str]:
    """Seat, bot, score and rank, and the tiebreak's value when the mode has one."""
    tiebreak = result.get("tiebreak") or {}
    tb_name = tiebreak.get("name", "")
    bot_w = max(10, *(len(s) + 2 for s in specs))
    tb_w = max(8, len(tb_name) + 2)  # a long tiebreak name never runs into "rank"
    lines = [f"{'seat':<5}{'bot':<{bot_w}}{'score':>6}{'rank':>6}"
             + (f"{tb_name:>{tb_w}}" if tb_name else "")]
    for seat, spec in enumerate(specs):
        row = (f"{seat:<5}{spec:<{bot_w}}{result['scores'][seat]:>6}"
               f"{result['ranks'][seat]:>6}")
        if tb_name:
            row += f"{tiebreak['values'][seat]:>{tb_w}}"
        if seat in (result.get("faulted") or ()):
            row += "  faulted: ranked last, its board score kept"
        lines.append(row)
    return lines


def _breakdown_columns(breakdown: Sequence[dict[str, Any]]) -> list[str]:
    """The whole-number entries of the score sheets, in the order they first appear (the
    sheets also hold flags and texts, which are not points)."""
    columns: list[str] = []
    for sheet in breakdown:
        for key, value in sheet.items():
            if isinstance(value, int) and not isinstance(value, bool) and key not in columns:
                columns.append(key)
    return columns


def _breakdown_table(breakdown: Sequence[dict[str, Any]]) -> list[str]:
    columns = _breakdown_columns(breakdown)
    if not columns:
        return []
    widths = [max(len(c), 5) + 2 for c in columns]
    lines = ["", f"{'seat':<5}" + "".join(f"{c:>{w}}" for c, w in zip(columns, widths,
                                                                     strict=True))]
    for seat, sheet in enumerate(breakdown):
        lines.append(f"{seat:<5}" + "".join(f"{sheet.get(c, ''):>{w}}"
                                            for c, w in zip(columns, widths, strict=True)))
    return lines


def _boat_lines(result: dict[str, Any], specs: Sequence[str]) -> list[str]:
    lines: list[str] = []
    for seat, boat in enumerate(result.get("boats") or []):
        picture = _boat_picture(boat)
        lines += ["", f"seat {seat} ({specs[seat]}): {boat.get('boat')} boat, "
                      f"{len(boat.get('tiles', []))} tiles"]
        if picture:
            lines.append(picture)
    return lines


def _sister_lines(result: dict[str, Any]) -> list[str]:
    """Solo: the sister's score and the margin (nothing in other modes)."""
    sister = result.get("sister")
    if sister is None:
        return []
    colours = ", ".join(f"{c['colour']} {c['count']}x{c['points_each']}"
                        for c in sister["breakdown"]["colours"])
    lessons = ", ".join(f"{le['card']}: {le['points']}"
                        for le in sister["breakdown"]["lessons"])
    return ["", f"sister ({result.get('difficulty')}): {sister['total']} "
                f"(colours {colours}; lessons {lessons})",
            f"margin: {result['margin']:+d} ({'won' if result['won'] else 'lost'})"]


def readable(result: dict[str, Any], specs: Sequence[str], seconds: float) -> str:
    lines = [f"The Isle of Cats: {result['mode']}, {result['seats']} player(s), "
             f"seed {result['seed']} (engine {result.get('engine_version', ENGINE_VERSION)}, "
             f"{seconds:.2f} s)", ""]
    lines += _score_table(result, specs)
    lines += _breakdown_table(result.get("breakdown") or [])
    lines += _boat_lines(result, specs)
    lines += _sister_lines(result)
    winners = ", ".join(f"seat {w} ({specs[w]})" for w in result.get("winners", []))
    lines += ["", f"winner(s): {winners or 'none'}", f"state hash: {result['state_hash']}"]
    return "\n".join(lines)
