"""The formats the arena ships with, from the key `League.format` stores to the format. They
are registered at start-up (`tournament/wiring.py`), in the order of the model's choices."""

from __future__ import annotations

from . import registry
from .base import Format
from .double_elimination import DoubleElimination
from .knockout import Knockout
from .ladder import Ladder
from .round_robin import RoundRobin
from .single_elimination import SingleElimination
from .swiss import Swiss

BUILTIN_FORMATS: dict[str, Format] = {
    "ladder": Ladder(),
    "round_robin": RoundRobin(),
    "swiss": Swiss(),
    "single_elim": SingleElimination(),
    "double_elim": DoubleElimination(),
    "knockout": Knockout(),
}


def register_builtin_formats() -> None:
    """Register each built-in format not registered yet (so calling it again is harmless)."""
    for key, fmt in BUILTIN_FORMATS.items():
        assert fmt.key == key, f"{type(fmt).__name__} is registered under {key!r}"
        if registry.find(key) is None:
            registry.register(fmt)
