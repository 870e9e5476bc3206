"""The rescue phase of a random playout, as one loop (``StandardGame.playout``).

Rescue turns and the placements they lead to are about half of a 4-player playout's
decisions. Through the frames, each rescue pushes a ``PlaceFrame``, progresses and pops it
and the turn, fills and clears the cache of legal actions, and goes round ``_advance``'s loop
a few times. ``rescue_turns`` plays them in one loop over the rule's own pieces
(``RescueTurnFrame.legal``, ``rescue``, ``rescued_all``, ``play_only``, ``_end``; the
placement's ``draw_placement`` and ``put_tile``; the phase's ``over``, ``_next_seat`` and
``others_may_play``), keeping the phase and turn frames as the frames would leave them. It
hands back to the frames, through ``_advance``, at everything rarer: an anytime card played
or playable by another seat, a second cat (cards 80-82), a map reward, the end of the phase.
The same draws, moves, history and events as the frames: tests/engine/test_playout.py, and
tests/engine/test_playout_rescue.py builds each of those cases.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ...actions import Action
from .phases.rescue import RescuePhaseFrame, RescueTurnFrame
from .phases.turns import others_may_play
from .placement import TreasureFrame, draw_placement, put_tile
from .rescue_hooks import plain_rescue_hooks

if TYPE_CHECKING:
    from .game import StandardGame


def plays_rescue_turns(game: StandardGame, frame: object) -> bool:
    """Whether ``rescue_turns`` may take over at ``frame``: a plain rescue turn of a plain
    rescue phase, in a game whose rescue hooks do nothing (solo's sister plays after each
    turn, family rescues with frames of its own)."""
    return (type(frame) is RescueTurnFrame and type(frame._phase) is RescuePhaseFrame
            and plain_rescue_hooks(type(game)))


def rescue_turns(game: StandardGame, turn: RescueTurnFrame,
                 randbelow: Callable[[int], int]) -> None:
    """Play random decisions from ``turn`` (the top frame, waiting for its seat; see
    ``plays_rescue_turns``) until something the loop leaves to the frames. Returns with the
    frames progressed: the top frame waiting, or no frame left."""
    history = game.history.append
    seat_steps = game.seat_steps
    players = game.state.players
    tiles = game.state.tiles
    cache = game._legal
    legal: Sequence[Action] | None = cache.get((id(turn), turn.seat))
    cache.clear()  # the loop keeps its legal actions itself; ``_advance`` refills the cache
    while True:
        seat = turn.seat
        if legal is None:
            legal = turn.legal(game, seat)
        action = legal[randbelow(len(legal))]
        history((seat, action))
        seat_steps[seat] += 1
        kind = action[0]
        if kind == "rescue":
            tile = turn.rescue(game, seat, action)
            info = tiles[tile]
            # the placement: the cat fits (rescue options offer only cats that fit), so the
            # ``PlaceFrame`` would wait for the seat at once
            place = draw_placement(players[seat], info.shape, randbelow)
            history((seat, place))
            seat_steps[seat] += 1
            if put_tile(game, seat, tile, info.colour, place[1], True):
                # ``PlaceFrame.apply``'s map reward
                game.log("map_reward", seat=seat, colour=info.colour)
                game.push(TreasureFrame(seat, game.map_reward_pool, count=1, required=0))
                game._advance()
                return
            if not turn.rescued_all(game):
                game._advance()  # another cat may be rescued this turn
                return
            turn._end(game)
        elif kind == "pass" or kind == "done":
            turn.apply(game, seat, action)
        else:  # an anytime card
            turn.apply(game, seat, action)
            cache.clear()
            game._advance()
            return
        turn, legal = _next_turn(game, turn._phase)
        if turn is None:
            return


def _next_turn(game: StandardGame, phase: RescuePhaseFrame
               ) -> tuple[RescueTurnFrame | None, Sequence[Action] | None]:
    """After the top frame's turn is over: ``TurnsFrame.progress`` of the rescue phase over
    its own pieces. Returns the next turn, waiting, and its legal actions; turns with only
    ``pass`` are played at once, as ``RescueTurnFrame.progress`` plays them. Returns
    ``(None, None)`` after handing back to the frames (the phase is over, or another seat
    holds a playable anytime card, which opens an anytime round before the turn)."""
    frames = game.frames
    order = phase.order
    while True:
        frames.pop()
        phase.stage = "next"  # after_turn: the hooks do nothing (``plays_rescue_turns``)
        if phase.over(game):
            game._advance()
            return None, None
        seat = phase._next_seat()
        if others_may_play(game, order, seat):
            game._advance()
            return None, None
        phase.current = seat
        phase.stage = "turn"
        turn = RescueTurnFrame(phase, seat)
        frames.append(turn)
        legal = turn.legal(game, seat)
        if len(legal) > 1:
            turn.waiting = (seat,)
            return turn, legal
        turn.play_only(game, legal)
