"""Domain errors raised by services, each with a stable code and message constants.

The API maps them to HTTP responses in one place (`tournament/api/exceptions.py`); services never
raise DRF errors. `fields` names the input fields at fault, when there are any.
"""

from __future__ import annotations


class ArenaError(Exception):
    """Base of every domain error. `status` is the HTTP status the API answers with."""

    code = "error"
    status = 400

    def __init__(self, message: str, *, fields: dict[str, list[str]] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.fields = fields or {}


class ValidationFailed(ArenaError):
    code = "invalid"
    status = 400


class Faults:
    """The faults of a request's fields, gathered so that one error names every one of them:
    a plain message each, and a short detail under each field at fault."""

    def __init__(self) -> None:
        self.messages: list[str] = []
        self.fields: dict[str, list[str]] = {}

    def add(self, field: str, message: str, detail: str | None = None) -> None:
        self.messages.append(message)
        self.fields.setdefault(field, []).append(message if detail is None else detail)

    def __bool__(self) -> bool:
        return bool(self.messages)

    def error(self) -> ValidationFailed:
        return ValidationFailed(" ".join(self.messages), fields=self.fields)


class PermissionDenied(ArenaError):
    code = "permission_denied"
    status = 403

    NOT_OWNER = "Only the owner of this bot can do that."
    NOT_ORGANISER = "Only organisers can create leagues."
    NOT_LEAGUE_ORGANISER = "Only the organiser of this league can do that."
    NOT_INVITED = "This league is private: only invited users can enter it."
    SYSTEM_BOT = "Built-in bots cannot be changed."


class NotFound(ArenaError):
    code = "not_found"
    status = 404


class Conflict(ArenaError):
    code = "conflict"
    status = 409

    BOT_NAME_TAKEN = "A bot with this name already exists."
    LEAGUE_NAME_TAKEN = "A league with this name already exists."
    BOT_RETIRED = "This bot is retired."
    VERSION_NOT_READY = "This bot version has not passed validation."
    NO_READY_VERSION = "This bot has no ready version."
    ALREADY_ENTERED = "This bot version is already entered in the league."
    ALREADY_INVITED = "This user is already invited to the league."
    LEAGUE_NOT_DRAFT = "Entries and start are only possible while the league is a draft."
    LEAGUE_NOT_OPEN = "This league does not accept entries any more."
    PLAYOFF_FILLED = (
        "This playoff is filled by {source}: when that league closes its top entrants enter "
        "and the playoff starts by itself."
    )
    NO_WITHDRAWALS = "A bracket's entrants play until they are knocked out: none is withdrawn."
    LEAGUE_NOT_RUNNING = "This league is not running."
    LEAGUE_CLOSED = "This league is closed."
    TOO_FEW_ENTRANTS = "The league needs more entrants to start."
    VERSION_SUSPENDED = (
        "This bot version is suspended after faulting in rated matches in a row; its author"
        " can resume it, or upload a new version and enter that one instead."
    )
    NOT_SUSPENDED = "This bot version is not suspended."


class BundleRejected(ArenaError):
    code = "bundle_rejected"
    status = 400

    TOO_LARGE = "The file is too large: the limit is {limit}."
    EMPTY = "The file is empty."
    BAD_EXTENSION = "A bundle is {formats}."

    @classmethod
    def too_large(cls, limit: int) -> BundleRejected:
        """The refusal of a bundle over ``limit`` bytes, the limit in words ("32 MiB"): 413, as
        the proxy answers a body beyond it (deploy/nginx.conf.template), in the same words."""
        return BundleTooLarge(
            cls.TOO_LARGE.format(limit=size_text(limit)), fields={"file": ["too large"]}
        )


class BundleTooLarge(BundleRejected):
    code = "too_large"
    status = 413


def size_text(size: int) -> str:
    """A size as people say it: 5 MiB, 1.5 MiB, 512 KiB, 300 bytes (to a tenth of the unit)."""
    for unit, factor in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= factor:
            value = size / factor
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{size} bytes"


class BadGameConfig(ArenaError):
    code = "bad_game_config"
    status = 400

    UNKNOWN_MODE = "Unknown or unavailable mode {mode!r}; available: {available}."
    SEATS = "A {mode} game has {span}, not {seats}."
    DIFFICULTY = "Solo {what} need a difficulty: {choices}."


class RateLimited(ArenaError):
    """Too many requests of one kind; `retry_after` says in how many seconds to try again."""

    code = "throttled"
    status = 429

    CHALLENGES_PER_HOUR = "You may request {limit} challenge matches per hour."
    CHALLENGES_ACTIVE = "You already have {limit} challenge matches queued or running."
    TEST_GAMES_RUNNING = (
        "You already have {games} queued or running (at most {limit} at once);"
        " request the next when it ends."
    )
    TEST_GAMES_PER_DAY = (
        "You have played {games} in the last 24 hours (at most {limit});"
        " the next is possible at {when} UTC, in {wait}."
    )
    PAIRED_ACTIVE = "You already have {limit} paired comparisons running."
    ANALYSES_PER_HOUR = "You may request {limit} match analyses per hour."
    SIGNUPS_PER_ADDRESS = (
        "Too many new accounts from this address: at most {limit} in {window} minutes;"
        " try again in {s} s."
    )

    def __init__(
        self, message: str, *, retry_after: int, fields: dict[str, list[str]] | None = None
    ) -> None:
        super().__init__(message, fields=fields)
        self.retry_after = retry_after
