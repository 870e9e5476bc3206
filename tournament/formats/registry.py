"""The registry of tournament formats: the format's key (the value `League.format` stores) to
its implementation (`formats/base.py`).

It imports nothing of the tournament, so the model (its field's choices), the selectors and
the services all ask it, whatever layer they sit in; the formats themselves, which call the
services, are put in at start-up (`formats/builtin.py`, from `tournament/wiring.py`) or by
`register` for a new one.
"""

from __future__ import annotations

from typing import Any

# key -> a `formats.base.Format`. Not imported, even for its type: the base imports the models,
# which read their choices here.
FORMATS: dict[str, Any] = {}


def register(fmt: Any) -> Any:
    """Add a format; its key must be new (unregister first to replace one)."""
    if fmt.key in FORMATS:
        raise ValueError(f"a format {fmt.key!r} is already registered")
    if len(fmt.key) > 16:
        raise ValueError(f"a format's key is at most 16 characters: {fmt.key!r}")
    FORMATS[fmt.key] = fmt
    return fmt


def unregister(key: str) -> Any:
    return FORMATS.pop(key)


def find(key: str | None) -> Any | None:
    """The format of `key`, or None for one not registered (a request's unchecked value)."""
    return FORMATS.get(key or "")


def get(key: str) -> Any:
    """The format of `key` (a stored league's): a KeyError for one not registered."""
    try:
        return FORMATS[key]
    except KeyError:
        raise KeyError(f"no format {key!r} is registered ({', '.join(FORMATS)})") from None


def choices() -> list[tuple[str, str]]:
    """(key, label) of every format, in the order they were registered: the model field's and
    the API's choices."""
    return [(key, fmt.label) for key, fmt in FORMATS.items()]


def continuous_keys() -> list[str]:
    """The formats that run on without an end and take entries while running (a ladder)."""
    return [key for key, fmt in FORMATS.items() if fmt.continuous]


def bracket_keys() -> list[str]:
    """The formats that keep a bracket (elimination, knockout)."""
    return [key for key, fmt in FORMATS.items() if fmt.has_bracket]
