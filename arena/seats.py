"""Who plays a seat: a built-in bot by name or a bot file, checked before any game starts.

The one place where the authors' commands turn what was typed into the workers'
``SeatSpec``, so ``play`` and ``arena`` (and their error messages) always agree.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from engine.bots import builtin_names, is_builtin_bot
from engine.errors import ConfigError
from workers.runner import SeatSpec
from workers.sandbox.bundles import BundleError, validate_bundle


def _looks_like_a_path(name: str) -> bool:
    return os.sep in name or "/" in name or "." in os.path.basename(name)


def seat_spec(name: str) -> SeatSpec:
    """The seat for a built-in name or an existing, valid bot file; ConfigError otherwise."""
    name = name.strip()
    if is_builtin_bot(name):
        return SeatSpec(builtin=name)
    if not os.path.exists(name):
        if _looks_like_a_path(name):
            raise ConfigError(f"no such file: {name}")
        raise ConfigError(
            f"unknown bot {name!r}: built-in bots are {builtin_names()}, "
            "or give a bot file (.py, .js, .zip)"
        )
    if not os.path.isfile(name):
        raise ConfigError(f"not a file: {name} (a bot is a .py or .js file, or a .zip bundle)")
    try:
        validate_bundle(name)
    except BundleError as exc:
        raise ConfigError(f"{name}: {exc.reason}") from None
    return SeatSpec(bundle_path=name, name=name)


def seat_specs(names: Sequence[str], seats: int) -> list[SeatSpec]:
    """One seat per name, exactly as many as the game has seats."""
    if len(names) != seats:
        raise ConfigError(
            f"{len(names)} bot(s) given for {seats} player(s): "
            "name one bot per player (--bots a,b,...)"
        )
    return [seat_spec(name) for name in names]
