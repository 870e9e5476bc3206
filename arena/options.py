"""Mode options typed on the command line (``--option KEY=VALUE``, ``--difficulty``)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from engine.errors import ConfigError


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs; a value that reads as JSON is taken as JSON (numbers, booleans)."""
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


def options_from_args(args: argparse.Namespace) -> dict[str, Any]:
    options = parse_options(args.option)
    if getattr(args, "difficulty", None) is not None:  # shorthand for --option difficulty=...
        options["difficulty"] = args.difficulty
    return options
