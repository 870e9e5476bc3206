"""Write docs/bot-protocol-examples.md: real protocol messages from real games of every mode.

    python scripts/protocol_examples.py [--out docs/bot-protocol-examples.md] [--games 40]

Plays seeded games of every mode in ``engine.available_modes()`` with built-in bots and
builds each message with the very functions the match runner sends them with
(``workers.protocol.wire``). It keeps the first ``decide`` of every *decision kind* (the name the
mode's observation gives the decision, or its phase, together with the kinds of the legal
actions), the ``start`` and ``end`` messages, a reply to each, and a ``decide`` carrying an
``observation_patch`` (for a bot that asked for ``"deltas": "json-patch"``). Re-run it when
a mode lands or changes; the output is committed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from competition.limits import Limits  # noqa: E402
from engine import Game, available_modes, mode_class, new_game  # noqa: E402
from engine.bots import make_bot  # noqa: E402
from workers.protocol.wire import (  # noqa: E402
    JSON_PATCH,
    PROTOCOL_VERSION,
    LegalEncoder,
    ObservationEncoder,
    decide_for,
    end_message,
    start_message,
)

SEATS = {"standard": 2, "family": 2, "solo": 1, "duel": 2}
SHOW_LEGAL = 4  # legal actions shown per example; the rest is summarised
PATCH_OPS = 3  # the patch example: a patch of seat 0 with at least this many operations
WIDTH = 96


def decision_kind(observation: dict[str, Any], legal: list[str]) -> str:
    """The decision's name: the observation's ``decision`` (or its ``phase``). A phase with
    placements among its choices is named ``<phase>/place``, since placing is its own decision."""
    decision = observation.get("decision")
    name = decision.get("decision") if isinstance(decision, dict) else decision
    if not isinstance(name, str):
        phase = observation.get("phase")
        name = phase if isinstance(phase, str) else "decide"
        if "place" in legal and name != "place" and not name.startswith("place"):
            name += "/place"
    return name


def pretty(value: Any, indent: int = 0) -> str:
    """JSON with short values kept on one line, so long messages stay readable."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= WIDTH or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {pretty(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + pretty(v, indent + 2) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def shortened(message: dict[str, Any]) -> dict[str, Any]:
    legal = message["legal"]
    if len(legal) <= SHOW_LEGAL + 1:
        return message
    cut = dict(message)
    cut["legal"] = [
        *legal[:SHOW_LEGAL],
        f"... {len(legal) - SHOW_LEGAL} more legal actions (cut in this document)",
    ]
    return cut


def start_shortened(message: dict[str, Any]) -> dict[str, Any]:
    """The start message with its ``game_data`` cut to a few entries of each part (bots get
    all of it: about 100 KB)."""
    data = message.get("game_data")
    if not isinstance(data, dict):
        return message
    cut = dict(data)
    cut["cards"] = [*data["cards"][:2],
                    f"... {len(data['cards']) - 2} more cards (cut in this document)"]
    for key in ("boats", "shapes"):
        names = list(data[key])
        first = dict(data[key][names[0]])
        for part, value in first.items():
            if isinstance(value, list) and len(value) > 3:
                first[part] = [*value[:3], f"... {len(value) - 3} more"]
        cut[key] = {names[0]: first, "...": f"{len(names) - 1} more: {', '.join(names[1:])}"}
    for key in ("tiles", "island", "vocabulary"):
        if key in cut:
            cut[key] = "... (cut in this document)"
    return {**message, "game_data": cut}


def collect(mode: str, games: int) -> dict[str, Any]:
    """Play games until every decision kind has an example (or ``games`` have been played)."""
    seats = SEATS.get(mode, mode_class(mode).game_type.min_seats)
    limits = Limits()
    examples: dict[str, dict[str, Any]] = {}
    first: Game | None = None
    end: dict[str, Any] | None = None
    quiet = 0
    for seed in range(games):
        game = new_game(mode, seats, seed)
        first = first or game
        encoder = LegalEncoder(game.codec)
        bots = [make_bot("greedy" if seed % 2 else "random", mode, s, seed) for s in range(seats)]
        found = False
        while not game.is_over():
            seat = game.pending()[0]
            legal = game.legal_actions(seat)
            observation = game.observation(seat)
            kinds = sorted({a.kind for a in legal})
            kind = decision_kind(observation, kinds)
            action = bots[seat].act(game, seat)
            if kind not in examples:
                line = decide_for(
                    game, seat, legal, encoder, limits.decision_seconds, limits.bank_seconds
                )
                examples[kind] = {
                    "decide": json.loads(line),
                    "index": list(legal).index(action),
                    "action": game.codec.encode(action),
                    "seed": seed,
                    "kinds": kinds,
                }
                found = True
            game.apply_unchecked(seat, action)
        if end is None:
            end = end_message(0, game.result())
        quiet = 0 if found else quiet + 1
        if quiet >= 8:
            break
    assert first is not None and end is not None
    fresh = new_game(mode, seats, 0)
    return {
        "start": start_message(fresh, 0, limits),
        "end": end,
        "examples": examples,
        "patch": patch_example(mode, seats, limits),
        "seats": seats,
    }


def patch_example(mode: str, seats: int, limits: Limits) -> dict[str, Any] | None:
    """Seed 0 played by random bots, seat 0 asking for observation patches: the first
    ``decide`` whose patch puts a tile on a boat (``.../tiles/-``), else the first with
    ``PATCH_OPS`` operations or more (None if there is none)."""
    game = new_game(mode, seats, 0)
    fallback = None
    encoder, observations = LegalEncoder(game.codec), ObservationEncoder(deltas=JSON_PATCH)
    bots = [make_bot("random", mode, s, 0) for s in range(seats)]
    while not game.is_over():
        seat = game.pending()[0]
        if seat == 0:
            line = decide_for(game, 0, game.legal_actions(0), encoder, limits.decision_seconds,
                              limits.bank_seconds, observations)  # fmt: skip
            decide = json.loads(line)
            patch = decide.get("observation_patch", ())
            if len(patch) >= PATCH_OPS:
                if any(op["path"].endswith("/tiles/-") for op in patch):
                    return decide
                fallback = fallback or decide
        game.apply_unchecked(seat, bots[seat].act(game, seat))
    return fallback


def render(collected: dict[str, dict[str, Any]]) -> str:
    out = [
        "# Bot protocol: examples from real games",
        "",
        "Generated by `python scripts/protocol_examples.py` from seeded games of every available",
        f"mode (protocol version {PROTOCOL_VERSION}), with the functions the match runner builds"
        " its messages with.",
        "Do not edit by hand: re-run the script when a mode lands or changes. One example per",
        "decision kind (the observation's `decision`, or its `phase`). Long `legal` lists are cut",
        "to their first few actions here; bots always get all of them. The reference is",
        "[bot-protocol.md](bot-protocol.md).",
        "",
        "| mode | seats | decision kinds |",
        "|---|---|---|",
    ]
    for mode, data in collected.items():
        kinds = ", ".join(f"`{k}`" for k in data["examples"])
        out.append(f"| {mode} | {data['seats']} | {kinds} |")
    for mode, data in collected.items():
        out += [
            "",
            f"## {mode}",
            "",
            "### start (to seat 0)",
            "",
            "```json",
            pretty(start_shortened(data["start"])),
            "```",
            "",
            "The bot answers:",
            "",
            "```json",
            '{"ready": true, "name": "my bot"}',
            "```",
        ]
        for kind, example in data["examples"].items():
            decide = example["decide"]
            out += [
                "",
                f"### decide: `{kind}`",
                "",
                f"Seed {example['seed']}, step {decide['step']}, seat {decide['seat']}, "
                f"{len(decide['legal'])} legal action(s) of kind {', '.join(example['kinds'])}.",
                "",
                "```json",
                pretty(shortened(decide)),
                "```",
                "",
                "Two equivalent replies (send one): the index of a legal action, or the action"
                " object itself, here with a debug note:",
                "",
                "```json",
                json.dumps({"index": example["index"]}),
                json.dumps({**example["action"], "debug": "why I chose this"}),
                "```",
            ]
        patch = data["patch"]
        if patch is not None:
            out += [
                "",
                "### decide with `observation_patch`",
                "",
                'To a bot that answered start with `{"ready": true, "deltas": "json-patch"}`'
                f" (seed 0, step {patch['step']}): the operations that turn the observation it"
                " was sent last into this one.",
                "",
                "```json",
                pretty(shortened(patch)),
                "```",
            ]
        out += ["", "### end (to seat 0)", "", "```json", pretty(data["end"]), "```"]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "bot-protocol-examples.md"))
    parser.add_argument("--games", type=int, default=40, help="most games per mode")
    args = parser.parse_args(argv)
    collected = {mode: collect(mode, args.games) for mode in available_modes()}
    Path(args.out).write_text(render(collected), encoding="utf-8")
    total = sum(len(d["examples"]) for d in collected.values())
    print(f"wrote {args.out}: {total} decision kinds in {', '.join(collected)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
