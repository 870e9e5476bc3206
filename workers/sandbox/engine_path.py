"""Where Python bots find the engine: its folder, mounted read-only in the jail, and the
``PYTHONPATH`` entry whose ``sitecustomize`` makes ``import engine`` load it from there
whatever files a bot's bundle holds (engine/botpath/sitecustomize.py)."""

from __future__ import annotations

from pathlib import Path

import engine

ENGINE_DIR = str(Path(engine.__file__).resolve().parent)
BOT_PYTHONPATH = str(Path(ENGINE_DIR) / "botpath")


def is_python(language: str) -> bool:
    """Whether bots of ``language`` are Python programs (python3, and variants of it)."""
    return language.startswith("python")
