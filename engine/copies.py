"""Shallow copies of instances whose attributes stay quick to read: the clones of a search.

CPython 3.11 keeps a new instance's attributes as "inline values", which its specialised
``LOAD_ATTR`` and ``LOAD_METHOD`` read directly. Reading ``obj.__dict__`` gives the instance
a dict instead, and 3.11 reads a dict-backed instance slowly: its ``LOAD_ATTR_WITH_HINT``
misses on every *split* dict (what ``obj.__dict__`` makes of inline values, and what
``copy.copy`` or ``object.__new__`` + ``__dict__.update`` give a copy), and no ``LOAD_METHOD``
specialisation takes an instance with a dict, so every method call on it is looked up the
generic way. A copy made by setting its attributes one by one keeps inline values, and is
read as quickly as an instance made by ``__init__``. The game's clones are made so (the
standard and Duel games, their state, players, boats, fields, supply and frames): a random
playout reads their attributes and calls their methods tens of thousands of times, and a
clone costs microseconds (docs/performance.md, "Clones and CPython 3.11's inline values").
The source's own dict is read (``obj.__dict__``), so it is the source, usually the root of a
search, that pays.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")

_new = object.__new__
_set = object.__setattr__  # also for frozen dataclasses, whose own ``__setattr__`` refuses


def twin_of(obj: T, *, copy_lists: bool = False) -> T:
    """A new instance of ``obj``'s class holding the same attribute values, shared (lists
    copied, one level deep, with ``copy_lists``), kept as inline values. Not for frozen
    classes: ``setattr`` (twice as quick as ``object.__setattr__``) goes through the class's
    own ``__setattr__``."""
    twin = _new(type(obj))
    if copy_lists:
        for name, value in obj.__dict__.items():
            setattr(twin, name, value[:] if type(value) is list else value)
    else:
        for name, value in obj.__dict__.items():
            setattr(twin, name, value)
    return twin


def with_fields(cls: type[T], **fields: Any) -> T:
    """A new instance of ``cls`` with these attributes, without ``__init__``: the frozen
    tiles a playout places (a frozen dataclass's ``__init__`` sets each field through a call
    of ``object.__setattr__``, twice the cost). The keyword dict becomes its ``__dict__``: a
    combined dict, read as quickly as inline values."""
    obj = _new(cls)
    _set(obj, "__dict__", fields)
    return obj
