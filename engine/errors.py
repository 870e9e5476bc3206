"""The engine's exceptions: one family, distinct kinds for bot input.

A malformed action (not an action at all) and an illegal action (a real
action that the rules forbid now) are different faults for a bot author, so
they are different classes; both carry a human-readable reason.
"""


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class ConfigError(EngineError, ValueError):
    """A game cannot be created with this mode, seat count or options."""


class ActionError(EngineError, ValueError):
    """Base for rejected actions; ``reason`` is one readable sentence."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class MalformedAction(ActionError):
    """The value does not decode to an action of this mode."""


class IllegalAction(ActionError):
    """A well-formed action that the rules do not allow for this seat now."""


class NotYourTurn(IllegalAction):
    """The seat is not among the seats that must decide now."""


class GameOver(IllegalAction):
    """The game has ended; no action is accepted."""


class DeterminizeError(EngineError, ValueError):
    """``engine.forward.determinize`` was given messages it cannot rebuild a game from: a
    message of another mode, a malformed one, or an observation that contradicts itself.
    The message names the problem."""
