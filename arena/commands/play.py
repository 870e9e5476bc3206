"""``python -m arena play``: play one game with bots and print the result.

    python -m arena play --mode standard --players 4 --seed 7 \\
        --bots greedy,random,random,random [--json] [--replay FILE]

Prints scores, ranks, the score breakdown and each final boat as ASCII, or with ``--json``
one JSON object (mode, seed, engine version, scores, breakdown, ranks, winners, tiebreak,
final boats, state hash). ``--replay FILE`` also writes the replay (needs the ``replays``
package). Agents are built in one place, ``build_agents``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from engine.actions import Action
from engine.boat import Boat, Tile, base_layouts, mask_of
from engine.bots import BUILTIN_BOTS, make_bot
from engine.errors import ConfigError
from engine.game import Game
from engine.modes import mode_class, new_game
from engine.play import Agent, play_game
from engine.version import ENGINE_VERSION

DEFAULT_PLAYERS = {"standard": 2, "family": 2, "solo": 1, "duel": 2}
# Bot programs: one source file (Python, JavaScript) or a zip bundle of any language.
BOT_FILE_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".zip")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("play", help="play one game with bots and print the result")
    parser.add_argument("--mode", default="standard", help="standard, family, solo or duel")
    parser.add_argument("--players", type=int, default=None,
                        help="number of players (default: 2; solo: 1)")
    parser.add_argument("--seed", type=int, default=0, help="the game seed (default 0)")
    parser.add_argument("--bots", default=None,
                        help="comma-separated bot per seat, e.g. greedy,random (default: random)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a mode option, e.g. difficulty=hard (repeatable)")
    parser.add_argument("--difficulty", default=None,
                        help="solo: easy (default), medium, hard, very_hard or expert")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--replay", metavar="FILE", help="also write the replay to FILE")
    parser.add_argument("--narrate", action="store_true",
                        help="print a sentence for every step and event as it is played")
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


def build_agents(specs: Sequence[str], mode: str, seats: int, seed: int,
                 **limits: Any) -> list[Agent]:
    """One agent per seat from its spec. Built-in names go through ``make_bot``.

    This is the single place where a spec that is a bot file (``examples/bots/x.py``, a .zip
    bundle) will be turned into a sandboxed agent (``limits``: time and memory per move).
    """
    if len(specs) != seats:
        raise ConfigError(f"{len(specs)} bot(s) given for {seats} player(s): "
                          f"name one bot per player (--bots a,b,...)")
    agents: list[Agent] = []
    for seat, spec in enumerate(specs):
        name = spec.strip()
        if name in BUILTIN_BOTS:
            agents.append(make_bot(name, mode, seat, seed))
            continue
        if name.lower().endswith(BOT_FILE_SUFFIXES) and os.path.isfile(name):
            # a bot program: the workers' sandbox, protocol and limits, as in production
            from workers.agents import ProgramAgent
            from workers.limits import Limits

            agents.append(ProgramAgent(seat, name, limits=Limits().override(**limits),
                                       name=name))
            continue
        raise ConfigError(f"unknown bot {name!r} for seat {seat}: built-in bots are "
                          f"{', '.join(BUILTIN_BOTS)}, or give a bot file (.py, .js, .zip)")
    return agents


def report_programs(agents: Sequence[Agent], result: dict[str, Any] | None) -> list[str]:
    """Send ``end`` to bot programs and describe their faults and isolation, one line each."""
    lines: list[str] = []
    programs = [a for a in agents if hasattr(a, "finish")]
    for agent in programs:
        if result is not None:
            agent.finish(result)  # type: ignore[attr-defined]
        fault = agent.fault  # type: ignore[attr-defined]
        if fault is not None:
            lines.append(f"fault: {fault.describe()} ({fault.seconds:.3f} s)")
            lines += [f"  | {line}" for line in fault.stderr[-10:]]
    if programs:
        from workers.sandbox import detect_isolation

        lines += [f"warning: {w}" for w in detect_isolation().warnings()]
    return lines


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise ConfigError(f"an option is KEY=VALUE, not {pair!r}")
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out


def run(args: argparse.Namespace) -> int:
    mode = args.mode
    mode_class(mode)  # a readable error for an unknown or unbuilt mode
    players = args.players if args.players is not None else DEFAULT_PLAYERS.get(mode, 2)
    specs = args.bots.split(",") if args.bots else ["random"] * players
    write_replay = None
    if args.replay:
        try:
            from replays.format import write_replay
        except ImportError as exc:
            print(f"error: --replay needs the replays package ({exc})", file=sys.stderr)
            return 2
    options = _options(args.option)
    if args.difficulty is not None:  # shorthand for --option difficulty=... (solo)
        options["difficulty"] = args.difficulty
    game = new_game(mode, players, args.seed, options)
    agents = build_agents(specs, mode, players, args.seed, **limits_from_args(args))
    steps: list[dict[str, Any]] = []

    narrate = _narrator(game, specs) if getattr(args, "narrate", False) else None

    def record(g: Game, seat: int, action: Action, seconds: float) -> None:
        if write_replay is not None:
            steps.append({"seat": seat, "action": g.encode_action(action), "seconds": seconds,
                          "note": getattr(agents[seat], "last_note", None)})
        if narrate is not None:
            narrate(g, seat, action)

    started = time.perf_counter()
    notes: list[str] = []
    try:
        play_game(game, agents, on_step=record if write_replay or narrate else None)
        notes = report_programs(agents, game.result())
    finally:
        for agent in agents:
            agent.close()
    elapsed = time.perf_counter() - started
    for line in notes:
        print(line, file=sys.stderr)
    result = game.result()
    if write_replay is not None:
        players_header = [{"seat": s, "bot": spec, "version": None, "sha256": None}
                          for s, spec in enumerate(specs)]
        write_replay(args.replay, game, steps, {"players": players_header})
    if args.json:
        print(json.dumps(summary(result, specs), sort_keys=True))
    else:
        print(readable(result, specs, elapsed))
    return 0


def _narrator(game: Game, specs: Sequence[str]) -> Any:
    """A step hook printing what happened in words (engine.narration), the set-up first."""
    from engine.narration import Narrator

    narrator = Narrator(game, [f"{spec} (seat {s})" for s, spec in enumerate(specs)])
    state = {"seen": 0, "before": game.spectator_view()}

    def tell(events: Sequence[dict[str, Any]], kind: str | None) -> None:
        for event in events:
            line = narrator.event(event, kind)
            if line:
                print(f"  {line}")

    tell(game.events, None)
    state["seen"] = len(game.events)

    def hook(g: Game, seat: int, action: Action) -> None:
        encoded = g.encode_action(action)
        new = g.events[state["seen"]:]
        state["seen"] = len(g.events)
        print(f"{len(g.history)}. {narrator.step(seat, encoded, new, state['before'])}")
        tell(new, encoded.get("kind"))
        state["before"] = g.spectator_view() if g.mode == "duel" else {}

    return hook


def summary(result: dict[str, Any], specs: Sequence[str]) -> dict[str, Any]:
    keys = ("mode", "seats", "seed", "scores", "breakdown", "ranks", "winners", "tiebreak",
            "sister", "margin", "won", "difficulty", "boats", "state_hash")
    out = {k: result[k] for k in keys if k in result}
    out["engine_version"] = result.get("engine_version", ENGINE_VERSION)
    out["bots"] = list(specs)
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


def readable(result: dict[str, Any], specs: Sequence[str], seconds: float) -> str:
    lines = [f"The Isle of Cats: {result['mode']}, {result['seats']} player(s), "
             f"seed {result['seed']} (engine {result.get('engine_version', ENGINE_VERSION)}, "
             f"{seconds:.2f} s)", ""]
    tiebreak = result.get("tiebreak") or {}
    tb_name = tiebreak.get("name", "")
    lines.append(f"{'seat':<5}{'bot':<10}{'score':>6}{'rank':>6}" + (f"{tb_name:>8}"
                                                                      if tb_name else ""))
    for seat, spec in enumerate(specs):
        row = f"{seat:<5}{spec:<10}{result['scores'][seat]:>6}{result['ranks'][seat]:>6}"
        if tb_name:
            row += f"{tiebreak['values'][seat]:>8}"
        lines.append(row)
    breakdown = result.get("breakdown") or []
    columns: list[str] = []
    for sheet in breakdown:
        for key, value in sheet.items():
            if isinstance(value, int) and not isinstance(value, bool) and key not in columns:
                columns.append(key)
    if columns:
        widths = [max(len(c), 5) + 2 for c in columns]
        lines += ["", f"{'seat':<5}" + "".join(f"{c:>{w}}" for c, w in zip(columns, widths,
                                                                            strict=True))]
        for seat, sheet in enumerate(breakdown):
            lines.append(f"{seat:<5}" + "".join(f"{sheet.get(c, ''):>{w}}"
                                                for c, w in zip(columns, widths, strict=True)))
    for seat, boat in enumerate(result.get("boats") or []):
        picture = _boat_picture(boat)
        lines += ["", f"seat {seat} ({specs[seat]}): {boat.get('boat')} boat, "
                      f"{len(boat.get('tiles', []))} tiles"]
        if picture:
            lines.append(picture)
    sister = result.get("sister")
    if sister is not None:  # solo: the sister's score and the margin
        colours = ", ".join(f"{c['colour']} {c['count']}x{c['points_each']}"
                            for c in sister["breakdown"]["colours"])
        lessons = ", ".join(f"{le['card']}: {le['points']}"
                            for le in sister["breakdown"]["lessons"])
        lines += ["", f"sister ({result.get('difficulty')}): {sister['total']} "
                      f"(colours {colours}; lessons {lessons})",
                  f"margin: {result['margin']:+d} ({'won' if result['won'] else 'lost'})"]
    winners = ", ".join(f"seat {w} ({specs[w]})" for w in result.get("winners", []))
    lines += ["", f"winner(s): {winners or 'none'}", f"state hash: {result['state_hash']}"]
    return "\n".join(lines)
