"""Tournament formats: one module per format behind one interface (`base.Format`), found by
the key `League.format` stores in `registry` (round robin, Swiss, ladder, single and double
elimination, knockout; `playoff` fills a season's bracket when the league it follows closes).

This package's own module imports only the registry, which imports nothing of the tournament:
the model reads its choices from it.
"""

from .registry import (
    bracket_keys,
    choices,
    continuous_keys,
    find,
    get,
    register,
    unregister,
)

__all__ = [
    "bracket_keys",
    "choices",
    "continuous_keys",
    "find",
    "get",
    "register",
    "unregister",
]
