"""The built-in bots' names: which names are built-in bots, and what a search bot's says.

``random`` and ``greedy`` name themselves; ``search-<seconds>s`` (0 < seconds <= 60) is the
search bot with that much CPU time per decision. Kept apart from the bots themselves so that
checking a name (the site, the runner, the search bot's own factory) loads none of them.
"""

from __future__ import annotations

# The names registered as the site's built-in bots; any ``search-<seconds>s`` (0 < seconds
# <= 60) is a built-in bot too (``is_builtin_bot``).
BUILTIN_BOTS = ("random", "greedy", "search-0.05s", "search-0.25s", "search-1s")


def parse_budget(name: str) -> float | None:
    """The seconds of ``search-<seconds>s`` (``search`` alone: 0.25), or None."""
    if name == "search":
        return 0.25
    if not name.startswith("search-") or not name.endswith("s"):
        return None
    try:
        seconds = float(name[len("search-"):-1])
    except ValueError:
        return None
    return seconds if 0 < seconds <= 60 else None


def is_builtin_bot(name: object) -> bool:
    """Whether ``name`` names a built-in bot: one of BUILTIN_BOTS or ``search-<seconds>s``."""
    if not isinstance(name, str):
        return False
    return name in BUILTIN_BOTS or parse_budget(name) is not None


def builtin_names() -> str:
    """The built-in bots for an error message."""
    return ", ".join(BUILTIN_BOTS) + " (or search-<seconds>s)"
