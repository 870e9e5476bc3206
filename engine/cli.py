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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="The Isle of Cats engine")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"engine.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"engine.commands.{name}":
                continue  # not built yet
            raise
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (EngineError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
