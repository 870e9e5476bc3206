"""Where ``python -m arena login`` keeps the server address and the API token.

One small JSON file, ``$XDG_CONFIG_HOME/isle-arena/config.json`` (``~/.config/isle-arena/``
when the variable is unset), readable by its owner only, because the token is as good as the
password. ``ISLE_ARENA_SERVER`` and ``ISLE_ARENA_TOKEN`` override it (for CI).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from .errors import CliError


@dataclass
class Credentials:
    server: str = ""
    token: str = ""
    username: str = ""


def config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "isle-arena" / "config.json"


def load() -> Credentials:
    """The stored credentials (empty when nobody logged in), then the environment's."""
    path = config_path()
    data: dict[str, str] = {}
    if path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            message = f"cannot read {path}: {exc}; run `python -m arena login` again"
            raise CliError(message) from None
    creds = Credentials(**{k: str(v) for k, v in data.items() if k in Credentials.__annotations__})
    creds.server = os.environ.get("ISLE_ARENA_SERVER") or creds.server
    creds.token = os.environ.get("ISLE_ARENA_TOKEN") or creds.token
    return creds


def save(creds: Credentials) -> Path:
    """Write the file with mode 0600 from the start (never briefly readable by others)."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(asdict(creds), out, indent=2)
        out.write("\n")
    os.replace(tmp, path)
    return path
