"""``python -m arena <command>``: one entry point, one module per command.

Each command lives in ``arena/commands/<name>.py`` and exposes ``add_parser(subparsers)``; the
parser's ``func(args) -> int`` runs it. Every error a user can cause ends with a non-zero exit
code and one readable line on stderr, never a traceback:

* 0 done; 1 the bot or the game failed (``play --strict`` with a fault, ``submit`` whose
  validation failed, a ``replay``/``verify`` mismatch, a challenge that failed, a test game
  that failed or whose tested version faulted);
* 2 a mistake in the command line or its files (unknown bot, no such file, bad option);
* 3 the server refused (its one-line message is shown; 429 says when to try again);
* 4 the server cannot be reached or failed (5xx); 5 still not done after ``--timeout``;
* 130 interrupted.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from engine.errors import EngineError

from .errors import CliError

# The order of the help text: local tools first, then the server's commands.
COMMANDS = (
    "play", "arena", "verify", "analyse",
    "login", "bots", "create", "submit", "test", "logs", "challenge", "matches", "replay",
    "leagues", "ladder", "enter", "league",
)  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    invoked = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    parser = argparse.ArgumentParser(
        prog="isle-arena" if invoked.startswith("isle-arena") else "python -m arena",
        description="Isle Arena: tools for bot authors and league organisers",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"arena.commands.{name}").add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except CliError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except (EngineError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
