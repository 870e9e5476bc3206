"""``python -m engine <command>``: one entry point, one module per command.

Each command lives in ``engine/commands/<name>.py`` and exposes
``add_parser(subparsers)``; the parser's ``func(args) -> int`` runs it. Every
error a user can cause ends with exit code 2 and one readable line.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .errors import EngineError

# Only what needs nothing but the engine. Playing bot files and proving replays need the
# workers' sandbox and replays/: those commands live above them, in ``python -m arena``.
COMMANDS = ("bench",)
MOVED = ("play", "arena", "verify")  # to ``python -m arena``; named so old habits get a pointer


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="The Isle of Cats engine")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"engine.commands.{name}").add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in MOVED:
        print(f"error: `python -m engine {argv[0]}` is now `python -m arena {argv[0]}`",
              file=sys.stderr)  # fmt: skip
        return 2
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (EngineError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
