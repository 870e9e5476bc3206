"""The one list of formats a bot upload may take, drawn from the languages table
(workers/data/languages.json): the home page, the new-bot page, the upload box, the upload's
error message and the README all say it in these words (tests/website/test_formats.py)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from workers.sandbox import bundles


@cache
def upload_formats() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(single-file suffixes, the languages a zip may hold), from the languages table."""
    return bundles.upload_formats()


def bundle_kinds() -> tuple[str, ...]:
    """The file name endings an upload may have, without the dot: py, js, ..., zip."""
    files, _ = upload_formats()
    return (*(suffix.lstrip(".") for suffix in files), "zip")


def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def formats_sentence(code: Callable[[str], str] = str, text: Callable[[str], str] = str) -> str:
    """"a .py, .js, .mjs or .cjs file, or a .zip of Python 3.11, ... or a static Linux x86-64
    executable"; ``code`` marks up each file ending (HTML <code>, Markdown backticks) and
    ``text`` the words (HTML escaping)."""
    files, languages = upload_formats()
    return (
        f"{text('a ')}{_or([code(suffix) for suffix in files])}{text(' file, or a ')}"
        f"{code('.zip')}{text(' of ')}{text(_or(list(languages)))}"
    )
