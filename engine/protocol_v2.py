"""Protocol 2's observation: one shape in every mode for "who am I" and "what is asked".

Protocol 1 (kept byte for byte for the bots written for it) shows the Duel differently from
the other modes: there ``you`` is the seat number and the question is ``phase``, where the
standard, family and solo modes give ``seat`` (the number), ``you`` (your own player) and
``decision`` (``decision.decision`` names the question). A bot that answers ``start`` with
``"protocol": 2`` is sent every observation in the second shape, so the same three keys mean
the same thing in every mode:

* ``seat``: your seat number;
* ``you``: your own player (the Duel: ``players[seat]``, the same object);
* ``decision``: an object whose ``decision`` names what is asked (the Duel: the phase).

Every other key is unchanged, in its place. Pure: a function of the observation alone.
``observation_v1`` turns it back, so code written for the engine's own observations (the
forward model, ``engine.forward.determinize``) takes either version.
"""

from __future__ import annotations

from typing import Any

PROTOCOLS = (1, 2)  # the versions the engine's observations can be shown in
SHARED_KEYS = ("seat", "you", "decision")


def observation_v2(observation: dict[str, Any]) -> dict[str, Any]:
    """The observation in protocol 2's shape (the same dict when it already has it)."""
    you = observation.get("you")
    if type(you) is not int:  # the standard, family and solo modes: already shared
        return observation
    out: dict[str, Any] = {}
    for key, value in observation.items():
        if key == "you":
            out["seat"] = you
            out["you"] = observation["players"][you]
            out["decision"] = {"decision": observation["phase"]}
        else:
            out[key] = value
    return out


def observation_v1(observation: dict[str, Any]) -> dict[str, Any]:
    """The observation in the engine's own shape (protocol 1): the inverse of
    ``observation_v2``, the same dict when it already has that shape. Only the Duel's differs:
    there protocol 2's ``seat``, ``you`` (the player) and ``decision`` become ``you`` (the seat
    number) again, in the place ``seat`` held."""
    if observation.get("mode") != "duel" or type(observation.get("you")) is int:
        return observation
    out: dict[str, Any] = {}
    for key, value in observation.items():
        if key == "seat":
            out["you"] = value
        elif key not in ("you", "decision"):
            out[key] = value
    return out
