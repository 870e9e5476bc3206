"""What each seat may see (``observation``), what a spectator sees (``spectator_view``) and
everything that decides the future (``full_state``, hashed by ``state_hash``).

An observation holds the public table plus the seat's own hidden cards. It never holds
another seat's hand, draft pile, kept or drawn cards, private lessons, chosen-but-unrevealed
rescue cards, nor the bag or deck order. In simultaneous steps (buying, choosing rescue cards)
the other seats' fish, hand sizes, baskets and the played pile are shown as they were when
the step began (``public_snapshot``), so no choice shows before everybody has chosen. Where
the seats asked are exactly those holding something hidden (buying, choosing rescue cards,
anytime rounds: ``Frame.public_waiting``), ``pending`` names only the observing seat, if it
is asked.

The bot protocol asks for the same observation with ``texts``: the players, ``you``, the
fields and the supply then come as ``JSONText`` built from the texts those objects keep
(boats, players, fields, supply), byte for byte the JSON of the plain form, each with its
parts (``JSONText.parts``: players, their members, the boats' tiles, the fields' cats), so
that an observation patch descends only into what changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...jsontext import array_text

if TYPE_CHECKING:
    from .game import StandardGame
    from .state import State


def public_snapshot(game: StandardGame) -> dict[str, Any]:
    """The public facts a simultaneous step may change, frozen at its start."""
    state = game.state
    return {
        "players": {p.seat: {"fish": p.fish, "hand_count": len(p.hand), "baskets": p.baskets,
                             "baskets_used": p.baskets_used} for p in state.players},
        "played": list(state.played),
    }


def _players(state: State, overlays: list[dict[str, Any] | None], texts: bool) -> Any:
    if texts:
        return array_text([p.json_part(private=False, overlay=overlay)
                           for p, overlay in zip(state.players, overlays, strict=True)])
    players = []
    for p, overlay in zip(state.players, overlays, strict=True):
        view = p.to_json(private=False)
        if overlay is not None:
            view.update(overlay)
        players.append(view)
    return players


def _fields(state: State, texts: bool) -> Any:
    tiles = state.tiles
    if texts:
        return state.fields.to_part(lambda t: tiles[t].json_part)
    return state.fields.to_json(lambda t: tiles[t].to_json())


def _supply(state: State, texts: bool) -> Any:
    if texts:
        return state.supply.to_part(state.tiles)
    return state.supply.to_json(state.tiles)


def _public(
    game: StandardGame, *, live: bool, seat: int | None = None, texts: bool = False,
    players: bool = True,
) -> dict[str, Any]:
    """The table as everybody sees it. In a simultaneous step the players are shown as the
    snapshot froze them, except ``seat`` (the observer, who knows its own). ``texts``: the
    players, fields and supply as ``JSONText`` (``protocol_observation``). Without
    ``players`` the players are left out (the spectator view puts its own last)."""
    state = game.state
    top = game.frames[-1] if game.frames else None
    snap = None if live else getattr(top, "snapshot", None)
    out = {
        "mode": game.mode,
        "seats": game.seats,
        "day": state.day,
        "days": game.rules.days,
        "phase": game.step.value if game.step is not None else None,
        "turn_order": list(state.turn_order),
        "draft_direction": game.rules.draft_direction(state.day),
        "pending": list(game.pending()) if live or top is None or top.public_waiting else [],
        "fields": _fields(state, texts),
        "supply": _supply(state, texts),
        "public_lessons": [{"card": c, "colour": col} for c, col in state.public_lessons],
        "public_lessons_awaiting_colour": list(state.public_lessons_pending),
        "played": list(snap["played"]) if snap is not None else list(state.played),
        "bag_count": len(state.bag),
        "deck_count": len(state.deck),
        "discard_count": len(state.discard),
        "removed_count": len(state.removed),
    }
    if players:
        overlays = [None if snap is None or p.seat == seat else snap["players"][p.seat]
                    for p in state.players]
        out["players"] = _players(state, overlays, texts)
    return out


def observation(game: StandardGame, seat: int, *, texts: bool = False) -> dict[str, Any]:
    """What ``seat`` may know. ``texts``: the form ``Game.protocol_observation`` gives, with
    the players, the fields, the supply and ``you`` as ``JSONText``."""
    if not 0 <= seat < game.seats:
        raise ValueError(f"no seat {seat} in a game of {game.seats}")
    view = _public(game, live=False, seat=seat, texts=texts)
    me = game.state.players[seat]
    view["seat"] = seat
    view["you"] = me.json_part(private=True) if texts else me.to_json(private=True)
    pending = game.pending()
    if not view["pending"] and seat in pending:
        view["pending"] = [seat]  # who else is asked is not public (``Frame.public_waiting``)
    view["decision"] = game.frames[-1].describe(game, seat) if seat in pending else None
    return view


def spectator_view(game: StandardGame) -> dict[str, Any]:
    view = _public(game, live=True, players=False)
    view["players"] = [p.to_json(private=True) for p in game.state.players]
    top = game.frames[-1] if game.frames else None
    view["decisions"] = {str(s): top.describe(game, s) for s in game.pending()} if top else {}
    return view


def full_state(game: StandardGame) -> dict[str, Any]:
    state = game.state
    view = spectator_view(game)
    view.update(
        seed=game.seed,
        options=game.options,
        bag=list(state.bag),
        deck=list(state.deck),
        discard=list(state.discard),
        removed=list(state.removed),
        in_transit=list(state.in_transit),
        step=game.step.value if game.step is not None else None,
        more_days=game._day_ended_with_more_to_come,
        frames=[f.to_state() for f in game.frames],
    )
    return view
