"""A forward model for bots: rebuild a playable ``Game`` from what one seat was sent.

``determinize(start, decide, rng)`` takes the seat's ``start`` message and its latest
``decide`` message (with the full ``observation``: a bot that asked for deltas applies them
first; protocol 1's shape or protocol 2's, ``engine.protocol_v2``) and returns a game of the
engine's own classes whose public parts equal the observation and whose hidden parts (the
bag's and the deck's order, the other seats' hands, draft piles, kept cards and face-down
cards) are sampled from ``rng``, from what the seat
cannot see and from nothing else. The game has the whole decision API (``pending``,
``legal_actions``, ``apply``, ``observation``, ``is_over``, ``result``, ``scores``) and
``clone()``, so a bot can play it on to the end as often as its time allows.

Everything a determinization needs is in the latest observation: no earlier message is
read (docs/search-bots.md). Bad input raises ``DeterminizeError`` naming the problem.

Each mode determinizes its own games (``engine/modes/<mode>/determinize.py``, family and
solo through the standard game's hooks); this module checks the messages and hands them to
the mode's function in ``DETERMINIZERS``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..errors import DeterminizeError
from ..game import Game
from ..modes.duel.determinize import determinize_duel
from ..modes.family.determinize import determinize_family
from ..modes.solo.determinize import determinize_solo
from ..modes.standard.determinize import determinize_standard
from ..protocol_v2 import observation_v1
from ..rng import Rng

__all__ = ["DeterminizeError", "determinize", "observation_of"]

# mode -> its determinization: (start message, full observation, rng) -> game
DETERMINIZERS: dict[str, Callable[[Mapping[str, Any], Mapping[str, Any], Rng], Game]] = {
    "standard": determinize_standard,
    "family": determinize_family,
    "solo": determinize_solo,
    "duel": determinize_duel,
}


def _rng(rng: Rng | int | None) -> Rng:
    if isinstance(rng, Rng):
        return rng
    if rng is None:
        return Rng(0, "determinize")
    if isinstance(rng, bool) or not isinstance(rng, int):
        raise DeterminizeError(f"rng must be an engine.rng.Rng or an int seed, not {rng!r:.40}")
    return Rng(rng, "determinize")


def observation_of(decide: Mapping[str, Any]) -> dict[str, Any]:
    """The full observation of a ``decide`` message (or an observation given as it is), in
    the engine's own shape whichever protocol version it was sent in (``observation_v1``)."""
    if not isinstance(decide, Mapping):
        raise DeterminizeError(f"a decide message is a JSON object, not {type(decide).__name__}")
    if decide.get("type") == "decide" or "observation" in decide:
        obs = decide.get("observation")
        if obs is None:
            if "observation_delta" in decide or "observation_patch" in decide:
                raise DeterminizeError(
                    "the decide message carries a delta, not the full observation: apply it "
                    "to the previous observation and pass the result")
            raise DeterminizeError("the decide message has no observation")
    else:
        obs = decide
    if not isinstance(obs, Mapping):
        raise DeterminizeError(f"the observation is a JSON object, not {type(obs).__name__}")
    return observation_v1(dict(obs))


def determinize(start: Mapping[str, Any], decide: Mapping[str, Any],
                rng: Rng | int | None = None) -> Game:
    """A game consistent with everything ``start`` and ``decide`` tell the seat, its
    hidden parts sampled from ``rng`` (an ``engine.rng.Rng`` or an int seed)."""
    if not isinstance(start, Mapping) or start.get("type", "start") != "start":
        raise DeterminizeError("the first argument must be the start message")
    mode = start.get("mode")
    obs = observation_of(decide)
    if obs.get("mode") != mode:
        raise DeterminizeError(
            f"the observation is of mode {obs.get('mode')!r} but the start message is of "
            f"mode {mode!r}")
    seat = start.get("seat")
    seats = start.get("seats")
    if isinstance(seat, bool) or not isinstance(seat, int) or isinstance(seats, bool) \
            or not isinstance(seats, int) or not 0 <= seat < seats:
        raise DeterminizeError(f"the start message's seat {seat!r} is not a seat of {seats!r}")
    r = _rng(rng)
    mode_determinize = DETERMINIZERS.get(mode)  # type: ignore[arg-type]
    if mode_determinize is None:
        raise DeterminizeError(f"unknown mode {mode!r}; modes: {', '.join(DETERMINIZERS)}")
    try:
        return mode_determinize(start, obs, r)
    except DeterminizeError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise DeterminizeError(f"malformed {mode} observation: {type(exc).__name__}: {exc}") \
            from None
