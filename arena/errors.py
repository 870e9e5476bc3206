"""The one error the CLI's commands raise for the user: a message and its exit code."""

from __future__ import annotations


class CliError(Exception):
    """A readable one-line failure; `exit_code` is what the process exits with."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code
