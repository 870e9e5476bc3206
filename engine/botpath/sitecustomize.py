"""Makes the engine importable by Python bots as ``engine``, where no bot file can shadow it.

Python bots run as ``python3 -s -B bot.py`` with this folder on ``PYTHONPATH``
(workers/sandbox/bot_process.py). The interpreter imports ``sitecustomize`` while it starts, before
the
bot's own folder is put first on ``sys.path``; this module then puts a finder first on
``sys.meta_path`` that answers for the name ``engine`` (and so for all of its submodules)
from the folder holding this engine, read-only in the sandbox. An ``engine.py`` or an
``engine/`` folder in a bot's bundle is never imported under that name.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class _EngineFinder:
    """Finds the top-level package ``engine`` in ``_ROOT`` only."""

    @staticmethod
    def find_spec(name, path=None, target=None):  # noqa: ANN001, ANN205 - the finder protocol
        if name != "engine":
            return None
        return importlib.machinery.PathFinder.find_spec(name, [_ROOT])


if not any(isinstance(f, _EngineFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, _EngineFinder())
